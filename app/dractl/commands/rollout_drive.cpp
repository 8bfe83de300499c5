// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl rollout start|run|promote|pause|resume|abort|finalise|reject|retry-gate: the rollout
// controller in the foreground, and verbs handed to a running controller through the state file
// (or carried out here when none runs).
#include "app/dractl/commands/rollout_drive.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <variant>

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QThread>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/kube_options.h"
#include "app/dractl/commands/output.h"
#include "app/dractl/commands/stop_signal.h"
#include "core/common/clock.h"
#include "core/common/duration.h"
#include "core/common/json_text.h"
#include "core/kube/rest_client.h"
#include "core/rollout/controller_inbox.h"
#include "core/rollout/controller_lease.h"
#include "core/rollout/evidence_collector.h"
#include "core/rollout/kube_cluster.h"
#include "core/rollout/rollout_controller.h"
#include "core/rollout/rollout_start.h"
#include "core/rollout/rollout_store.h"
#include "core/rollout/state_writer.h"

namespace dra::cli {

namespace {

using common::qs;

std::string actorName()
{
    return rollout::localUserName();
}

// A force outside the maintenance window is recorded with its reason: refuse one without.
bool forceHasReason(const QCommandLineParser &parser, const QString &verb)
{
    if (!parser.isSet(QStringLiteral("force"))
        || !parser.value(QStringLiteral("reason")).trimmed().isEmpty())
        return true;
    err(QStringLiteral("dractl rollout %1: --force needs --reason (it is kept in the audit log)\n")
            .arg(verb));
    return false;
}

QString wallClockText()
{
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("HH:mm:ss"));
}

void addClusterOptions(QCommandLineParser &parser)
{
    parser.addOption(stateOption());
    parser.addOption(contextOption());
    parser.addOptions(impersonationOptions());
    parser.addOption(kubeconfigOption());
}

// The user's cluster, as `kubectl` with the same options would reach it.
struct ClusterSession
{
    std::unique_ptr<kube::RestClient> client;
    std::unique_ptr<rollout::KubeCluster> cluster;
};

Result<ClusterSession> connectCluster(const QCommandLineParser &parser)
{
    Result<kube::ClientConfig> config = clientConfigFor(parser);
    if (!config)
        return dra::fail(config.error());
    kube::RestOptions options;
    options.userAgent = "dractl/" DRA_VERSION " (linux) draconsole rollout";
    options.exec = execOptionsForTerminal();
    ClusterSession session;
    session.client = std::make_unique<kube::RestClient>(*config, options);
    QObject::connect(session.client.get(), &kube::RestClient::warning, session.client.get(),
        [](const QString &warning) {
            err(QStringLiteral("Warning: ") + warning + QLatin1Char('\n'));
        });
    session.cluster = std::make_unique<rollout::KubeCluster>(*session.client);
    return session;
}

rollout::ControllerOptions controllerOptions(
    bool autoPromote, int64_t tickMs, int64_t readyTimeoutMs = 5 * 60'000)
{
    rollout::ControllerOptions options;
    options.executor.readyTimeoutMs = readyTimeoutMs;
    options.autoPromote = autoPromote;
    options.tickMs = tickMs;
    options.owner = rollout::ControllerOwner::thisProcess();
    return options;
}

void printControllerMessages(rollout::RolloutController &controller)
{
    QObject::connect(
        &controller, &rollout::RolloutController::message, &controller, [](const QString &text) {
            out(wallClockText() + QLatin1Char(' ') + text + QLatin1Char('\n'));
        });
}

// Waits for the controller's tick to end.
void waitForTick(rollout::RolloutController &controller)
{
    if (!controller.busy())
        return;
    QEventLoop loop;
    QObject::connect(
        &controller, &rollout::RolloutController::tickFinished, &loop, &QEventLoop::quit);
    loop.exec();
}

// One tick of a controller in this process: the queued verbs of `id` are carried out with the
// user's credentials, as a running controller would.
int driveOnce(const QCommandLineParser &parser, const QString &state, const std::string &id)
{
    Result<ClusterSession> session = connectCluster(parser);
    if (!session)
        return reportFailure(session.error());
    rollout::RolloutController controller(
        state, id, *session->cluster, common::Clock::system(), controllerOptions(false, 5'000));
    if (Result<void> loaded = controller.load(); !loaded)
        return reportFailure(loaded.error());
    printControllerMessages(controller);
    controller.tick();
    waitForTick(controller);
    controller.stop();
    out(QStringLiteral("Rollout %1 is at %2.\n")
            .arg(qs(id), QString::fromLatin1(rollout::stageName(controller.state().stage))));
    // A step that failed paused the rollout: the verb was carried out, its changes were not all.
    return controller.lastError() ? reportFailure(*controller.lastError()) : int(Ok);
}

// The lease of another controller that drives `id` now (see rollout::othersLiveLease).
Result<std::optional<rollout::ControllerLease>> liveLease(store::StateDb &db, const std::string &id)
{
    return rollout::othersLiveLease(
        db, id, rollout::ControllerOwner::thisProcess(), QDateTime::currentMSecsSinceEpoch());
}

int printOutcome(const QString &verb, const std::optional<rollout::QueuedCommand> &outcome)
{
    if (!outcome) {
        out(QStringLiteral("%1 is queued: the controller carries it out at its next tick (see "
                           "dractl rollout status).\n")
                .arg(verb));
        return Ok;
    }
    if (outcome->result.starts_with("refused")) {
        err(QStringLiteral("dractl: rollout %1: %2\n").arg(verb, qs(outcome->result)));
        return Failed;
    }
    out(QStringLiteral("%1: %2\n").arg(verb, qs(outcome->result)));
    return Ok;
}

// Runs the oldest queued verb of `id` without a cluster: for verbs whose transition changes
// nothing in it (pause, resume, reject of a rollout no longer in the cluster).
Result<void> executeWithoutCluster(
    const QString &state, const rollout::RolloutPlan &plan, const std::string &id)
{
    Result<store::StateDb> db = rollout::openStateWriter(state);
    if (!db)
        return dra::fail(db.error());
    rollout::ControllerInbox inbox(*db);
    rollout::RolloutStore store(*db);
    const int64_t now = QDateTime::currentMSecsSinceEpoch();
    Result<std::optional<rollout::QueuedCommand>> next = inbox.takeNext(id, now);
    if (!next)
        return dra::fail(next.error());
    if (!*next)
        return {};
    Result<std::optional<rollout::RolloutRecord>> record = store.load(id);
    if (!record)
        return dra::fail(record.error());
    if (!*record)
        return dra::fail(
            common::Error::Code::NotFound, QStringLiteral("no rollout named %1").arg(qs(id)));
    rollout::RolloutState rolloutState = (*record)->state;
    const rollout::RolloutMachine machine(plan, common::Clock::system());
    const rollout::Stage from = rolloutState.stage;
    Result<rollout::Decision> decision
        = store.execute(machine, rolloutState, (*next)->command, now);
    if (!decision)
        return dra::fail(decision.error());
    const std::string result = decision->allowed
        ? std::string(rollout::stageName(from)) + " -> " + rollout::stageName(decision->to)
        : "refused: " + decision->refusal;
    return inbox.setResult((*next)->seq, result);
}

bool needsCluster(const rollout::Decision &decision)
{
    for (const rollout::Mutation &m : decision.mutations)
        if (m.kind != rollout::Mutation::Kind::MarkVariantRejected)
            return true;
    return false;
}

void printGate(const rollout::GateResult &gate)
{
    out(QStringLiteral("%1 gate: %2\n")
            .arg(QString::fromLatin1(rollout::gateName(gate.gate)),
                QString::fromLatin1(rollout::verdictName(gate.verdict))));
    for (const rollout::Check &check : gate.checks)
        out(QStringLiteral("  [%1] %2: %3\n")
                .arg(QString::fromLatin1(rollout::verdictName(check.verdict)), qs(check.name),
                    qs(check.evidence)));
}

// Starts `plan` (rollout::startRollout) with the cluster of `parser`, printing the pre-flight;
// the start is queued for a controller. The queued command's sequence, or the exit status.
std::variant<int64_t, int> startPlan(const QCommandLineParser &parser, const QString &state,
    const rollout::RolloutPlan &plan, const rollout::StartRequest &request, const QString &verb)
{
    Result<ClusterSession> session = connectCluster(parser);
    if (!session)
        return reportFailure(session.error());
    std::optional<rollout::StartOutcome> outcome;
    QEventLoop loop;
    QObject context;
    rollout::startRollout(state, plan, request, *session->cluster, common::Clock::system(),
        &context, [&](rollout::StartOutcome got) {
            outcome = std::move(got);
            loop.quit();
        });
    if (!outcome)
        loop.exec();
    if (outcome->preflight) {
        out(QStringLiteral("Pre-flight of %1 (%2):\n").arg(qs(plan.name), qs(plan.workloadKey())));
        printGate(*outcome->preflight);
    }
    if (outcome->error)
        return reportFailure(
            QStringLiteral("rollout %1: %2%3")
                .arg(verb, outcome->error->message,
                    outcome->variantRejected ? QStringLiteral(" (--override-rejection)")
                                             : QString()));
    return outcome->queued;
}

Result<rollout::RolloutRecord> loadRecord(const QString &state, const std::string &id)
{
    if (!QFileInfo::exists(state))
        return dra::fail(
            common::Error::Code::NotFound, QStringLiteral("no state file at %1").arg(state));
    Result<store::StateDb> db = store::StateDb::open(state, store::OpenMode::ReadOnly);
    if (!db)
        return dra::fail(db.error());
    Result<std::optional<rollout::RolloutRecord>> record = rollout::RolloutStore(*db).load(id);
    if (!record)
        return dra::fail(record.error());
    if (!*record)
        return dra::fail(common::Error::Code::NotFound,
            QStringLiteral("no rollout named %1 in %2").arg(qs(id), state));
    return std::move(**record);
}

} // namespace

int runRolloutStart(const QStringList &arguments)
{
    QCommandLineParser parser;
    addClusterOptions(parser);
    parser.addOption({ QStringLiteral("reason"),
        QStringLiteral("Why, for the history and the audit log."), QStringLiteral("text") });
    parser.addOption({ QStringLiteral("override-rejection"),
        QStringLiteral("Start a variant that was rejected before.") });
    parser.addOption({ QStringLiteral("accept-inconclusive"),
        QStringLiteral("Let an Inconclusive pre-flight count as passed (recorded as yours).") });
    parser.addOption({ QStringLiteral("force"),
        QStringLiteral("Act outside the plan's maintenance window (needs --reason; recorded).") });
    parser.addPositionalArgument(
        QStringLiteral("PLAN"), QStringLiteral("The RolloutPlan YAML file."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Start a rollout: the pre-flight baseline gate against the cluster (DRA API "
                "served, baseline Ready, no node managed by both the device plugin and DRA), then "
                "the rollout is created in the state file and its first step (the canary) is "
                "carried out with your credentials. Afterwards drive it with dractl rollout run."),
            &exitCode))
        return exitCode;
    if (parser.positionalArguments().size() != 1)
        return err(QStringLiteral("dractl rollout start: name one plan file\n")), Usage;
    if (!forceHasReason(parser, QStringLiteral("start")))
        return Usage;
    const QString file = parser.positionalArguments().front();
    const rollout::PlanParse parsed = rollout::readPlanFile(file);
    if (!parsed.plan) {
        err(parsed.errorText(file));
        return reportFailure(QStringLiteral("rollout start: %1 is not a valid plan").arg(file));
    }
    const rollout::RolloutPlan &plan = *parsed.plan;
    Result<QString> state = statePath(parser);
    if (!state)
        return reportFailure(state.error());
    rollout::StartRequest request { actorName(),
        parser.value(QStringLiteral("reason")).toStdString(),
        parser.isSet(QStringLiteral("override-rejection")),
        parser.isSet(QStringLiteral("accept-inconclusive")),
        parser.isSet(QStringLiteral("force")) };
    const std::variant<int64_t, int> started
        = startPlan(parser, *state, plan, request, QStringLiteral("start"));
    if (const int *status = std::get_if<int>(&started))
        return *status;
    const int64_t seq = std::get<int64_t>(started);
    const int driven = driveOnce(parser, *state, plan.name);
    const int status = printOutcome(QStringLiteral("start"), rollout::answeredCommand(*state, seq));
    if (status == Ok)
        out(QStringLiteral("Follow it with: dractl rollout run %1 [--auto-promote]\n")
                .arg(qs(plan.name)));
    return driven != Ok ? driven : status;
}

int runRolloutRun(const QStringList &arguments)
{
    // A foreground controller is followed as it goes (a terminal, `| tee`, a supervisor's log):
    // each line is written when it is complete, not when a buffer fills.
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    QCommandLineParser parser;
    addClusterOptions(parser);
    parser.addOption({ QStringLiteral("auto-promote"),
        QStringLiteral("Promote by itself once the gates pass and the observation window has run "
                       "(otherwise promotion waits for dractl rollout promote).") });
    parser.addOption({ QStringLiteral("once"),
        QStringLiteral("One look at the cluster and one step, then exit.") });
    parser.addOption({ QStringLiteral("until"),
        QStringLiteral("Exit once the rollout reaches one of these stages (comma-separated, e.g. "
                       "Complete,Paused; default: a settled stage)."),
        QStringLiteral("stages") });
    parser.addOption({ QStringLiteral("diff"),
        QStringLiteral("Print the preview (server dry run against the live object) of every change "
                       "applied.") });
    parser.addOption({ QStringLiteral("interval"),
        QStringLiteral("How often to look at the cluster (default 5s)."),
        QStringLiteral("duration"), QStringLiteral("5s") });
    parser.addOption({ QStringLiteral("ready-timeout"),
        QStringLiteral(
            "How long a scaled Deployment may take to be Ready before the step fails and the "
            "rollout pauses (default 5m)."),
        QStringLiteral("duration"), QStringLiteral("5m") });
    parser.addPositionalArgument(QStringLiteral("PLAN|NAME"),
        QStringLiteral("A plan file (its rollout is created and started when new) or the "
                       "name of a rollout in the state file."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Run the rollout controller in the foreground: it gathers the evidence of the "
                "current stage, records the gates, fires stop conditions, carries out verbs given "
                "from other shells (dractl rollout promote NAME, ...), and applies each step's "
                "changes with your credentials. Ctrl-C stops it cleanly; running it again "
                "resumes where it stopped."),
            &exitCode))
        return exitCode;
    if (parser.positionalArguments().size() != 1)
        return err(QStringLiteral("dractl rollout run: name one plan file or rollout\n")), Usage;
    const std::optional<int64_t> intervalMs
        = common::parseDuration(parser.value(QStringLiteral("interval")).toStdString());
    if (!intervalMs || *intervalMs < 100)
        return err(QStringLiteral(
                   "dractl rollout run: --interval wants a duration of at least 100ms, like 5s\n")),
               Usage;
    const std::optional<int64_t> readyTimeoutMs
        = common::parseDuration(parser.value(QStringLiteral("ready-timeout")).toStdString());
    if (!readyTimeoutMs || *readyTimeoutMs <= 0)
        return err(QStringLiteral(
                   "dractl rollout run: --ready-timeout wants a duration like 10m\n")),
               Usage;
    std::vector<rollout::Stage> untilStages;
    for (const QString &name :
        parser.value(QStringLiteral("until")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const std::optional<rollout::Stage> stage
            = rollout::stageFromName(name.trimmed().toStdString());
        if (!stage)
            return err(QStringLiteral("dractl rollout run: --until: no stage named '%1'\n")
                           .arg(name)),
                   Usage;
        untilStages.push_back(*stage);
    }
    // Where the foreground controller has nothing left to do: a settled rollout, or a stage the
    // caller asked to stop at.
    const auto finished = [&untilStages](rollout::Stage stage) {
        return rollout::isSettled(stage)
            || std::find(untilStages.begin(), untilStages.end(), stage) != untilStages.end();
    };
    Result<QString> state = statePath(parser);
    if (!state)
        return reportFailure(state.error());
    const QString target = parser.positionalArguments().front();
    std::string id = target.toStdString();
    if (QFileInfo(target).isFile()) {
        const rollout::PlanParse parsed = rollout::readPlanFile(target);
        if (!parsed.plan) {
            err(parsed.errorText(target));
            return reportFailure(QStringLiteral("rollout run: %1 is not a valid plan").arg(target));
        }
        id = parsed.plan->name;
        if (!loadRecord(*state, id)) {
            // A new rollout: started as `rollout start` starts it (the pre-flight, then created
            // with its start queued); the controller below carries the start out.
            const std::variant<int64_t, int> started = startPlan(parser, *state, *parsed.plan,
                rollout::StartRequest { actorName(), {}, false, false }, QStringLiteral("run"));
            if (const int *status = std::get_if<int>(&started))
                return *status;
        }
    }
    {
        Result<store::StateDb> db = rollout::openStateWriter(*state);
        if (!db)
            return reportFailure(db.error());
        Result<std::optional<rollout::ControllerLease>> lease = liveLease(*db, id);
        if (!lease)
            return reportFailure(lease.error());
        if (*lease)
            return reportFailure(QStringLiteral(
                "rollout run: %1 is already driven by %2 (heartbeat %3 ago); one controller per "
                "rollout")
                                     .arg(qs(id), qs((*lease)->owner),
                                         qs(common::formatDuration(
                                             QDateTime::currentMSecsSinceEpoch()
                                             - (*lease)->heartbeatAt))));
    }
    Result<ClusterSession> session = connectCluster(parser);
    if (!session)
        return reportFailure(session.error());
    rollout::ControllerOptions options = controllerOptions(
        parser.isSet(QStringLiteral("auto-promote")), *intervalMs, *readyTimeoutMs);
    options.reportDiffs = parser.isSet(QStringLiteral("diff"));
    rollout::RolloutController controller(
        *state, id, *session->cluster, common::Clock::system(), options);
    if (Result<void> loaded = controller.load(); !loaded)
        return reportFailure(loaded.error());
    printControllerMessages(controller);
    out(QStringLiteral("%1 Driving rollout %2 (%3) at %4%5; Ctrl-C stops.\n")
            .arg(wallClockText(), qs(id), qs(controller.plan().workloadKey()),
                QString::fromLatin1(rollout::stageName(controller.state().stage)),
                parser.isSet(QStringLiteral("auto-promote"))
                    ? QStringLiteral(", promoting by itself")
                    : QString()));
    if (parser.isSet(QStringLiteral("once"))) {
        controller.tick();
        waitForTick(controller);
        controller.stop();
        return controller.lastError() ? reportFailure(*controller.lastError()) : int(Ok);
    }
    const StopOnSignal stopOnSignal;
    QObject::connect(&controller, &rollout::RolloutController::tickFinished, &controller,
        [&controller, &finished]() {
            // Nothing is left to drive once the rollout settled (Complete still awaits finalise).
            if (finished(controller.state().stage))
                QCoreApplication::quit();
        });
    controller.start();
    QCoreApplication::exec();
    controller.stop();
    if (finished(controller.state().stage)) {
        out(QStringLiteral("%1 Rollout %2 is %3.\n")
                .arg(wallClockText(), qs(id),
                    QString::fromLatin1(rollout::stageName(controller.state().stage))));
        return Ok;
    }
    out(QStringLiteral("%1 Stopped at %2; dractl rollout run %3 resumes.\n")
            .arg(wallClockText(), QString::fromLatin1(rollout::stageName(controller.state().stage)),
                qs(id)));
    return Ok;
}

int runRolloutVerb(const QStringList &arguments, const QString &verbText)
{
    const std::optional<rollout::Verb> verb = rollout::verbFromName(verbText.toStdString());
    QCommandLineParser parser;
    addClusterOptions(parser);
    parser.addOption({ QStringLiteral("reason"),
        QStringLiteral("Why, for the history and the audit log."), QStringLiteral("text") });
    parser.addOption({ QStringLiteral("accept-inconclusive"),
        QStringLiteral("promote: let Inconclusive gates count as passed (recorded as yours).") });
    parser.addOption({ QStringLiteral("force"),
        QStringLiteral("Act outside the plan's maintenance window (needs --reason; recorded).") });
    parser.addOption({ QStringLiteral("gate"),
        QStringLiteral("retry-gate: the gate to evaluate again."), QStringLiteral("name") });
    parser.addOption({ QStringLiteral("wait"),
        QStringLiteral("How long to wait for a running controller (default 30s)."),
        QStringLiteral("duration"), QStringLiteral("30s") });
    parser.addPositionalArgument(QStringLiteral("NAME"), QStringLiteral("The rollout."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Give the rollout the verb %1. When a controller runs (dractl rollout run), it is "
                "queued in the state file for it; otherwise it is carried out here, with your "
                "credentials when it changes the cluster.")
                .arg(verbText),
            &exitCode))
        return exitCode;
    if (!verb)
        return err(QStringLiteral("dractl rollout: unknown verb %1\n").arg(verbText)), Usage;
    if (parser.positionalArguments().size() != 1)
        return err(QStringLiteral("dractl rollout %1: name one rollout\n").arg(verbText)), Usage;
    if (!forceHasReason(parser, verbText))
        return Usage;
    const std::optional<int64_t> waitMs
        = common::parseDuration(parser.value(QStringLiteral("wait")).toStdString());
    if (!waitMs)
        return err(QStringLiteral("dractl rollout %1: --wait wants a duration like 30s\n")
                       .arg(verbText)),
               Usage;
    const std::string id = parser.positionalArguments().front().toStdString();
    rollout::Command command { *verb, actorName(),
        parser.value(QStringLiteral("reason")).toStdString() };
    command.acceptInconclusive = parser.isSet(QStringLiteral("accept-inconclusive"));
    command.force = parser.isSet(QStringLiteral("force"));
    if (*verb == rollout::Verb::RetryGate) {
        command.gate = rollout::gateFromName(parser.value(QStringLiteral("gate")).toStdString());
        if (!command.gate)
            return err(QStringLiteral(
                       "dractl rollout retry-gate: --gate names one of api, node, application, "
                       "negative-control, baseline, rollback\n")),
                   Usage;
    }
    Result<QString> state = statePath(parser);
    if (!state)
        return reportFailure(state.error());
    Result<rollout::RolloutRecord> record = loadRecord(*state, id);
    if (!record)
        return reportFailure(
            QStringLiteral("rollout %1: %2").arg(verbText, record.error().message));
    const rollout::PlanParse parsed = rollout::parsePlan(record->planYaml);
    if (!parsed.plan)
        return reportFailure(QStringLiteral("rollout %1: the stored plan of %2 no longer validates")
                                 .arg(verbText, qs(id)));

    std::optional<rollout::ControllerLease> lease;
    int64_t seq = 0;
    {
        Result<store::StateDb> db = rollout::openStateWriter(*state);
        if (!db)
            return reportFailure(db.error());
        Result<std::optional<rollout::ControllerLease>> live = liveLease(*db, id);
        if (!live)
            return reportFailure(live.error());
        lease = *live;
        Result<int64_t> queued = rollout::ControllerInbox(*db).enqueue(
            id, command, QDateTime::currentMSecsSinceEpoch());
        if (!queued)
            return reportFailure(queued.error());
        seq = *queued;
    }
    if (lease) {
        out(QStringLiteral("Queued for the controller of %1 (%2).\n")
                .arg(qs(id), qs(lease->owner)));
        QElapsedTimer waited;
        waited.start();
        std::optional<rollout::QueuedCommand> outcome;
        while (!(outcome = rollout::answeredCommand(*state, seq)) && waited.elapsed() < *waitMs)
            QThread::msleep(200);
        return printOutcome(verbText, outcome);
    }
    const rollout::RolloutMachine machine(*parsed.plan, common::Clock::system());
    const rollout::Decision decision = machine.decide(record->state, command);
    const bool local = (decision.allowed && !needsCluster(decision))
        || (!decision.allowed
            && (*verb == rollout::Verb::Pause || *verb == rollout::Verb::Resume
                || *verb == rollout::Verb::Finalise || *verb == rollout::Verb::Reject));
    if (local) {
        if (Result<void> done = executeWithoutCluster(*state, *parsed.plan, id); !done)
            return reportFailure(done.error());
        return printOutcome(verbText, rollout::answeredCommand(*state, seq));
    }
    const int driven = driveOnce(parser, *state, id);
    const int status = printOutcome(verbText, rollout::answeredCommand(*state, seq));
    return driven != Ok ? driven : status;
}

} // namespace dra::cli
