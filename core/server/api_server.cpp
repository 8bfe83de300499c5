// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/api_server.h"

#include <algorithm>
#include <cctype>

#include <QPointer>

#include <nlohmann/json.hpp>

#include "core/server/discovery.h"
#include "core/server/kube_status.h"

namespace dra::server {

namespace {

std::vector<std::string> splitPath(std::string_view path)
{
    std::vector<std::string> segments;
    size_t start = 0;
    while (start < path.size()) {
        size_t end = path.find('/', start);
        if (end == std::string_view::npos)
            end = path.size();
        if (end > start)
            segments.emplace_back(path.substr(start, end - start));
        start = end + 1;
    }
    return segments;
}

const model::KindInfo *kindByPlural(
    std::string_view group, std::string_view version, std::string_view plural)
{
    for (const model::KindInfo &kind : model::allKinds()) {
        if (kind.group == group && kind.preferredVersion == version && kind.plural == plural)
            return &kind;
    }
    return nullptr;
}

// Compares in time independent of where the first difference is, so the token cannot be
// guessed byte by byte from response times.
bool sameSecret(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

Response plainText(int status, const char *text)
{
    return Response { status, "text/plain; charset=utf-8", {}, QByteArray(text) };
}

} // namespace

ApiServer::ApiServer(store::CacheDb &cache, ApiServerOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_source(cache, m_options.cluster)
    , m_resources(m_source)
    , m_watches(new WatchHub(m_source, m_options.pollIntervalMs, this))
{
}

ApiServer::~ApiServer() = default;

RequestHandler ApiServer::handler()
{
    QPointer<ApiServer> self(this);
    return [self](Request &request, HttpConnection &connection) {
        if (self)
            self->handle(request, connection);
        else
            connection.respond(status::internalError("the server is shutting down"));
    };
}

bool ApiServer::authenticate(Request &request) const
{
    if (m_options.token.empty()) {
        request.user = QStringLiteral("system:anonymous");
        return true;
    }
    const std::string header = request.header("authorization");
    constexpr std::string_view scheme = "Bearer ";
    if (header.size() <= scheme.size()
        || !std::equal(scheme.begin(), scheme.end(), header.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a))
                   == std::tolower(static_cast<unsigned char>(b));
           }))
        return false;
    if (!sameSecret(std::string_view(header).substr(scheme.size()), m_options.token))
        return false;
    request.user = QStringLiteral("admin");
    return true;
}

void ApiServer::handle(Request &request, HttpConnection &connection)
{
    const std::string &path = request.path;
    const bool read = request.method == "GET" || request.method == "HEAD";
    // Public like upstream's system:public-info-viewer: kubectl's dispatcher asks /version first.
    if (read && (path == "/version" || path == "/version/")) {
        connection.respond(jsonResponse(200, discovery::version()));
        return;
    }
    if (read && (path == "/healthz" || path == "/readyz" || path == "/livez")) {
        connection.respond(plainText(200, "ok"));
        return;
    }
    if (!authenticate(request)) {
        connection.respond(status::unauthorized());
        return;
    }
    const std::vector<std::string> segments = splitPath(path);
    if (segments.empty() || (segments[0] != "api" && segments[0] != "apis")) {
        connection.respond(status::unknownPath());
        return;
    }
    if (!read) {
        // Read-only server. The request's body has already been read in full by the
        // connection, so the next request on this keep-alive connection starts cleanly.
        connection.respond(status::methodNotAllowed());
        return;
    }
    const bool core = segments[0] == "api";
    if (segments.size() == 1) {
        connection.respond(discovery::apiRoot(request, core, request.header("host")));
        return;
    }
    if (!core && segments.size() == 2) {
        const nlohmann::json group = discovery::apiGroup(segments[1]);
        connection.respond(group.is_null() ? status::unknownPath() : jsonResponse(200, group));
        return;
    }
    if ((core && segments.size() == 2) || (!core && segments.size() == 3)) {
        const nlohmann::json list = core ? discovery::resourceList("", segments[1])
                                         : discovery::resourceList(segments[1], segments[2]);
        connection.respond(list.is_null() ? status::unknownPath() : jsonResponse(200, list));
        return;
    }
    serveResource(request, connection, segments);
}

void ApiServer::serveResource(
    Request &request, HttpConnection &connection, const std::vector<std::string> &segments)
{
    const bool core = segments[0] == "api";
    const std::string group = core ? std::string() : segments[1];
    const std::string &version = core ? segments[1] : segments[2];
    const std::vector<std::string> rest(segments.begin() + (core ? 2 : 3), segments.end());

    const model::KindInfo *kind = nullptr;
    std::string ns, name;
    if (rest.size() >= 3 && rest[0] == "namespaces") {
        // namespaces/{ns}/{plural}[/{name}]
        kind = kindByPlural(group, version, rest[2]);
        if (!kind || !kind->namespaced || rest.size() > 4) {
            connection.respond(status::unknownPath());
            return;
        }
        ns = rest[1];
        name = rest.size() == 4 ? rest[3] : std::string();
    } else if (rest.size() <= 2) {
        kind = kindByPlural(group, version, rest[0]);
        // {plural}[/{name}]: a namespaced kind here is an all-namespaces list, never a get.
        if (!kind || (kind->namespaced && rest.size() == 2)) {
            connection.respond(status::unknownPath());
            return;
        }
        name = rest.size() == 2 ? rest[1] : std::string();
    } else {
        connection.respond(status::unknownPath());
        return;
    }

    if (auto watch = request.query.value("watch"); watch && !watch->empty()) {
        const std::optional<bool> flag = parseGoBool(*watch);
        if (!flag) {
            connection.respond(
                status::badRequest("watch: Invalid value: \"" + *watch + "\": not a boolean"));
            return;
        }
        if (*flag && name.empty()) {
            m_watches->serve(request, connection, *kind, ns);
            return;
        }
    }
    connection.respond(name.empty() ? m_resources.list(request, *kind, ns)
                                    : m_resources.get(request, *kind, ns, name));
}

} // namespace dra::server
