// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/test_hooks.h"

#include <charconv>
#include <optional>
#include <string>
#include <variant>

#include <QHostAddress>
#include <QTimer>

#include <nlohmann/json.hpp>

#include "core/common/logging.h"
#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "core/server/kube_status.h"
#include "core/store/cache_db.h"

namespace dra::server {

namespace {

// The integer query parameter `name` within [low, high]; `fallback` when absent; an error
// message when it is not one.
std::variant<int64_t, std::string> intParameter(
    const Request &request, const char *name, int64_t fallback, int64_t low, int64_t high)
{
    const std::optional<std::string> text = request.query.value(name);
    if (!text || text->empty())
        return fallback;
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (ec != std::errc() || end != text->data() + text->size() || value < low || value > high)
        return std::string(name) + ": Invalid value: \"" + *text + "\": must be "
            + std::to_string(low) + " to " + std::to_string(high);
    return value;
}

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
        || path == test_hooks::kExpireContinue || path == test_hooks::kRestart
        || path == test_hooks::kRestore || path == test_hooks::kTooLargeWait;
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
    if (path == test_hooks::kRestore) {
        restore(request, connection);
        return true;
    }
    if (path == test_hooks::kTooLargeWait) {
        const auto millis = intParameter(request, "millis", 3000, 0, 60000);
        if (const auto *problem = std::get_if<std::string>(&millis)) {
            connection.respond(status::badRequest(*problem));
            return true;
        }
        m_api.watchHub().setTooLargeWaitMs(int(std::get<int64_t>(millis)));
        connection.respond(success(
            "too-large resourceVersions wait " + std::to_string(std::get<int64_t>(millis)) + " ms",
            { { "millis", std::get<int64_t>(millis) } }));
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

void TestHooks::restore(Request &request, HttpConnection &connection)
{
    store::CacheDb *writer = m_api.writer();
    if (!writer) {
        connection.respond(status::badRequest(
            "restore: this server is read-only; a restore needs the demo cluster or --writable"));
        return;
    }
    Result<int64_t> current = m_api.watchHub().currentRevision();
    if (!current) {
        connection.respond(status::fromError(current.error()));
        return;
    }
    const auto revision = intParameter(request, "revision", *current - 1, 1, *current);
    if (const auto *problem = std::get_if<std::string>(&revision)) {
        connection.respond(status::badRequest(*problem));
        return;
    }
    const int64_t rev = std::get<int64_t>(revision);
    if (Result<void> rolled = writer->rollBackTo(rev); !rolled) {
        connection.respond(status::fromError(rolled.error()));
        return;
    }
    m_api.watchHub().rewindTo(rev);
    m_api.resources().rewound();
    connection.respond(success("restored the state at revision " + std::to_string(rev) + " (was "
            + std::to_string(*current) + "); restarting",
        { { "revision", std::to_string(rev) } }));
    QTimer::singleShot(100, this, [this] { restart(500); });
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
