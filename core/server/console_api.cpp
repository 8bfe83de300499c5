// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/console_api.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include "core/inventory/pool_status.h"
#include "core/inventory/device_access.h"
#include "core/inventory/device_quota.h"
#include "core/inventory/readiness.h"
#include "core/server/console_api_channel.h"
#include "core/server/console_api_migration.h"
#include "core/server/console_api_negative_control.h"
#include "core/server/console_api_rollouts.h"
#include "core/server/http_connection.h"
#include "core/server/kube_status.h"
#include "core/server/request_authorizer.h"
#include "core/server/resource_path.h"
#include "core/server/websocket_gateway.h"

namespace dra::server::console {

namespace {

using nlohmann::json;

Answer invalid(const common::Error &e)
{
    return errorAnswer(400, e.message.toStdString());
}

std::string param(const QueryParams &query, std::string_view name)
{
    return query.value(name).value_or("");
}

// The diagnosis `dractl explain pod|claim NS/NAME -o json` prints.
Answer explain(const ConsoleState &state, const std::vector<std::string> &segments)
{
    if (segments.size() != 4 || (segments[1] != "pod" && segments[1] != "claim"))
        return errorAnswer(404, "explain/pod/NAMESPACE/NAME or explain/claim/NAMESPACE/NAME");
    const model::Kind kind = segments[1] == "pod" ? model::Kind::Pod : model::Kind::ResourceClaim;
    if (!state.snapshot->object(kind, segments[2], segments[3]))
        return errorAnswer(404,
            std::string(kind == model::Kind::Pod ? "no Pod " : "no ResourceClaim ") + segments[2]
                + "/" + segments[3]);
    Result<json> diagnosis = explainDocument(state, kind, segments[2], segments[3]);
    if (!diagnosis)
        return errorAnswer(500, diagnosis.error().message.toStdString());
    return { 200, std::move(*diagnosis) };
}

// The template check the editor shows as you type, on the text POSTed (or ?text=);
// ?simulate=false answers only its quick half, the match counts.
Answer templateCheck(const ConsoleState &state, const QueryParams &query,
    alloc::SimulationClusterCache &clusters, std::string_view body)
{
    const std::string text = body.empty() ? param(query, "text") : std::string(body);
    if (text.empty())
        return errorAnswer(
            400, "the ResourceClaimTemplate to check is the request's body (YAML or JSON)");
    const std::string simulate = param(query, "simulate");
    if (!simulate.empty() && simulate != "true" && simulate != "false")
        return errorAnswer(400, "simulate is true or false, not " + simulate);
    const release::ReleaseChoice choice { param(query, "kubernetesVersion"),
        param(query, "featureGates") };
    Result<json> check = simulate == "false" ? templateMatchDocument(state, text, choice)
                                             : templateCheckDocument(state, text, choice, clusters);
    if (!check)
        return invalid(check.error());
    return { 200, std::move(*check) };
}

// A driver's pools, ours alone (GET) or beside the cluster's answer the page obtained with the
// user's credentials (POST {"status": <the ResourcePoolStatusRequest's status>}, or
// {"unanswered": "why not"}).
Answer pools(const inventory::Snapshot &snapshot, const QueryParams &query, std::string_view body)
{
    inventory::PoolQuery pq { param(query, "driver"), param(query, "pool"), 100 };
    if (const std::string limit = param(query, "limit"); !limit.empty()) {
        try {
            pq.limit = std::stoi(limit);
        } catch (const std::exception &) {
            pq.limit = 0;
        }
    }
    if (const std::vector<std::string> errors = inventory::poolQueryErrors(pq); !errors.empty())
        return errorAnswer(400, errors.front());
    const inventory::PoolCount ours
        = inventory::countPools(snapshot, pq, inventory::TaintCounting::Counted);
    std::optional<inventory::PoolCount> cluster;
    std::string why = "the cluster was not asked";
    if (!body.empty()) {
        const json posted = json::parse(body, nullptr, false);
        if (!posted.is_object() || (!posted.contains("status") && !posted.contains("unanswered")))
            return errorAnswer(400,
                "the body is {\"status\": <a ResourcePoolStatusRequest's status>} or "
                "{\"unanswered\": \"why not\"}");
        if (posted.contains("status")) {
            Result<inventory::PoolCount> read = inventory::poolCountFromStatus(posted["status"]);
            if (!read)
                return invalid(read.error());
            cluster = std::move(*read);
        } else {
            why = "the cluster gave no answer: " + posted.value("unanswered", std::string());
        }
    }
    return { 200, inventory::poolComparisonJson(inventory::comparePools(pq, ours, cluster, why)) };
}

Answer topology(const ConsoleState &state, const std::string &node)
{
    Result<json> layout = topologyLayoutDocument(*state.snapshot, node);
    if (!layout)
        return errorAnswer(layout.error().code == common::Error::Code::NotFound ? 404 : 500,
            layout.error().message.toStdString());
    return { 200, std::move(*layout) };
}

} // namespace

bool takesBody(std::string_view path)
{
    return path == "templates/check" || path == "templates/negative-control" || path == "pools";
}

Answer errorAnswer(int status, const std::string &message)
{
    return { status, { { "error", { { "code", status }, { "message", message } } } } };
}

Response toResponse(const Answer &answer)
{
    Response response;
    response.status = answer.status;
    response.contentType = "application/json";
    response.headers.push_back({ "cache-control", "no-store" });
    response.body = QByteArray::fromStdString(answer.body.dump());
    return response;
}

bool filtersPerUser(std::string_view path)
{
    if (!isConsolePath(path))
        return false;
    const std::string_view rest = path.substr(std::min(path.size(), kPrefix.size() + 1));
    return !isRolloutsPath(rest);
}

bool isConsolePath(std::string_view path)
{
    return path == kPrefix
        || (path.starts_with(kPrefix) && path.size() > kPrefix.size()
            && path[kPrefix.size()] == '/');
}

Answer answer(const ConsoleState &state, std::string_view path, const QueryParams &query,
    AnswerCaches &caches, std::string_view body)
{
    const std::vector<std::string> segments = splitPath(path);
    if (segments.empty())
        return errorAnswer(404,
            "the console API has info, overview, devices, device, classes, "
            "claims, templates, templates/check, templates/negative-control, topology, lint, "
            "readiness, migration, free, quota, access, pools, cel/check, "
            "cel/eval and explain");
    const inventory::Snapshot &snapshot = *state.snapshot;
    const std::string &what = segments[0];
    if (segments.size() == 1) {
        if (what == "info")
            return { 200, infoDocument(state) };
        if (what == "overview")
            return { 200, overviewDocument(state) };
        if (what == "classes")
            return { 200, classesDocument(snapshot) };
        if (what == "claims")
            return { 200, claimsDocument(snapshot) };
        if (what == "templates")
            return { 200, templatesDocument(snapshot) };
        if (what == "lint")
            return { 200, lintDocument(snapshot) };
        if (what == "quota")
            return { 200,
                inventory::quotasJson(snapshot,
                    inventory::deviceQuotas(snapshot, query.value("namespace").value_or(""))) };
        if (what == "access") {
            inventory::AccessReport report = inventory::deviceAccess(snapshot,
                { query.value("class").value_or(""), query.value("namespace").value_or("") },
                state.self ? &*state.self : nullptr);
            if (report.source == inventory::AccessSource::None && !state.selfRulesError.empty())
                inventory::noteSelfRulesUnavailable(report, state.selfRulesError);
            return { 200, inventory::accessJson(snapshot, report) };
        }
        if (what == "pools")
            return pools(snapshot, query, body);
        if (what == "readiness")
            return { 200, inventory::toJson(inventory::readiness(snapshot, state.streams)) };
        if (what == "migration")
            return migrationAnswer(state, query, caches.clusters);
        if (what == "free") {
            const std::string by = query.value("by").value_or("pool");
            const std::optional<inventory::FreeGrouping> grouping = inventory::parseGrouping(by);
            if (!grouping)
                return errorAnswer(
                    400, "by: unknown grouping '" + by + "' (pool, node, class, model)");
            return { 200, freeDocument(snapshot, *grouping) };
        }
        if (what == "devices") {
            Result<DeviceQuery> parsed = parseDeviceQuery(query);
            if (!parsed)
                return invalid(parsed.error());
            return { 200, caches.devices.page(state.snapshot, *parsed) };
        }
        if (what == "device") {
            const inventory::Device *device = snapshot.device(
                { param(query, "driver"), param(query, "pool"), param(query, "name") });
            if (!device)
                return errorAnswer(404,
                    "no device " + param(query, "driver") + "/" + param(query, "pool") + "/"
                        + param(query, "name"));
            json details = deviceDetailsJson(snapshot, *device);
            details["rev"] = snapshot.rev();
            return { 200, std::move(details) };
        }
    }
    if (what == "cel" && segments.size() == 2) {
        const std::optional<std::string> expression = query.value("expr");
        if (!expression)
            return errorAnswer(400, "expr: the CEL selector expression is required");
        if (segments[1] == "check")
            return { 200,
                celCheckDocument(*expression, clusterCelTarget(state.kubernetesVersion)) };
        if (segments[1] == "eval")
            return { 200,
                celEvalDocument(snapshot, *expression, clusterCelTarget(state.kubernetesVersion)) };
    }
    if (what == "templates" && segments.size() == 2 && segments[1] == "check")
        return templateCheck(state, query, caches.clusters, body);
    if (what == "templates" && segments.size() == 2 && segments[1] == "negative-control")
        return negativeControlAnswer(state, query, caches.clusters, body);
    if (what == "topology" && segments.size() == 2)
        return topology(state, segments[1]);
    if ((what == "claims" || what == "templates") && segments.size() == 3) {
        const model::Kind kind
            = what == "claims" ? model::Kind::ResourceClaim : model::Kind::ResourceClaimTemplate;
        json details = claimDetailsDocument(state, kind, segments[1], segments[2]);
        if (details.is_null())
            return errorAnswer(404,
                std::string(what == "claims" ? "no ResourceClaim " : "no ResourceClaimTemplate ")
                    + segments[1] + "/" + segments[2]);
        details["rev"] = snapshot.rev();
        return { 200, std::move(details) };
    }
    if (what == "explain")
        return explain(state, segments);
    return errorAnswer(404, "no console API path /console/v1/" + std::string(path));
}

ConsoleApi::ConsoleApi(QString cachePath, std::string cluster, std::string kubernetesVersion,
    bool writable, const ServedApi &api, WatchHub &watches, QObject *parent)
    : QObject(parent)
    , m_inventory(new ConsoleInventory(std::move(cachePath), std::move(cluster),
          std::move(kubernetesVersion), writable, 100, this))
    , m_caches(std::make_shared<AnswerCaches>())
    , m_api(api)
    , m_watches(watches)
    , m_gateway(new WebSocketGateway({ QString::fromLatin1(kChannelProtocol) }, this))
    , m_rollouts(new ConsoleRollouts(this))
{
}

ConsoleApi::~ConsoleApi() = default;

void ConsoleApi::handle(Request &request, HttpConnection &connection)
{
    const std::string_view rest
        = std::string_view(request.path).substr(std::min(request.path.size(), kPrefix.size() + 1));
    if (rest == "ws") {
        openChannel(request, connection);
        return;
    }
    if (isRolloutsPath(rest)) { // the state file's, not the inventory's
        m_rollouts->handle(request, connection, rest);
        return;
    }
    const bool post = request.method == "POST" && takesBody(rest);
    if (request.method != "GET" && request.method != "HEAD" && !post) {
        connection.respond(toResponse(errorAnswer(405,
            "the console API only reads (GET; POST to templates/check or "
            "templates/negative-control with the text to check, to pools with the cluster's "
            "answer)")));
        return;
    }
    QPointer<HttpConnection> reply(&connection);
    std::string path(rest);
    QueryParams query = request.query;
    std::string body = post ? request.body.toStdString() : std::string();
    m_inventory->whenReady(
        [this, reply, path = std::move(path), query = std::move(query), body = std::move(body),
            user = identityOf(request),
            authorization = request.header("authorization")](const Result<ConsoleState> &state) {
            if (!reply)
                return;
            if (!state) {
                reply->respond(toResponse(errorAnswer(503, state.error().message.toStdString())));
                return;
            }
            if (!m_checkFor) {
                compute(reply, *state, path, query, body, {});
                return;
            }
            ConsoleState asked = *state;
            if (path == "access" && m_rulesFor) {
                // In case the user may not list the roles: theirs, as they could ask for them.
                inventory::SelfRules own { { "User", user.name, "" }, {} };
                for (const auto &ns : state->snapshot->objects(model::Kind::Namespace))
                    own.byNamespace[ns->meta.name] = m_rulesFor(user, ns->meta.name);
                asked.self = std::move(own);
            } else if (path == "access" && m_selfRulesAsker) {
                // No rules of our own (the cluster authorises): the cluster tells the user's.
                std::vector<std::string> namespaces;
                for (const auto &ns : state->snapshot->objects(model::Kind::Namespace))
                    namespaces.push_back(ns->meta.name);
                QPointer<ConsoleApi> self(this);
                m_selfRulesAsker(authorization, std::move(namespaces), this,
                    [self, reply, asked, user, path, query, body](
                        const Result<inventory::SelfRules> &rules) mutable {
                        if (!self || !reply)
                            return;
                        if (rules)
                            asked.self = *rules;
                        else
                            asked.selfRulesError = rules.error().message.toStdString();
                        self->answerFor(reply, std::move(asked), user, std::move(path),
                            std::move(query), std::move(body));
                    });
                return;
            }
            answerFor(reply, std::move(asked), user, path, query, body);
        });
}

void ConsoleApi::answerFor(QPointer<HttpConnection> reply, ConsoleState state,
    const model::UserIdentity &user, std::string path, QueryParams query, std::string body)
{
    QPointer<ConsoleApi> self(this);
    const inventory::SnapshotPtr snapshot = state.snapshot; // before `state` is moved away
    resolveVisibility(*snapshot, m_checkFor(user),
        [self, reply, state = std::move(state), path = std::move(path), query = std::move(query),
            body = std::move(body)](const Visibility &visibility) {
            if (self && reply)
                self->compute(reply, state, path, query, body, visibility);
        });
}

std::shared_ptr<AnswerCaches> ConsoleApi::cachesFor(const Visibility &visibility)
{
    if (visibility.everything())
        return m_caches;
    // A few users' views at a time; the oldest key goes first past the bound (their caches
    // only save work).
    if (m_filteredCaches.size() >= 32 && !m_filteredCaches.contains(visibility.key()))
        m_filteredCaches.erase(m_filteredCaches.begin());
    std::shared_ptr<AnswerCaches> &caches = m_filteredCaches[visibility.key()];
    if (!caches)
        caches = std::make_shared<AnswerCaches>();
    return caches;
}

void ConsoleApi::compute(QPointer<HttpConnection> reply, ConsoleState state, std::string path,
    QueryParams query, std::string body, const Visibility &visibility)
{
    // The computation reads only the shared snapshot: a worker thread does it, and the server's
    // thread goes on serving watches meanwhile.
    auto *watcher = new QFutureWatcher<Answer>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [watcher, reply] {
        watcher->deleteLater();
        if (reply)
            reply->respond(toResponse(watcher->result()));
    });
    watcher->setFuture(QtConcurrent::run(
        [state = std::move(state), path = std::move(path), query = std::move(query),
            body = std::move(body), visibility, caches = cachesFor(visibility)]() mutable {
            try {
                if (visibility.everything())
                    return answer(state, path, query, *caches, body);
                const nlohmann::json leftOut = leftOutJson(*state.snapshot, visibility);
                state.snapshot = visibleSnapshot(state.snapshot, visibility);
                Answer answered = answer(state, path, query, *caches, body);
                if (answered.status == 200 && answered.body.is_object())
                    answered.body["leftOut"] = leftOut;
                return answered;
            } catch (const std::exception &e) {
                return errorAnswer(500, e.what());
            }
        }));
}

void ConsoleApi::openChannel(Request &request, HttpConnection &connection)
{
    if (!isWebSocketUpgrade(request)) {
        connection.respond(toResponse(errorAnswer(400, "/console/v1/ws is a WebSocket")));
        return;
    }
    m_inventory->start();
    const qint64 maxPending = connection.limits().maxPendingWriteBytes;
    AccessCheck check = m_checkFor ? m_checkFor(identityOf(request)) : AccessCheck();
    m_gateway->accept(connection, [this, maxPending, check](QWebSocket *socket) {
        new ConsoleChannel(
            socket, maxPending, *m_inventory, *m_rollouts, m_api, m_watches, check, this);
    });
}

} // namespace dra::server::console
