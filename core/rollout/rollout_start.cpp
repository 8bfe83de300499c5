// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/rollout_start.h"

#include <memory>

#include <QDateTime>
#include <QFileInfo>
#include <QPointer>

#include "core/common/json_text.h"
#include "core/rollout/controller_inbox.h"
#include "core/rollout/evidence_collector.h"
#include "core/rollout/governance.h"
#include "core/rollout/rollout_machine.h"
#include "core/rollout/rollout_store.h"
#include "core/rollout/state_writer.h"

namespace dra::rollout {

namespace {

using common::Error;
using common::qs;

// What the state file holds of `plan` before a start: a rejected variant (unless the request
// overrides it), a rollout of the plan's name under way, or one at Baseline (a start refused
// before), which is started again rather than created.
struct Existing
{
    bool atBaseline = false;
    std::optional<Stage> underWay;
    std::optional<RejectedVariant> rejected; // and not overridden
};
Result<Existing> readExisting(
    const QString &statePath, const RolloutPlan &plan, const StartRequest &request)
{
    Existing existing;
    if (!QFileInfo::exists(statePath))
        return existing;
    Result<store::StateDb> db = store::StateDb::open(statePath, store::OpenMode::ReadOnly);
    if (!db)
        return fail(db.error());
    RolloutStore store(*db);
    Result<std::optional<RejectedVariant>> rejected
        = store.rejection(plan.workloadKey(), plan.variant.name);
    if (!rejected)
        return fail(rejected.error());
    if (*rejected && !request.overrideRejection)
        existing.rejected = **rejected;
    Result<std::optional<RolloutRecord>> record = store.load(plan.name);
    if (!record)
        return fail(record.error());
    if (*record && (*record)->state.stage == Stage::Baseline)
        existing.atBaseline = true;
    else if (*record && !isSettled((*record)->state.stage))
        existing.underWay = (*record)->state.stage;
    return existing;
}

// Creates the rollout at Baseline with the pre-flight recorded, unless a refused start left it
// there, and queues its start.
Result<int64_t> createAndQueue(const QString &statePath, const RolloutPlan &plan,
    const GateResult &baseline, const StartRequest &request, bool exists, common::Clock &clock)
{
    Result<store::StateDb> db = openStateWriter(statePath);
    if (!db)
        return fail(db.error());
    const int64_t now = clock.nowMs();
    if (!exists) {
        const RolloutMachine machine(plan, clock);
        RolloutState initial = machine.initialState();
        machine.recordGate(initial, baseline);
        if (Result<void> created
            = RolloutStore(*db).create(initial, storedPlanText(plan), request.actor, now);
            !created)
            return fail(created.error());
    }
    Command start { Verb::Start, request.actor, request.reason };
    start.overrideRejection = request.overrideRejection;
    start.acceptInconclusive = request.acceptInconclusive;
    start.force = request.force;
    return ControllerInbox(*db).enqueue(plan.name, start, now);
}

} // namespace

void runPreflight(const RolloutPlan &plan, ClusterPort &cluster, common::Clock &clock,
    QObject *context, std::function<void(Result<GateResult>)> done)
{
    // The collector reads the plan for as long as it gathers: both live until it answers.
    auto kept = std::make_shared<const RolloutPlan>(plan);
    auto *collector = new EvidenceCollector(*kept, cluster, clock, 5'000, context);
    const RolloutMachine machine(*kept, clock);
    QPointer<EvidenceCollector> guard(collector);
    collector->collect(machine.initialState(),
        [kept, guard, done = std::move(done)](Result<StageEvidence> evidence) {
            if (guard)
                guard->deleteLater();
            if (!evidence)
                return done(fail(evidence.error()));
            if (evidence->gates.empty())
                return done(fail(Error::Code::Internal, QStringLiteral("no baseline evidence")));
            done(evidence->gates.front());
        });
}

Result<void> preflightAllows(const GateResult &baseline, bool acceptInconclusive)
{
    if (baseline.verdict == Verdict::Passed
        || (baseline.verdict == Verdict::Inconclusive && acceptInconclusive))
        return {};
    return fail(Error::Code::Invalid,
        QStringLiteral("the pre-flight did not pass (%1); nothing was changed")
            .arg(qs(baseline.summary())));
}

void startRollout(const QString &statePath, const RolloutPlan &plan, const StartRequest &request,
    ClusterPort &cluster, common::Clock &clock, QObject *context,
    std::function<void(StartOutcome)> done)
{
    StartOutcome outcome;
    Result<Existing> existing = readExisting(statePath, plan, request);
    if (!existing) {
        outcome.error = existing.error();
        return done(std::move(outcome));
    }
    if (const std::optional<RejectedVariant> &rejected = existing->rejected) {
        outcome.variantRejected = true;
        outcome.error = Error { Error::Code::Conflict,
            QStringLiteral("variant %1 of %2 was rejected on %3 (rollout %4%5); it starts again "
                           "only when the rejection is overridden")
                .arg(qs(plan.variant.name), qs(plan.workloadKey()),
                    QDateTime::fromMSecsSinceEpoch(rejected->at, Qt::UTC).toString(Qt::ISODate),
                    qs(rejected->rollout),
                    rejected->reason.empty() ? QString()
                                             : QStringLiteral(": ") + qs(rejected->reason)) };
        return done(std::move(outcome));
    }
    // Outside the window nothing is touched, not even the pre-flight's reads.
    Command start { Verb::Start, request.actor, request.reason };
    start.force = request.force;
    if (const std::optional<Requirement> window = windowRequirement(plan, start, clock.nowMs());
        window && !window->met) {
        outcome.error = Error {
            Error::Code::Conflict,
            QStringLiteral("%1: %2; nothing was changed").arg(qs(window->what), qs(window->detail))
        };
        return done(std::move(outcome));
    }
    if (existing->underWay) {
        outcome.existingStage = existing->underWay;
        outcome.error = Error { Error::Code::Conflict,
            QStringLiteral("rollout %1 exists and is at %2; abort or finish it first")
                .arg(qs(plan.name), QString::fromLatin1(stageName(*existing->underWay))) };
        return done(std::move(outcome));
    }
    runPreflight(plan, cluster, clock, context,
        [statePath, plan, request, exists = existing->atBaseline, &clock, done = std::move(done)](
            Result<GateResult> baseline) {
            StartOutcome outcome;
            if (!baseline) {
                outcome.error = Error { baseline.error().code,
                    QStringLiteral("pre-flight: %1").arg(baseline.error().message) };
                return done(std::move(outcome));
            }
            outcome.preflight = *baseline;
            if (Result<void> allowed = preflightAllows(*baseline, request.acceptInconclusive);
                !allowed) {
                outcome.error = allowed.error();
                return done(std::move(outcome));
            }
            Result<int64_t> queued
                = createAndQueue(statePath, plan, *baseline, request, exists, clock);
            if (!queued)
                outcome.error = queued.error();
            else
                outcome.queued = *queued;
            done(std::move(outcome));
        });
}

std::string storedPlanText(const RolloutPlan &plan)
{
    return planJson(plan).dump(2);
}

} // namespace dra::rollout
