// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The web console's JSON API, beside the Kubernetes one: /console/v1/... (not under /apis/, so
// kubectl's discovery never sees it), authenticated like every other request. The page only
// presents; every number comes from the core functions `dractl` prints (console_api_json.h).
// The protocol of its WebSocket is in docs/web-console-protocol.md.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <QObject>
#include <QPointer>

#include <nlohmann/json.hpp>

#include "core/alloc/simulation_cluster.h"
#include "core/server/console_api_devices.h"
#include "core/server/console_api_inventory.h"
#include "core/server/console_visibility.h"
#include "core/server/http_message.h"

namespace dra::server {

class HttpConnection;
class ServedApi;
class WatchHub;
class WebSocketGateway;

namespace console {

class ConsoleRollouts;

inline constexpr std::string_view kPrefix = "/console/v1";
// The subprotocol of the console's WebSocket (/console/v1/ws).
inline constexpr std::string_view kChannelProtocol = "draconsole.console.v1";

// True for /console/v1 and everything under it.
bool isConsolePath(std::string_view path);
// True for the console paths whose answers are computed from the inventory and filtered per user
// (everything but the rollouts, which are the state file's): they need only authentication.
bool filtersPerUser(std::string_view path);

struct Answer
{
    int status = 200;
    nlohmann::json body;
};

// The error every console API answer gives: {"error": {"code": status, "message": ...}}.
Answer errorAnswer(int status, const std::string &message);
// An answer as its HTTP response: JSON, never cached.
Response toResponse(const Answer &answer);

// What the console API keeps from one request to the next (one per server, or per `dractl
// console-api` run): the device table's orders and the simulation cluster of the latest
// revision, which every keystroke's template check reuses. Thread-safe.
struct AnswerCaches
{
    DeviceTable devices;
    alloc::SimulationClusterCache clusters;
};

// Answers a console API request from `state` (any thread; reads only the snapshot):
//   GET info | overview | classes | claims | templates | lint | readiness | migration?namespace=
//     | free?by= | quota?namespace= | devices?...
//   GET devices/DRIVER/POOL/DEVICE | claims/NS/NAME | templates/NS/NAME | topology/NODE
//   GET cel/check?expr= | cel/eval?expr= | explain/pod/NS/NAME | explain/claim/NS/NAME
//   POST templates/check[?kubernetesVersion=&featureGates=&simulate=false] with the template as
//   the body (simulate=false: the match counts only, what the editor asks on every keystroke)
//   POST templates/negative-control[?kubernetesVersion=&featureGates=], the same way
// `path` is what follows /console/v1/. Errors are {error: {code, message}}.
Answer answer(const ConsoleState &state, std::string_view path, const QueryParams &query,
    AnswerCaches &caches, std::string_view body = {});

// The paths answer() takes a POST body for (checks that read a text, never writes).
bool takesBody(std::string_view path);

// The console API on a server: routes requests (already authenticated) to answer() on a
// worker thread, and opens the page's WebSocket. Thread of the server.
class ConsoleApi final : public QObject
{
    Q_OBJECT
public:
    ConsoleApi(QString cachePath, std::string cluster, std::string kubernetesVersion, bool writable,
        const ServedApi &api, WatchHub &watches, QObject *parent = nullptr);
    ~ConsoleApi() override;

    void handle(Request &request, HttpConnection &connection);
    ConsoleInventory &inventory() { return *m_inventory; }
    // GET/POST rollouts...: console_api_rollouts.h.
    ConsoleRollouts &rollouts() { return *m_rollouts; }
    // Answers each user with what they may list (Visibility), checked with the check
    // `checkFor` makes for them; the answer says what was left out ("leftOut"). Unset: everyone
    // authenticated sees everything.
    using AccessChecks = std::function<AccessCheck(const model::UserIdentity &)>;
    void setAccessChecks(AccessChecks checkFor) { m_checkFor = std::move(checkFor); }
    // A user's own rules in a namespace (what a SelfSubjectRulesReview answers): the access view
    // answers from them for a user who may not list the RBAC objects. Unset: no fallback.
    using RulesFor = std::function<std::vector<model::PolicyRule>(
        const model::UserIdentity &, std::string_view)>;
    void setRulesFor(RulesFor rulesFor) { m_rulesFor = std::move(rulesFor); }
    // Where the server has no rules of its own (the cluster authorises each caller): asks the
    // cluster for the caller's own rules in `namespaces` with the request's Authorization
    // header, and calls back on `context`'s thread. Used when RulesFor is unset.
    using SelfRulesAsker
        = std::function<void(const std::string &authorization, std::vector<std::string> namespaces,
            QObject *context, std::function<void(const Result<inventory::SelfRules> &)> done)>;
    void setSelfRulesAsker(SelfRulesAsker asker) { m_selfRulesAsker = std::move(asker); }

private:
    void openChannel(Request &request, HttpConnection &connection);
    // Computes the answer on a worker thread, from `state` less what `visibility` hides.
    void compute(QPointer<HttpConnection> reply, ConsoleState state, std::string path,
        QueryParams query, std::string body, const Visibility &visibility);
    // Resolves what `user` may list, then computes the answer.
    void answerFor(QPointer<HttpConnection> reply, ConsoleState state,
        const model::UserIdentity &user, std::string path, QueryParams query, std::string body);
    // The caches of answers for one visibility (the shared ones for everything).
    std::shared_ptr<AnswerCaches> cachesFor(const Visibility &visibility);

    ConsoleInventory *m_inventory;
    std::shared_ptr<AnswerCaches> m_caches;
    const ServedApi &m_api;
    WatchHub &m_watches;
    WebSocketGateway *m_gateway;
    ConsoleRollouts *m_rollouts;
    AccessChecks m_checkFor;
    RulesFor m_rulesFor;
    SelfRulesAsker m_selfRulesAsker;
    std::map<std::string, std::shared_ptr<AnswerCaches>> m_filteredCaches; // by Visibility::key
};

} // namespace console
} // namespace dra::server
