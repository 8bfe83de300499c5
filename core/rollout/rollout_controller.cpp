// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/rollout_controller.h"

#include <algorithm>

#include "core/common/json_text.h"
#include "core/rollout/evidence_collector.h"
#include "core/rollout/rollout_store.h"
#include "core/rollout/state_writer.h"

namespace dra::rollout {

namespace {

using common::qs;

bool isRunningStage(Stage stage)
{
    return stage == Stage::Canary || stage == Stage::Shadow || stage == Stage::Cutover;
}

std::string decisionText(Stage from, const Decision &decision)
{
    if (!decision.allowed)
        return "refused: " + decision.refusal;
    return std::string(stageName(from)) + " -> " + stageName(decision.to)
        + (decision.to == Stage::Cutover ? "[" + std::to_string(decision.toStep) + "]" : "");
}

} // namespace

RolloutController::RolloutController(QString statePath, std::string rolloutId, ClusterPort &cluster,
    common::Clock &clock, ControllerOptions options, QObject *parent)
    : QObject(parent)
    , m_statePath(std::move(statePath))
    , m_id(std::move(rolloutId))
    , m_cluster(cluster)
    , m_clock(clock)
    , m_options(std::move(options))
{
}

RolloutController::~RolloutController()
{
    // The executor and collector reference the plan: they go first.
    delete m_executor;
    delete m_collector;
}

template <typename T>
Result<T> RolloutController::withState(const std::function<Result<T>(store::StateDb &)> &work)
{
    Result<store::StateDb> state = openStateWriter(m_statePath);
    if (!state)
        return fail(state.error());
    return work(*state);
}

Result<void> RolloutController::load()
{
    Result<std::optional<RolloutRecord>> record = withState<std::optional<RolloutRecord>>(
        [&](store::StateDb &db) { return RolloutStore(db).load(m_id); });
    if (!record)
        return fail(record.error());
    if (!*record)
        return fail(common::Error::Code::NotFound,
            QStringLiteral("no rollout named %1 in %2").arg(qs(m_id), m_statePath));
    const PlanParse parsed = parsePlan((*record)->planYaml);
    if (!parsed.plan)
        return fail(common::Error::Code::Invalid,
            QStringLiteral("rollout %1: its stored plan no longer validates: %2")
                .arg(qs(m_id), parsed.errorText(QStringLiteral("plan"))));
    Result<std::optional<MutationProgress>> progress = withState<std::optional<MutationProgress>>(
        [&](store::StateDb &db) { return ControllerInbox(db).progress(m_id); });
    if (!progress)
        return fail(progress.error());
    Result<std::optional<StageObservation>> observed = withState<std::optional<StageObservation>>(
        [&](store::StateDb &db) { return ControllerInbox(db).observation(m_id); });
    if (!observed)
        return fail(observed.error());
    delete m_executor;
    delete m_collector;
    m_plan = std::make_unique<RolloutPlan>(*parsed.plan);
    m_machine = std::make_unique<RolloutMachine>(*m_plan, m_clock);
    m_executor = new MutationExecutor(*m_plan, m_cluster, m_clock, m_options.executor, this);
    m_collector = new EvidenceCollector(
        *m_plan, m_cluster, m_clock, m_options.executor.httpTimeoutMs, this);
    m_state = std::move((*record)->state);
    m_progress = std::move(*progress);
    m_observedStage = m_state.effectiveStage();
    m_observedStep = m_state.step;
    m_observation = StopObservation {};
    // What the last controller counted still counts, if the rollout is where it counted it.
    if (*observed && (*observed)->stage == m_observedStage && (*observed)->step == m_observedStep)
        m_observation = (*observed)->observation;
    m_startedAt = m_clock.nowMs();
    return {};
}

void RolloutController::start()
{
    m_running = true;
    keepBeating();
    tick();
}

void RolloutController::keepBeating()
{
    // Apart from the ticks: a tick waiting minutes for a Deployment must not look like a dead
    // controller to the shells that queue verbs.
    const int64_t every
        = std::max<int64_t>(100, std::min(m_options.tickMs, m_options.leaseStaleMs / 3));
    m_clock.callLater(every, this, [this]() {
        if (!m_running)
            return;
        beat();
        keepBeating();
    });
}

void RolloutController::stop()
{
    m_running = false;
    (void)withState<void>(
        [&](store::StateDb &db) { return ControllerInbox(db).release(m_id, m_options.owner.pid); });
}

void RolloutController::report(const QString &text)
{
    Q_EMIT message(text);
}

void RolloutController::beat()
{
    const Result<void> beaten = withState<void>([&](store::StateDb &db) {
        return ControllerInbox(db).heartbeat(
            m_id, m_options.owner.text(), m_options.owner.pid, m_startedAt, m_clock.nowMs());
    });
    if (!beaten)
        report(QStringLiteral("could not write the heartbeat: %1").arg(beaten.error().message));
}

void RolloutController::tick()
{
    if (!m_machine)
        return;
    if (m_busy) {
        m_again = true;
        return;
    }
    m_busy = true;
    m_movedThisTick = false;
    m_lastError.reset();
    beat();
    m_collector->collect(
        m_state, [this](Result<StageEvidence> evidence) { gathered(std::move(evidence)); });
}

void RolloutController::gathered(Result<StageEvidence> evidence)
{
    if (!evidence) {
        // Verbs still run (a pause or an abort must not wait for a flaky cluster); gates do not
        // move.
        m_lastError = evidence.error();
        report(QStringLiteral("could not gather evidence: %1").arg(evidence.error().message));
        return takeCommands();
    }
    const int64_t now = m_clock.nowMs();
    if (m_state.effectiveStage() != m_observedStage || m_state.step != m_observedStep) {
        m_observation = StopObservation {};
        m_observedStage = m_state.effectiveStage();
        m_observedStep = m_state.step;
    }
    m_observation.pendingSince = evidence->canaryPending
        ? (m_observation.pendingSince ? m_observation.pendingSince : now)
        : 0;
    m_observation.readinessFailuresInARow
        = evidence->readinessFailed ? m_observation.readinessFailuresInARow + 1 : 0;
    m_observation.canaryErrorRate = evidence->canaryErrorRate;
    m_observation.claimsRemainingSince = evidence->claimsRemain
        ? (m_observation.claimsRemainingSince ? m_observation.claimsRemainingSince : now)
        : 0;
    m_baselineReplicasNow = evidence->baselineReplicas;
    std::vector<std::string> changed; // gates whose verdict moved, for the user watching
    for (const GateResult &gate : evidence->gates) {
        const auto before = m_state.gates.find(gate.gate);
        if (before == m_state.gates.end() || before->second.verdict != gate.verdict)
            changed.push_back(std::string(gateName(gate.gate)) + " gate " + gate.summary());
    }
    if (!evidence->gates.empty()) {
        const Result<void> recorded = withState<void>([&](store::StateDb &db) -> Result<void> {
            if (Result<void> saved = ControllerInbox(db).saveObservation(
                    m_id, StageObservation { m_observedStage, m_observedStep, m_observation }, now);
                !saved)
                return saved;
            return RolloutStore(db).recordGates(
                *m_machine, m_state, evidence->gates, "controller", now);
        });
        if (!recorded) {
            m_lastError = recorded.error();
            report(QStringLiteral("could not record the gates: %1").arg(recorded.error().message));
        }
    }
    for (const std::string &line : changed)
        report(qs(line));
    takeCommands();
}

void RolloutController::takeCommands()
{
    Result<std::optional<QueuedCommand>> next = withState<std::optional<QueuedCommand>>(
        [&](store::StateDb &db) { return ControllerInbox(db).takeNext(m_id, m_clock.nowMs()); });
    if (!next) {
        m_lastError = next.error();
        report(QStringLiteral("could not read queued verbs: %1").arg(next.error().message));
        return afterCommands();
    }
    if (!*next)
        return afterCommands();
    Command command = (*next)->command;
    if (command.verb == Verb::Start) {
        command.baselineReplicas = m_baselineReplicasNow;
        const Result<std::optional<RejectedVariant>> rejected
            = withState<std::optional<RejectedVariant>>([&](store::StateDb &db) {
                  return RolloutStore(db).rejection(m_state.workload, m_state.variant);
              });
        command.variantRejected = rejected && rejected->has_value();
    }
    report(QStringLiteral("%1 asks to %2")
               .arg(qs(command.actor), QString::fromLatin1(verbName(command.verb))));
    execute(std::move(command), (*next)->seq, [this](bool) { takeCommands(); });
}

void RolloutController::afterCommands()
{
    const bool unfinished = m_progress && !m_progress->finished();
    if (unfinished && !m_movedThisTick && m_state.stage != Stage::Paused) {
        report(QStringLiteral("resuming the %1 step at mutation %2 of %3")
                   .arg(QString::fromLatin1(verbName(m_progress->verb)))
                   .arg(m_progress->next + 1)
                   .arg(m_progress->mutations.size()));
        m_movedThisTick = true;
        return runProgress([this](bool) { finishTick(); });
    }
    decideOwnMoves();
}

void RolloutController::decideOwnMoves()
{
    if (m_movedThisTick || (m_progress && !m_progress->finished()))
        return finishTick(); // the evidence predates the move: judge it next tick
    const int64_t now = m_clock.nowMs();
    const auto tryCommand = [&](Command command) {
        if (!m_machine->decide(m_state, command).allowed)
            return false;
        execute(std::move(command), std::nullopt, [this](bool) { finishTick(); });
        return true;
    };
    if (const std::optional<FiredStop> fired
        = firstStopCondition(*m_plan, m_state, m_observation, now)) {
        if (m_state.stage == Stage::RollingBack) {
            // Nothing to pause in a rollback: say it once, the rollback gate shows what is left.
            if (fired->condition.type != m_lastRollbackStop)
                report(
                    QStringLiteral("stop condition while rolling back: %1").arg(qs(fired->reason)));
            m_lastRollbackStop = fired->condition.type;
        } else {
            Command stop { Verb::StopConditionFired, "controller", fired->reason };
            stop.stopAction = fired->condition.action;
            if (tryCommand(std::move(stop)))
                return;
        }
    }
    if (m_state.stage == Stage::RollingBack) {
        // The next step once the last one's evidence says so, each recorded with what it waited
        // for; then the verification.
        const std::string why = m_state.step == kRollbackDraining
            ? "traffic is back on the baseline and the drain window has run"
            : "the canary's claims are released";
        if (tryCommand(Command { Verb::RollbackStep, "controller", why }))
            return;
        if (tryCommand(Command { Verb::RollbackVerified, "controller" }))
            return;
    }
    if (m_options.autoPromote && isRunningStage(m_state.stage)
        && tryCommand(Command {
            Verb::Promote, "controller (auto-promote)", "gates passed and the window has run" }))
        return;
    finishTick();
}

void RolloutController::finishTick()
{
    m_busy = false;
    Q_EMIT tickFinished();
    if (m_again) {
        m_again = false;
        m_clock.callLater(0, this, [this]() { tick(); });
    } else if (m_running) {
        m_clock.callLater(m_options.tickMs, this, [this]() {
            if (m_running)
                tick();
        });
    }
}

void RolloutController::execute(
    Command command, std::optional<int64_t> queuedSeq, std::function<void(bool)> then)
{
    const int64_t now = m_clock.nowMs();
    const Stage from = m_state.stage;
    std::optional<MutationProgress> saved;
    Result<Decision> decision = withState<Decision>([&](store::StateDb &db) -> Result<Decision> {
        ControllerInbox inbox(db);
        Result<Decision> done = RolloutStore(db).execute(
            *m_machine, m_state, command, now, [&](const Decision &decided) -> Result<void> {
                MutationProgress progress { command.verb, {}, 0 };
                for (const Mutation &m : decided.mutations)
                    if (m.kind
                        != Mutation::Kind::MarkVariantRejected) // the state file did that already
                        progress.mutations.push_back(m);
                if (progress.mutations.empty())
                    return {};
                saved = progress;
                return inbox.saveProgress(m_id, progress, now);
            });
        if (done && queuedSeq)
            if (Result<void> noted = inbox.setResult(*queuedSeq, decisionText(from, *done)); !noted)
                return fail(noted.error());
        return done;
    });
    if (!decision) {
        m_lastError = decision.error();
        report(QStringLiteral("%1 failed: %2")
                   .arg(QString::fromLatin1(verbName(command.verb)), decision.error().message));
        return then(false);
    }
    if (!decision->allowed) {
        report(QStringLiteral("%1 refused: %2")
                   .arg(QString::fromLatin1(verbName(command.verb)), qs(decision->refusal)));
        return then(true);
    }
    m_movedThisTick = true;
    report(QStringLiteral("%1 by %2: %3")
               .arg(QString::fromLatin1(verbName(command.verb)), qs(command.actor),
                   qs(decisionText(from, *decision)))
        + (command.reason.empty() ? QString() : QStringLiteral(" (%1)").arg(qs(command.reason))));
    if (from != m_state.stage)
        Q_EMIT stageChanged(m_state.stage);
    if (!saved)
        return then(true); // an unfinished earlier step waits for its own turn (not while paused)
    m_progress = std::move(saved);
    runProgress(std::move(then));
}

void RolloutController::runProgress(std::function<void(bool)> then)
{
    if (!m_progress || m_progress->finished())
        return then(true);
    const Mutation mutation = m_progress->mutations[m_progress->next];
    report(QStringLiteral("  %1 ...").arg(qs(mutation.describe())));
    m_executor->run(mutation, [this, then](MutationOutcome outcome) {
        const int64_t now = m_clock.nowMs();
        if (outcome.ok())
            ++m_progress->next;
        const Result<void> noted = withState<void>([&](store::StateDb &db) -> Result<void> {
            Result<store::sqlite::Transaction> transaction = store::sqlite::Transaction::begin(
                db.database(), store::sqlite::Transaction::Kind::Immediate);
            if (!transaction)
                return fail(transaction.error());
            AuditEntry entry { 0, now, m_cluster.actor(), "mutate", m_id,
                std::string(outcomeName(outcome.result)) + ": " + outcome.mutation.describe(),
                mutationOutcomeJson(outcome) };
            if (Result<AuditEntry> logged = RolloutStore(db).audit().append(std::move(entry));
                !logged)
                return fail(logged.error());
            if (Result<void> saved = ControllerInbox(db).saveProgress(m_id, *m_progress, now);
                !saved)
                return saved;
            return transaction->commit();
        });
        report(QStringLiteral("  %1: %2%3")
                   .arg(qs(outcome.mutation.describe()),
                       QString::fromLatin1(outcomeName(outcome.result)),
                       outcome.error.empty() ? QString()
                                             : QStringLiteral(" (%1)").arg(qs(outcome.error))));
        if (m_options.reportDiffs && outcome.result == MutationOutcome::Result::Applied
            && !outcome.diff.empty())
            report(qs(outcome.diff));
        if (!noted) {
            m_lastError = noted.error();
            report(QStringLiteral("could not record the mutation: %1").arg(noted.error().message));
            return then(false);
        }
        if (outcome.ok())
            return runProgress(then);
        m_lastError = common::Error { outcome.result == MutationOutcome::Result::Denied
                ? common::Error::Code::Forbidden
                : common::Error::Code::Invalid,
            qs(outcome.error) };
        // A step that cannot complete holds the rollout where it is until a human decides.
        Command pause { Verb::StopConditionFired, "controller", "step failed: " + outcome.error };
        pause.stopAction = StopAction::Pause;
        if (m_machine->decide(m_state, pause).allowed)
            return execute(std::move(pause), std::nullopt, [then](bool) { then(false); });
        then(false);
    });
}

} // namespace dra::rollout
