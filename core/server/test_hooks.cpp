// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/test_hooks.h"

#include <charconv>

#include <QHostAddress>
#include <QTimer>

#include <nlohmann/json.hpp>

#include "core/common/logging.h"
#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "core/server/kube_status.h"

namespace dra::server {

namespace {

Response success(const std::string &message, nlohmann::json details = nlohmann::json::object())
{
    return jsonResponse(200,
        { { "kind", "Status" }, { "apiVersion", "v1" }, { "metadata", nlohmann::json::object() },
            { "status", "Success" }, { "message", message }, { "details", std::move(details) },
            { "code", 200 } });
}

} // namespace

TestHooks::TestHooks(ApiServer &api, HttpServer &http, QObject *parent)
    : QObject(parent)
    , m_api(api)
    , m_http(&http)
{
}

bool TestHooks::handle(Request &request, HttpConnection &connection)
{
    const std::string &path = request.path;
    const bool known = path == test_hooks::kDropWatches || path == test_hooks::kCompact
        || path == test_hooks::kExpireContinue || path == test_hooks::kRestart;
    if (!known)
        return false;
    if (request.method != "POST") {
        connection.respond(status::methodNotAllowed());
        return true;
    }
    if (path == test_hooks::kDropWatches) {
        const int count = m_api.watchHub().watcherCount();
        m_api.watchHub().finishAll();
        connection.respond(success("dropped every open watch", { { "watches", count } }));
        return true;
    }
    if (path == test_hooks::kCompact) {
        Result<int64_t> rev = m_api.watchHub().currentRevision();
        if (!rev) {
            connection.respond(status::fromError(rev.error()));
            return true;
        }
        m_api.watchHub().compactTo(*rev);
        m_api.resources().compactTo(*rev);
        connection.respond(success("compacted the history up to revision " + std::to_string(*rev),
            { { "revision", std::to_string(*rev) } }));
        return true;
    }
    if (path == test_hooks::kExpireContinue) {
        m_api.resources().expireContinueTokens();
        connection.respond(success("expired every continue token handed out so far"));
        return true;
    }
    int downMillis = 500;
    if (auto text = request.query.value("downMillis"); text && !text->empty()) {
        const auto [end, ec]
            = std::from_chars(text->data(), text->data() + text->size(), downMillis);
        if (ec != std::errc() || end != text->data() + text->size() || downMillis < 0
            || downMillis > 60000) {
            connection.respond(status::badRequest(
                "downMillis: Invalid value: \"" + *text + "\": must be 0 to 60000"));
            return true;
        }
    }
    connection.respond(success("restarting", { { "downMillis", downMillis } }));
    // Let the answer reach the client before its connection goes down with the others.
    QTimer::singleShot(100, this, [this, downMillis] { restart(downMillis); });
    return true;
}

void TestHooks::restart(int downMillis)
{
    if (!m_http)
        return;
    const QHostAddress address = m_http->address();
    const quint16 port = m_http->port();
    m_http->close();
    m_http->abortConnections();
    QTimer::singleShot(downMillis, this, [this, address, port] {
        if (!m_http)
            return;
        if (Result<void> listening = m_http->listen(address, port); !listening)
            qCWarning(lcServer, "cannot listen again after the restart: %s",
                qPrintable(listening.error().message));
    });
}

} // namespace dra::server
