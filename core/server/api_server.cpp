// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/api_server.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <memory>

#include <QFileInfo>
#include <QPointer>

#include <nlohmann/json.hpp>

#include "core/server/console_api.h"
#include "core/server/delegated_access.h"
#include "core/server/discovery.h"
#include "core/server/kube_status.h"
#include "core/server/openapi.h"
#include "core/server/request_attributes.h"
#include "core/server/resource_path.h"
#include "core/server/scale_subresource.h"
#include "core/server/web_console.h"
#include "core/server/websocket_sink.h"

namespace dra::server {

std::optional<std::string> bearerToken(std::string_view header)
{
    constexpr std::string_view scheme = "Bearer ";
    if (header.size() <= scheme.size()
        || !std::equal(scheme.begin(), scheme.end(), header.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a))
                   == std::tolower(static_cast<unsigned char>(b));
           }))
        return std::nullopt;
    return std::string(header.substr(scheme.size()));
}

namespace {

// A request's verb as kube-apiserver's metrics name it: LIST and WATCH apart from GET, APPLY
// apart from PATCH; the HTTP method for paths outside the resource API.
std::string metricsVerb(const Request &request, const model::AccessAttributes &attributes)
{
    if (!attributes.resourceRequest)
        return request.method;
    const std::string &verb = attributes.verb;
    if (verb == "list" || verb == "watch" || verb == "get")
        return verb == "list" ? "LIST" : verb == "watch" ? "WATCH" : "GET";
    if (verb == "patch")
        return request.header("content-type").starts_with("application/apply-patch") ? "APPLY"
                                                                                     : "PATCH";
    if (verb == "create")
        return "POST";
    if (verb == "update")
        return "PUT";
    if (verb == "delete" || verb == "deletecollection")
        return "DELETE";
    return request.method;
}

Response plainText(int status, const char *text)
{
    return Response { status, "text/plain; charset=utf-8", {}, QByteArray(text) };
}

std::string claimedVersion(store::CacheDb &cache, const ApiServerOptions &options)
{
    if (!options.kubernetesVersion.empty())
        return options.kubernetesVersion;
    return recordedVersion(cache, options.cluster);
}

} // namespace

std::string recordedVersion(store::CacheDb &cache, const std::string &cluster)
{
    Result<std::vector<store::ClusterInfo>> clusters = cache.clusters();
    if (!clusters)
        return {};
    for (const store::ClusterInfo &info : *clusters) {
        if (info.name == cluster)
            return info.version;
    }
    return {};
}

