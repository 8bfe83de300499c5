// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/console_api_rollouts.h"

#include <algorithm>

#include <QDateTime>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include "core/rollout/controller_inbox.h"
#include "core/rollout/controller_lease.h"
#include "core/rollout/rollout_host.h"
#include "core/rollout/rollout_machine.h"
#include "core/rollout/rollout_start.h"
#include "core/rollout/rollout_status.h"
#include "core/rollout/rollout_store.h"
#include "core/rollout/state_writer.h"
#include "core/server/http_connection.h"
#include "core/server/resource_path.h"

namespace dra::server::console {

namespace {

// How often the state file is looked at for writes: a page shows a verb's effect this soon.
constexpr int kStateWatchMs = 250;

// The sizes and modification times of the state file and its write-ahead log: SQLite changes
// one of them with every commit, whichever process makes it.
QString stateFingerprint(const QString &statePath)
{
    QString fingerprint;
    for (const QString &path : { statePath, QString(statePath + QStringLiteral("-wal")) }) {
        const QFileInfo file(path);
        fingerprint += file.exists()
            ? QStringLiteral("%1@%2;").arg(file.size()).arg(file.lastModified().toMSecsSinceEpoch())
            : QStringLiteral("-;");
    }
    return fingerprint;
}

using nlohmann::json;

int64_t now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// The verbs a page may POST; start goes with a plan (POST rollouts).
constexpr rollout::Verb kPageVerbs[]
    = { rollout::Verb::Promote, rollout::Verb::Pause, rollout::Verb::Resume, rollout::Verb::Abort,
          rollout::Verb::RetryGate, rollout::Verb::Reject, rollout::Verb::Finalise };

std::string verbList(const std::vector<rollout::Verb> &verbs)
{
    std::string text;
    for (rollout::Verb verb : verbs)
        text += (text.empty() ? "" : ", ") + std::string(rollout::verbName(verb));
    return text.empty() ? "none" : text;
}

// Where replicas compete for a cluster Lease: which one drives the rollouts, and whether this
// one does. Nothing when the host is not gated by a Lease.
void addLeadership(json &document, const rollout::RolloutHost *host)
{
    const std::optional<rollout::HostLeadership> leadership
        = host ? host->leadership() : std::nullopt;
    if (!leadership)
        return;
    document["lease"] = { { "name", leadership->lease }, { "holder", leadership->holder },
        { "thisReplica", leadership->identity }, { "leading", leadership->leading } };
}

} // namespace

bool isRolloutsPath(std::string_view path)
{
    return path == "rollouts" || path.starts_with("rollouts/");
}

Answer rolloutsAnswer(
    const QString &statePath, std::string_view path, const rollout::RolloutHost *host)
{
    const std::vector<std::string> segments = splitPath(path);
    if (segments.empty() || segments[0] != "rollouts" || segments.size() > 2)
        return errorAnswer(404, "rollouts or rollouts/NAME");
    std::optional<store::StateDb> db;
    if (QFileInfo::exists(statePath)) {
        Result<store::StateDb> opened = store::StateDb::open(statePath, store::OpenMode::ReadOnly);
        if (!opened)
            return errorAnswer(500, opened.error().message.toStdString());
        db.emplace(std::move(*opened));
    }
    if (segments.size() == 1) {
        Result<json> list = rollout::rolloutListJson(db ? &*db : nullptr, now());
        if (!list)
            return errorAnswer(500, list.error().message.toStdString());
        (*list)["runsControllers"] = host != nullptr;
        addLeadership(*list, host);
        return { 200, std::move(*list) };
    }
    const std::string &id = segments[1];
    if (!db)
        return errorAnswer(404, "no rollout named " + id + " (no state file yet)");
    Result<std::optional<json>> detail = rollout::rolloutDetailJson(*db, id, now());
    if (!detail)
        return errorAnswer(500, detail.error().message.toStdString());
    if (!*detail)
        return errorAnswer(404, "no rollout named " + id);
    json &document = **detail;
    json messages = json::array();
    if (host)
        for (const rollout::HostMessage &message : host->messages(id))
            messages.push_back({ { "at", message.at }, { "text", message.text } });
    document["messages"] = std::move(messages);
    document["drivenHere"] = host && host->drives(id);
    document["runsControllers"] = host != nullptr;
    addLeadership(document, host);
    return { 200, std::move(document) };
}

Answer rolloutVerb(const QString &statePath, const std::string &id, const std::string &verbText,
    std::string_view body, const VerbContext &context)
{
    const std::optional<rollout::Verb> verb = rollout::verbFromName(verbText);
    if (!verb
        || std::find(std::begin(kPageVerbs), std::end(kPageVerbs), *verb) == std::end(kPageVerbs))
        return errorAnswer(404,
            "no verb " + verbText
                + ": promote, pause, resume, abort, retry-gate, reject or finalise (a rollout "
                  "starts with POST rollouts and its plan)");
    json request = json::object();
    if (!body.empty()) {
        request = json::parse(body, nullptr, false);
        if (request.is_discarded() || !request.is_object())
            return errorAnswer(
                400, "the body of a verb is a JSON object like {\"reason\": \"...\"}");
    }
    if (request.contains("reason") && !request["reason"].is_string())
        return errorAnswer(400, "reason: a text");
    rollout::Command command { *verb, context.actor, request.value("reason", std::string()) };
    command.acceptInconclusive = request.value("acceptInconclusive", false);
    if (request.contains("force") && !request["force"].is_boolean())
        return errorAnswer(400, "force: true or false");
    command.force = request.value("force", false);

    if (!QFileInfo::exists(statePath))
        return errorAnswer(404, "no rollout named " + id + " (no state file yet)");
    {
        Result<store::StateDb> db = store::StateDb::open(statePath, store::OpenMode::ReadOnly);
        if (!db)
            return errorAnswer(500, db.error().message.toStdString());
        Result<std::optional<rollout::RolloutRecord>> record = rollout::RolloutStore(*db).load(id);
        if (!record)
            return errorAnswer(500, record.error().message.toStdString());
        if (!*record)
            return errorAnswer(404, "no rollout named " + id);
        const rollout::RolloutState &state = (*record)->state;
        const std::vector<rollout::Verb> allowed = rollout::RolloutMachine::userVerbs(state.stage);
        if (std::find(allowed.begin(), allowed.end(), *verb) == allowed.end())
            return errorAnswer(409,
                verbText + " is not possible while " + id + " is " + rollout::stageName(state.stage)
                    + " (possible: " + verbList(allowed) + ")");
        if (*verb == rollout::Verb::RetryGate) {
            const std::string gate = request.value("gate", std::string());
            if (!gate.empty()) {
                command.gate = rollout::gateFromName(gate);
                if (!command.gate)
                    return errorAnswer(400,
                        "gate: no gate named " + gate
                            + " (api, node, application, negative-control, baseline, rollback)");
            } else {
                for (const auto &[kind, result] : state.gates)
                    if (!command.gate && result.verdict != rollout::Verdict::Passed)
                        command.gate = kind;
                if (!command.gate)
                    return errorAnswer(
                        400, "gate: every gate of this stage passed; name one to retry");
            }
        }
        Result<std::optional<rollout::ControllerLease>> lease
            = rollout::ControllerInbox(*db).lease(id);
        const bool driven
            = lease && *lease && rollout::leaseState(*lease, now()) == rollout::LeaseState::Live;
        if (!driven && !context.hosted)
            return errorAnswer(409,
                "nobody drives " + id
                    + " and this server runs no controller: give the verb with dractl rollout "
                    + verbText + " " + id + ", or drive it with dractl rollout run " + id);
    }
    int64_t seq = 0;
    {
        Result<store::StateDb> writer = rollout::openStateWriter(statePath);
        if (!writer)
            return errorAnswer(503, writer.error().message.toStdString());
        Result<int64_t> queued = rollout::ControllerInbox(*writer).enqueue(id, command, now());
        if (!queued)
            return errorAnswer(500, queued.error().message.toStdString());
        seq = *queued;
    }
    if (context.queued)
        context.queued();
    std::optional<rollout::QueuedCommand> done;
    for (int waited = 0;
         !(done = rollout::answeredCommand(statePath, seq)) && waited < context.waitMs;
         waited += 100)
        QThread::msleep(100);
    json answer { { "rollout", id }, { "verb", verbText }, { "seq", seq },
        { "actor", command.actor }, { "reason", command.reason } };
    if (!done) {
        answer["queued"] = true;
        answer["result"] = "queued: the controller carries it out at its next tick";
        return { 202, std::move(answer) };
    }
    if (done->result.starts_with("refused"))
        return errorAnswer(409, verbText + " " + id + ": " + done->result);
    answer["queued"] = false;
    answer["result"] = done->result;
    return { 200, std::move(answer) };
}

ConsoleRollouts::ConsoleRollouts(QObject *parent)
    : QObject(parent)
{
}

void ConsoleRollouts::configure(QString statePath, rollout::RolloutHost *host)
{
    m_statePath = std::move(statePath);
    m_host = host;
    if (m_statePath.isEmpty() || m_watch)
        return;
    m_fingerprint = stateFingerprint(m_statePath);
    m_watch = new QTimer(this);
    m_watch->setInterval(kStateWatchMs);
    connect(m_watch, &QTimer::timeout, this, &ConsoleRollouts::checkForChanges);
    m_watch->start();
}

void ConsoleRollouts::checkForChanges()
{
    QString now = stateFingerprint(m_statePath);
    if (now == m_fingerprint)
        return;
    m_fingerprint = std::move(now);
    Q_EMIT changed();
}

void ConsoleRollouts::handle(Request &request, HttpConnection &connection, std::string_view path)
{
    if (m_statePath.isEmpty()) {
        connection.respond(toResponse(errorAnswer(404, "this server keeps no rollouts")));
        return;
    }
    const std::vector<std::string> segments = splitPath(path);
    const bool read = request.method == "GET" || request.method == "HEAD";
    if (request.method == "POST" && segments.size() == 1) {
        startFromPlan(request, connection);
        return;
    }
    if (!read && !(request.method == "POST" && segments.size() == 3)) {
        connection.respond(toResponse(errorAnswer(
            405, "rollouts: GET rollouts[/NAME], POST rollouts (a plan) or rollouts/NAME/VERB")));
        return;
    }
    QPointer<HttpConnection> reply(&connection);
    auto *watcher = new QFutureWatcher<Answer>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [watcher, reply] {
        watcher->deleteLater();
        if (reply)
            reply->respond(toResponse(watcher->result()));
    });
    const QString statePath = m_statePath;
    rollout::RolloutHost *host = m_host;
    if (read) {
        // Reading the state file (and verifying the audit chain) is kept off the server's thread.
        watcher->setFuture(QtConcurrent::run([statePath, path = std::string(path), host]() {
            try {
                return rolloutsAnswer(statePath, path, host);
            } catch (const std::exception &e) {
                return errorAnswer(500, e.what());
            }
        }));
        return;
    }
    VerbContext context;
    context.actor = (request.user.isEmpty() ? std::string("anonymous") : request.user.toStdString())
        + " (web console)";
    context.hosted = host != nullptr;
    if (host)
        context.queued = [host]() {
            QMetaObject::invokeMethod(
                host, [host]() { host->scan(); }, Qt::QueuedConnection);
        };
    watcher->setFuture(
        QtConcurrent::run([statePath, id = segments[1], verb = segments[2],
                              body = request.body.toStdString(), context = std::move(context)]() {
            try {
                return rolloutVerb(statePath, id, verb, body, context);
            } catch (const std::exception &e) {
                return errorAnswer(500, e.what());
            }
        }));
}

