// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <QObject>

#include "core/server/access_reviews.h"
#include "core/server/client_certificates.h"
#include "core/server/console_visibility.h"
#include "core/server/delegated_access.h"
#include "core/server/http_connection.h"
#include "core/server/object_source.h"
#include "core/server/object_writer.h"
#include "core/server/resource_controller.h"
#include "core/server/request_authorizer.h"
#include "core/server/request_metrics.h"
#include "core/server/served_api.h"
#include "core/server/user_tokens.h"
#include "core/server/watch_hub.h"
#include "core/server/web_console.h"
#include "core/server/websocket_gateway.h"
#include "core/server/write_controller.h"

namespace dra::server {

namespace console {
class ConsoleApi;
}

// How an ApiServer serves: which cluster of the cache, who may ask, and whether it writes.
struct ApiServerOptions
{
    std::string cluster; // the cluster of the cache to serve
    std::string token; // the bearer token every request needs; empty: no authentication
    int pollIntervalMs = 100; // how often watches look for changes committed by other processes
    // The Kubernetes release to claim ("v1.36.0"); empty: the version the cache records for
    // the cluster, else kDefaultGitVersion.
    std::string kubernetesVersion;
    // A live mirror: the resource.k8s.io versions its cluster serves, which narrow the
    // release's (ServedApi::serveOnlyResourceVersions); empty: the release's.
    std::vector<std::string> clusterResourceVersions;
    // The cache's writer, when the server may write (demo mode, --writable); null: read-only,
    // writes answer 405.
    store::CacheDb *writer = nullptr;
    // Client certificates signed by this CA authenticate too (user = CN, groups = O), as with
    // kube-apiserver's --client-ca-file; null: tokens only.
    std::shared_ptr<const ClientCertificateAuthority> clientCa;
    // Further bearer tokens, each a user of its own (the demo cluster's users); null: none.
    std::shared_ptr<const UserTokens> users;
    // Authorise every request with the Roles and bindings the cache holds, as kube-apiserver's
    // RBAC authorizer does; false: whoever authenticates is the server's admin.
    bool rbac = false;
    // Why the server is not ready to serve current data (a live mirror that has lost a stream),
    // one line per failing check; empty when ready. Unset: always ready (a cache file, a demo).
    std::function<std::vector<std::string>()> readinessFailures;
    // Each caller's own identity, from the cluster a live mirror follows (--authn=cluster): a
    // bearer token is reviewed there, every read authorised there for that user, and writes
    // pass through to it with the caller's token. Replaces `token`, `users` and `rbac`.
    std::shared_ptr<DelegatedAccess> delegated;
    // More of /metrics in Prometheus' text format (a live mirror's streams); unset: none.
    std::function<std::string()> moreMetrics;
};

// The Kubernetes REST dialect over a cache: /version, health, discovery, list/get/watch of
// every kind served, in every version served (converted), Status errors; with a writer also
// create, update, patch, server-side apply and delete. Its handler() goes to an HttpServer.
// Thread of `cache` (and of the writer).
class ApiServer final : public QObject
{
    Q_OBJECT
public:
    ApiServer(store::CacheDb &cache, ApiServerOptions options, QObject *parent = nullptr);
    ~ApiServer() override;

    // Routes one request; answers now, or opens a watch stream.
    void handle(Request &request, HttpConnection &connection);
    // A RequestHandler that calls handle() while this server lives.
    RequestHandler handler();

    const ServedApi &servedApi() const { return m_api; }
    WatchHub &watchHub() { return *m_watches; }
    ResourceController &resources() { return m_resources; }
    // The web console's JSON API and WebSocket (/console/v1/).
    console::ConsoleApi &consoleApi() { return *m_console; }
    // The cache's writer when the server writes (demo mode, --writable), else null.
    store::CacheDb *writer() const { return m_options.writer; }

    // Requests under a path prefix ("/draconsole/test/") go to `handler` once authenticated
    // (the test hooks, the demo's fault injection); it returns false for a path it does not
    // know. One handler per prefix; setting a prefix again replaces its handler.
    using ExtraHandler = std::function<bool(Request &, HttpConnection &)>;
    void setExtraHandler(std::string prefix, ExtraHandler handler);
    // Counts each answer for /metrics: give it to the HttpServer (setExchangeObserver).
    ExchangeObserver exchangeObserver();
    // Where the web console's files come from (the compiled-in bundle by default).
    void setWebConsoleFiles(web_console::Files files) { m_webFiles = std::move(files); }

private:
    bool authenticate(Request &request) const;
    // Sets the user and groups of a client certificate our CA signed; false without one.
    bool identifyByCertificate(Request &request) const;
    // Past authentication and authorisation: to the handler of the request's path.
    void route(Request &request, HttpConnection &connection);
    // With options.delegated: authenticates and authorises `request` with the cluster (its own
    // file, api_server_delegated.cpp), then routes it, or passes a write through.
    void handleDelegated(Request &request, HttpConnection &connection);
    void authorizeDelegated(
        Request &request, HttpConnection &connection, std::optional<std::string> token);
    // Who a bearer token is: the server's own (admin, system:masters) or one of its users.
    std::optional<model::UserIdentity> userOfToken(std::string_view token) const;
    // Whether the authenticated user of `request` may make it (always, without RBAC).
    std::optional<Response> refusal(const Request &request);
    access_reviews::Reviewer reviewer();
    // Whether `user` may do something, by RBAC or the cluster's reviews (for the console).
    console::AccessCheck accessCheckFor(const model::UserIdentity &user);
    // /livez, /readyz and /healthz as kube-apiserver answers them (`?verbose` lists the checks).
    Response health(const Request &request) const;
    // /metrics: requests, watchers, the cache's size, and options.moreMetrics.
    Response metrics();
    void serveResource(
        Request &request, HttpConnection &connection, const std::vector<std::string> &segments);
    // A watch whose request asks for a WebSocket: one JSON event per text message.
    void watchOverWebSocket(Request &request, HttpConnection &connection,
        const model::KindInfo &kind, const std::string &ns, const std::string &apiVersion);
    void acceptWatchSocket(Request &request, HttpConnection &connection,
        const model::KindInfo &kind, const std::string &ns, const std::string &apiVersion);
    // The resourceVersion a list must be at least as new as (resourceVersionMatch NotOlderThan,
    // or unset), when it names one beyond "0".
    static std::optional<int64_t> minimumListRevision(const Request &request);

    ApiServerOptions m_options;
    ServedApi m_api;
    ObjectSource m_source;
    ResourceController m_resources;
    WatchHub *m_watches;
    WebSocketGateway *m_webSockets; // watches over WebSocket (the web console's)
    console::ConsoleApi *m_console;
    std::unique_ptr<ObjectWriter> m_reader; // reads only: objects the scale subresource shows
    std::unique_ptr<ObjectWriter> m_writer;
    std::unique_ptr<WriteController> m_writes;
    std::vector<std::pair<std::string, ExtraHandler>> m_extras; // by path prefix
    web_console::Files m_webFiles;
    RequestMetrics m_requestMetrics;
    std::unique_ptr<RequestAuthorizer> m_authorizer; // with options.rbac
};

// The token of an "Authorization: Bearer TOKEN" header (scheme case-insensitive), if any.
std::optional<std::string> bearerToken(std::string_view header);

// The Kubernetes release a cache records for `cluster` (ClusterInfo::version), or empty.
std::string recordedVersion(store::CacheDb &cache, const std::string &cluster);

} // namespace dra::server