ApiServer::ApiServer(store::CacheDb &cache, ApiServerOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_api(claimedVersion(cache, m_options), m_options.writer != nullptr)
    , m_source(cache, m_options.cluster)
    , m_resources(m_source)
    , m_watches(new WatchHub(m_source, m_options.pollIntervalMs, this))
    // Clients such as Headlamp offer base64.binary.k8s.io for watches, which kube-apiserver
    // accepts; events are JSON text messages either way.
    , m_webSockets(new WebSocketGateway({ QStringLiteral("base64.binary.k8s.io") }, this))
    , m_console(new console::ConsoleApi(cache.path(), m_options.cluster, m_api.gitVersion(),
          m_options.writer != nullptr, m_api, *m_watches, this))
    , m_reader(std::make_unique<ObjectWriter>(cache, m_options.cluster))
{
    if (!m_options.clusterResourceVersions.empty())
        m_api.serveOnlyResourceVersions(m_options.clusterResourceVersions);
    if (m_options.rbac)
        m_authorizer = std::make_unique<RequestAuthorizer>(cache, m_options.cluster);
    // The console's views show each user what they may list.
    if (m_authorizer || m_options.delegated)
        m_console->setAccessChecks(
            [this](const model::UserIdentity &user) { return accessCheckFor(user); });
    if (m_authorizer)
        m_console->setRulesFor([this](const model::UserIdentity &user, std::string_view ns) {
            return m_authorizer->rulesFor(user, ns);
        });
    else if (m_options.delegated)
        m_console->setSelfRulesAsker(
            [delegated = m_options.delegated](const std::string &authorization,
                std::vector<std::string> namespaces, QObject *context,
                std::function<void(const Result<inventory::SelfRules> &)> done) {
                const std::optional<std::string> token = bearerToken(authorization);
                if (!token)
                    return done(dra::fail(common::Error::Code::Unauthorized,
                        QStringLiteral(
                            "the request carries no bearer token to ask the cluster with")));
                delegated->selfRules(*token, std::move(namespaces), context,
                    [done](const Result<kube::SelfRulesAnswer> &answer) {
                        if (!answer)
                            return done(dra::fail(answer.error()));
                        done(inventory::SelfRules {
                            { "User", answer->username, "" }, answer->rulesByNamespace });
                    });
            });
    if (m_options.writer) {
        m_writer = std::make_unique<ObjectWriter>(*m_options.writer, m_options.cluster);
        // A commit of ours reaches the watchers at once rather than at the next poll.
        m_writes
            = std::make_unique<WriteController>(*m_writer, m_api, [this] { m_watches->poll(); });
    }
}

ApiServer::~ApiServer()
{
    delete m_console; // its pages' watches and its reading thread end before the hub goes
}

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

void ApiServer::setExtraHandler(std::string prefix, ExtraHandler handler)
{
    for (auto &[known, extra] : m_extras) {
        if (known == prefix) {
            extra = std::move(handler);
            return;
        }
    }
    m_extras.emplace_back(std::move(prefix), std::move(handler));
}

bool ApiServer::identifyByCertificate(Request &request) const
{
    if (!m_options.clientCa || request.peerCertificates.empty())
        return false;
    Result<ClientIdentity> identity = m_options.clientCa->verify(request.peerCertificates);
    if (!identity)
        return false;
    request.user = identity->user;
    request.groups = identity->groups;
    request.groups << QStringLiteral("system:authenticated");
    return true;
}

bool ApiServer::authenticate(Request &request) const
{
    // As kube-apiserver: a valid client certificate identifies its holder; otherwise the token.
    if (identifyByCertificate(request))
        return true;
    if (m_options.token.empty() && !m_options.users) {
        request.user = QStringLiteral("system:anonymous");
        request.groups = QStringList { QStringLiteral("system:unauthenticated") };
        return true;
    }
    std::optional<std::string> token = bearerToken(request.header("authorization"));
    if (!token && isWebSocketUpgrade(request)) // a browser cannot set headers on a WebSocket
        token = bearerTokenFromProtocols(request);
    std::optional<model::UserIdentity> user = token ? userOfToken(*token) : std::nullopt;
    if (!user)
        return false;
    request.user = QString::fromStdString(user->name);
    request.groups.clear();
    for (const std::string &group : user->groups)
        request.groups << QString::fromStdString(group);
    return true;
}

std::optional<model::UserIdentity> ApiServer::userOfToken(std::string_view token) const
{
    if (!m_options.token.empty() && sameSecret(token, m_options.token))
        return model::UserIdentity { "admin",
            { std::string(model::kMastersGroup), std::string(model::kAuthenticatedGroup) } };
    return m_options.users ? m_options.users->find(token) : std::nullopt;
}

console::AccessCheck ApiServer::accessCheckFor(const model::UserIdentity &user)
{
    QPointer<ApiServer> self(this);
    return [self, user](const model::AccessAttributes &attributes, std::function<void(bool)> done) {
        if (!self) {
            done(false);
            return;
        }
        if (self->m_authorizer) {
            done(self->m_authorizer->authorize(user, attributes).allowed);
            return;
        }
        self->m_options.delegated->authorize(
            user, attributes, self, [done](const Result<model::AccessDecision> &decision) {
                done(decision && decision->allowed);
            });
    };
}

std::optional<Response> ApiServer::refusal(const Request &request)
{
    // The console's computed views need only authentication: they show what the user may list.
    if (!m_authorizer || console::filtersPerUser(request.path))
        return std::nullopt;
    const model::AccessAttributes attributes = requestAttributes(request);
    if (m_authorizer->authorize(identityOf(request), attributes).allowed)
        return std::nullopt;
    return forbiddenResponse(attributes, request.user.toStdString());
}

Response ApiServer::health(const Request &request) const
{
    // Liveness is the process answering; readiness also needs every mirrored stream current.
    const std::string endpoint = request.path.substr(1);
    const bool readiness = endpoint != "livez";
    const std::vector<std::string> failures = readiness && m_options.readinessFailures
        ? m_options.readinessFailures()
        : std::vector<std::string>();
    const bool ok = failures.empty();
    const bool verbose = request.query.contains("verbose");
    if (ok && !verbose)
        return plainText(200, "ok");
    std::string text = verbose ? "[+]ping ok\n" : "";
    if (readiness && (verbose || !ok))
        text += ok ? "[+]mirror-sync ok\n" : "[-]mirror-sync failed: reason withheld\n";
    // The reasons name streams and their errors, no object data: public, as upstream's are.
    if (verbose)
        for (const std::string &failure : failures)
            text += "    " + failure + "\n";
    text += endpoint + (ok ? " check passed\n" : " check failed\n");
    return Response { ok ? 200 : 500, "text/plain; charset=utf-8", {},
        QByteArray::fromStdString(text) };
}

ExchangeObserver ApiServer::exchangeObserver()
{
    QPointer<ApiServer> self(this);
    return [self](const Request &request, int code, double seconds) {
        if (!self)
            return;
        const model::AccessAttributes attributes = requestAttributes(request);
        const std::string resource = attributes.resourceRequest ? qualifiedResource(attributes)
                + (attributes.subresource.empty() ? std::string() : "/" + attributes.subresource)
                                                                : std::string();
        self->m_requestMetrics.record(metricsVerb(request, attributes), resource, code, seconds);
    };
}

Response ApiServer::metrics()
{
    std::string text = m_requestMetrics.text();
    text += prometheus::header(
        "draconsole_apiserver_watchers", "gauge", "Watches open now (over HTTP and WebSocket).");
    text += "draconsole_apiserver_watchers " + std::to_string(m_watches->watcherCount()) + "\n";
    qint64 bytes = 0;
    for (const char *suffix : { "", "-wal" })
        bytes += QFileInfo(m_source.cache().path() + QLatin1String(suffix)).size();
    text += prometheus::header("draconsole_cache_size_bytes", "gauge",
        "Bytes of the cache file served, its write-ahead log included.");
    text += "draconsole_cache_size_bytes " + std::to_string(bytes) + "\n";
    if (m_options.moreMetrics)
        text += m_options.moreMetrics();
    return Response { 200, std::string(prometheus::kContentType), {},
        QByteArray::fromStdString(text) };
}

access_reviews::Reviewer ApiServer::reviewer()
{
    access_reviews::Reviewer reviewer;
    reviewer.writable = m_writes != nullptr;
    if (m_authorizer) {
        RequestAuthorizer *authorizer = m_authorizer.get();
        reviewer.authorize = [authorizer](const model::UserIdentity &user,
                                 const model::AccessAttributes &attributes) {
            return authorizer->authorize(user, attributes);
        };
        reviewer.rules = [authorizer](const model::UserIdentity &user, std::string_view ns) {
            return authorizer->rulesFor(user, ns);
        };
    }
    reviewer.authenticateToken = [this](std::string_view token) { return userOfToken(token); };
    return reviewer;
}

void ApiServer::handle(Request &request, HttpConnection &connection)
{
    const std::string &path = request.path;
    const bool read = request.method == "GET" || request.method == "HEAD";
    // Public like upstream's system:public-info-viewer: kubectl's dispatcher asks /version first.
    if (read && (path == "/version" || path == "/version/")) {
        connection.respond(jsonResponse(200, m_api.versionDocument()));
        return;
    }
    if (read && (path == "/healthz" || path == "/readyz" || path == "/livez")) {
        connection.respond(health(request));
        return;
    }
    // The web console's static files hold no data; the page sends the token with every API call.
    if (read && web_console::isConsolePath(path)) {
        // The page's first requests follow; its data is read meanwhile.
        m_console->inventory().start();
        connection.respond(web_console::serve(path, m_webFiles));
        return;
    }
    // A page of another site must not use the browser's connection to us (kubectl and other
    // clients send no Origin and are not affected).
    if (isWebSocketUpgrade(request) && isCrossSiteWebSocket(request)) {
        connection.respond(status::forbidden(
            "a WebSocket from another site (Origin " + request.header("origin") + ") is refused"));
        return;
    }
    if (m_options.delegated) {
        handleDelegated(request, connection);
        return;
    }
    if (!authenticate(request)) {
        connection.respond(status::unauthorized());
        return;
    }
    if (std::optional<Response> refused = refusal(request)) {
        connection.respond(std::move(*refused));
        return;
    }
    route(request, connection);
}

void ApiServer::route(Request &request, HttpConnection &connection)
{
    const std::string &path = request.path;
    const bool read = request.method == "GET" || request.method == "HEAD";
    for (const auto &[prefix, extra] : m_extras) {
        if (extra && !prefix.empty() && path.starts_with(prefix) && extra(request, connection))
            return;
    }
    if (console::isConsolePath(path)) {
        m_console->handle(request, connection);
        return;
    }
    if (access_reviews::isReviewPath(path)) {
        connection.respond(request.method == "POST" ? access_reviews::answer(request, reviewer())
                                                    : status::methodNotAllowed());
        return;
    }
    if (path == "/metrics") {
        connection.respond(read ? metrics() : status::methodNotAllowed());
        return;
    }
    if (path == "/openapi/v3" || path.starts_with("/openapi/v3/")) {
        if (!read) {
            connection.respond(status::methodNotAllowed());
            return;
        }
        connection.respond(openapi::serve(m_api, path));
        return;
    }
    const std::vector<std::string> segments = splitPath(path);
    if (segments.empty() || (segments[0] != "api" && segments[0] != "apis")) {
        connection.respond(status::unknownPath());
        return;
    }
    const bool core = segments[0] == "api";
    const bool discovery = segments.size() == 1 || (!core && segments.size() == 2)
        || (core && segments.size() == 2) || (!core && segments.size() == 3);
    if (discovery && !read) {
        connection.respond(status::methodNotAllowed());
        return;
    }
    if (segments.size() == 1) {
        connection.respond(discovery::apiRoot(m_api, request, core, request.header("host")));
        return;
    }
    if (!core && segments.size() == 2) {
        const nlohmann::json group = discovery::apiGroup(m_api, segments[1]);
        connection.respond(group.is_null() ? status::unknownPath() : jsonResponse(200, group));
        return;
    }
    if ((core && segments.size() == 2) || (!core && segments.size() == 3)) {
        const nlohmann::json list = core ? discovery::resourceList(m_api, "", segments[1])
                                         : discovery::resourceList(m_api, segments[1], segments[2]);
        connection.respond(list.is_null() ? status::unknownPath() : jsonResponse(200, list));
        return;
    }
    serveResource(request, connection, segments);
}

void ApiServer::watchOverWebSocket(Request &request, HttpConnection &connection,
    const model::KindInfo &kind, const std::string &ns, const std::string &apiVersion)
{
    Result<WatchRequest> watch = parseWatchRequest(request);
    if (!watch) {
        // Before the switch of protocols, so the client sees an ordinary 400 Status.
        connection.respond(status::badRequest(watch.error().message.toStdString()));
        return;
    }
    if (watch->from) {
        // As over HTTP: a resourceVersion newer than the cache's is refused before the switch.
        const int64_t from = *watch->from;
        QPointer<HttpConnection> alive(&connection);
        auto pending = std::make_shared<Request>(request);
        m_watches->whenRevisionReached(from, &connection,
            [this, alive, from, pending, &kind, ns, apiVersion](int64_t current) {
                if (!alive)
                    return;
                if (current < from) {
                    alive->respond(status::tooLargeResourceVersion(from, current));
                    return;
                }
                acceptWatchSocket(*pending, *alive, kind, ns, apiVersion);
            });
        return;
    }
    acceptWatchSocket(request, connection, kind, ns, apiVersion);
}

void ApiServer::acceptWatchSocket(Request &request, HttpConnection &connection,
    const model::KindInfo &kind, const std::string &ns, const std::string &apiVersion)
{
    Result<WatchRequest> watch = parseWatchRequest(request);
    if (!watch) {
        connection.respond(status::badRequest(watch.error().message.toStdString()));
        return;
    }
    const qint64 maxPending = connection.limits().maxPendingWriteBytes;
    m_webSockets->accept(connection,
        [this, &kind, ns, apiVersion, watch = std::move(*watch), maxPending](
            QWebSocket *socket) mutable {
            auto *sink = new WebSocketEventSink(socket, maxPending, this);
            m_watches->start(sink, std::move(watch), kind, ns, apiVersion);
        });
}

std::optional<int64_t> ApiServer::minimumListRevision(const Request &request)
{
    // "" and "0" ask for any state; a continued list carries its revision in the token.
    const std::string rv = request.query.value("resourceVersion").value_or(std::string());
    if (rv.empty() || rv == "0" || !request.query.value("continue").value_or("").empty())
        return std::nullopt;
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(rv.data(), rv.data() + rv.size(), value);
    if (ec != std::errc() || end != rv.data() + rv.size() || value <= 0)
        return std::nullopt;
    return value;
}

void ApiServer::serveResource(
    Request &request, HttpConnection &connection, const std::vector<std::string> &segments)
{
    if (const std::optional<ScaleTarget> scale = scaleTargetOf(segments)) {
        connection.respond(serveScale(request, *scale, m_writer.get(), *m_reader));
        if (m_writer && request.method != "GET" && request.method != "HEAD")
            m_watches->poll(); // the new spec.replicas reaches watchers at once
        return;
    }
    const std::optional<ResourcePath> path = resolveResourcePath(m_api, segments);
    if (!path) {
        connection.respond(status::unknownPath());
        return;
    }
    const model::KindInfo &kind = *path->kind;
    if (request.method == "GET" || request.method == "HEAD") {
        if (auto watch = request.query.value("watch"); watch && !watch->empty()) {
            const std::optional<bool> flag = parseGoBool(*watch);
            if (!flag) {
                connection.respond(
                    status::badRequest("watch: Invalid value: \"" + *watch + "\": not a boolean"));
                return;
            }
            if (*flag && path->isCollection()) {
                if (isWebSocketUpgrade(request))
                    watchOverWebSocket(request, connection, kind, path->ns, path->apiVersion);
                else
                    m_watches->serve(request, connection, kind, path->ns, path->apiVersion);
                return;
            }
        }
        if (path->isCollection()) {
            if (const std::optional<int64_t> minimum = minimumListRevision(request)) {
                // Not older than a resourceVersion newer than the cache's: waited for briefly,
                // then 504, as kube-apiserver answers a client of a restored cluster.
                QPointer<HttpConnection> alive(&connection);
                auto pending = std::make_shared<Request>(request);
                m_watches->whenRevisionReached(*minimum, &connection,
                    [this, alive, pending, minimum, &kind, ns = path->ns,
                        apiVersion = path->apiVersion](int64_t current) {
                        if (!alive)
                            return;
                        alive->respond(current < *minimum
                                ? status::tooLargeResourceVersion(*minimum, current)
                                : m_resources.list(*pending, kind, ns, apiVersion));
                    });
                return;
            }
            connection.respond(m_resources.list(request, kind, path->ns, path->apiVersion));
            return;
        }
        connection.respond(m_resources.get(request, kind, path->ns, path->name, path->apiVersion));
        return;
    }
    // The request's body has been read in full by the connection, so an early answer leaves
    // the next request on this keep-alive connection intact.
    if (!m_writes || !m_api.isWritable(kind)) {
        connection.respond(status::methodNotAllowed());
        return;
    }
    if (request.method == "POST")
        connection.respond(m_writes->create(request, *path));
    else if (request.method == "PUT")
        connection.respond(m_writes->update(request, *path));
    else if (request.method == "PATCH")
        connection.respond(m_writes->patch(request, *path));
    else if (request.method == "DELETE")
        connection.respond(m_writes->remove(request, *path));
    else
        connection.respond(status::methodNotAllowed());
}

} // namespace dra::server