void ConsoleRollouts::startFromPlan(Request &request, HttpConnection &connection)
{
    if (!m_host) {
        connection.respond(toResponse(errorAnswer(409,
            "this server runs no rollout controller (dractl serve --demo and --in-cluster do); "
            "start it with dractl rollout start PLAN")));
        return;
    }
    const std::string text = request.body.toStdString();
    if (text.empty()) {
        connection.respond(
            toResponse(errorAnswer(400, "the RolloutPlan to start is the request's body (YAML)")));
        return;
    }
    const rollout::PlanParse parsed = rollout::parsePlan(text);
    if (!parsed.plan) {
        connection.respond(toResponse(errorAnswer(400,
            "not a valid RolloutPlan:\n"
                + parsed.errorText(QStringLiteral("plan")).toStdString())));
        return;
    }
    rollout::StartRequest start;
    start.actor = (request.user.isEmpty() ? std::string("anonymous") : request.user.toStdString())
        + " (web console)";
    start.reason = request.query.value("reason").value_or("");
    start.acceptInconclusive = request.query.value("acceptInconclusive").value_or("") == "true";
    start.force = request.query.value("force").value_or("") == "true";
    QPointer<HttpConnection> reply(&connection);
    QPointer<ConsoleRollouts> self(this);
    rollout::RolloutHost *host = m_host;
    QMetaObject::invokeMethod(
        host,
        [host, plan = *parsed.plan, start, reply, self]() {
            host->startRollout(
                plan, start, [reply, self, name = plan.name](rollout::StartOutcome outcome) {
                    json answer { { "rollout", name }, { "queued", outcome.queued } };
                    if (outcome.preflight)
                        answer["preflight"] = rollout::gateResultJson(*outcome.preflight);
                    int status = 201;
                    if (outcome.error) {
                        status = outcome.existingStage || outcome.variantRejected ? 409 : 422;
                        answer["error"] = { { "code", status },
                            { "message", outcome.error->message.toStdString() } };
                        if (outcome.existingStage)
                            answer["existingStage"] = rollout::stageName(*outcome.existingStage);
                    }
                    const Answer done { status, std::move(answer) };
                    if (self)
                        QMetaObject::invokeMethod(self, [reply, done]() {
                            if (reply)
                                reply->respond(toResponse(done));
                        });
                });
        },
        Qt::QueuedConnection);
}

} // namespace dra::server::console
