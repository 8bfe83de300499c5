// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/rollout_machine.h"

#include <algorithm>
#include <iterator>

#include "core/common/duration.h"
#include "core/rollout/governance.h"

namespace dra::rollout {

namespace {

using MK = Mutation::Kind;

bool isActive(Stage stage)
{
    return stage == Stage::Canary || stage == Stage::Shadow || stage == Stage::Cutover;
}

Decision refuse(std::string why)
{
    Decision decision;
    decision.refusal = std::move(why);
    return decision;
}

Decision to(Stage stage, int step = -1)
{
    Decision decision;
    decision.allowed = true;
    decision.to = stage;
    decision.toStep = step;
    return decision;
}

// Allowed only when every requirement holds; the refusal names the first that does not.
void settle(Decision &decision)
{
    for (const Requirement &r : decision.requirements)
        if (!r.met) {
            decision.allowed = false;
            decision.refusal = r.what + (r.detail.empty() ? "" : " (" + r.detail + ")");
            return;
        }
}

std::string stageLabel(Stage stage, int step, const RolloutPlan &plan)
{
    if (stage == Stage::Cutover && step >= 0 && step < int(plan.cutover.size()))
        return "Cutover " + std::to_string(plan.cutover[size_t(step)].percent) + "%";
    return stageName(stage);
}

int ceilPercent(int total, int percent)
{
    return (total * percent + 99) / 100;
}

} // namespace

RolloutState RolloutMachine::initialState() const
{
    RolloutState state;
    state.id = m_plan.name;
    state.workload = m_plan.workloadKey();
    state.variant = m_plan.variant.name;
    state.createdAt = m_clock.nowMs();
    state.stageEnteredAt = state.createdAt;
    return state;
}

std::vector<Verb> RolloutMachine::userVerbs(Stage stage)
{
    switch (stage) {
    case Stage::Baseline:
        return { Verb::Start, Verb::Abort, Verb::RetryGate, Verb::Reject };
    case Stage::Canary:
    case Stage::Shadow:
    case Stage::Cutover:
        return { Verb::Promote, Verb::Pause, Verb::Abort, Verb::RetryGate, Verb::Reject };
    case Stage::Complete:
        return { Verb::Finalise, Verb::Abort, Verb::Reject };
    case Stage::Paused:
        return { Verb::Resume, Verb::Abort, Verb::RetryGate, Verb::Reject };
    case Stage::RollingBack:
        return { Verb::Abort, Verb::RetryGate, Verb::Reject };
    case Stage::RolledBack:
    case Stage::Aborted:
        return { Verb::Start, Verb::Reject };
    case Stage::Rejected:
        return { Verb::Start };
    case Stage::Finalised:
        return {};
    }
    return {};
}

std::vector<GateKind> RolloutMachine::gatesToLeave(Stage stage) const
{
    switch (stage) {
    case Stage::Baseline:
        return { GateKind::Baseline };
    case Stage::Canary:
        if (m_plan.negativeControl.enabled)
            return { GateKind::Api, GateKind::Node, GateKind::Application,
                GateKind::NegativeControl };
        return { GateKind::Api, GateKind::Node, GateKind::Application };
    case Stage::Shadow:
    case Stage::Cutover:
        return { GateKind::Api, GateKind::Node, GateKind::Application };
    case Stage::RollingBack:
        return { GateKind::Rollback };
    default:
        return {};
    }
}

int64_t RolloutMachine::windowOf(Stage stage, int step) const
{
    switch (stage) {
    case Stage::Canary:
        return m_plan.canary.observationMs;
    case Stage::Shadow:
        return m_plan.shadow.observationMs;
    case Stage::Cutover:
        return step >= 0 && step < int(m_plan.cutover.size())
            ? m_plan.cutover[size_t(step)].observationMs
            : 0;
    default:
        return 0;
    }
}

int64_t RolloutMachine::windowRemaining(const RolloutState &state) const
{
    if (state.stage == Stage::Paused)
        return windowOf(state.pausedStage, state.pausedStep); // resuming restarts the window
    const int64_t window = windowOf(state.stage, state.step);
    return std::max<int64_t>(0, state.stageEnteredAt + window - m_clock.nowMs());
}

void RolloutMachine::requireGates(Decision &decision, const RolloutState &state,
    const Command &command, const std::vector<GateKind> &gates) const
{
    for (GateKind gate : gates) {
        const GateResult *result = nullptr;
        for (const GateResult &fresh : command.evidence)
            if (fresh.gate == gate)
                result = &fresh;
        if (!result)
            if (const auto found = state.gates.find(gate); found != state.gates.end())
                result = &found->second;
        Requirement r { std::string(gateName(gate)) + " gate Passed", false, "not evaluated yet" };
        if (result) {
            r.detail = result->summary();
            r.met = result->verdict == Verdict::Passed
                || (result->verdict == Verdict::Inconclusive && command.acceptInconclusive);
            if (r.met && result->verdict == Verdict::Inconclusive) {
                r.detail = "accepted as Inconclusive by " + command.actor + ": " + r.detail;
                r.noted = true;
            }
        }
        decision.requirements.push_back(std::move(r));
    }
}

void RolloutMachine::requireWindow(Decision &decision, const RolloutState &state) const
{
    const int64_t window = windowOf(state.stage, state.step);
    if (window <= 0)
        return;
    const int64_t left = windowRemaining(state);
    decision.requirements.push_back(Requirement { stageLabel(state.stage, state.step, m_plan)
            + " observed for " + common::formatDuration(window),
        left == 0, left == 0 ? "" : common::formatDuration(left) + " left" });
}

std::vector<Mutation> RolloutMachine::stepMutations(int step, int baselineReplicas) const
{
    const int percent = m_plan.cutover[size_t(step)].percent;
    const std::string &ns = m_plan.baseline.ns;
    std::vector<Mutation> mutations;
    if (m_plan.traffic.mode == TrafficMode::HttpRoute) {
        // Capacity first, then traffic: the baseline keeps its replicas until Complete.
        const int canary = std::max(m_plan.canary.replicas, ceilPercent(baselineReplicas, percent));
        mutations.push_back(
            Mutation { MK::ScaleDeployment, ns, m_plan.variant.deployment, canary });
        Mutation weights { MK::SetRouteWeights, ns, m_plan.traffic.route };
        weights.baselineWeight = 100 - percent;
        weights.canaryWeight = percent;
        mutations.push_back(weights);
    } else {
        // The Service spreads requests over both Deployments' pods: the ratio is the traffic.
        const int canary = std::max(1, ceilPercent(baselineReplicas, percent));
        mutations.push_back(
            Mutation { MK::ScaleDeployment, ns, m_plan.variant.deployment, canary });
        mutations.push_back(Mutation { MK::ScaleDeployment, ns, m_plan.baseline.deployment,
            std::max(0, baselineReplicas - canary) });
    }
    return mutations;
}

std::vector<Mutation> RolloutMachine::rollbackMutations(const RolloutState &state) const
{
    const std::string &ns = m_plan.baseline.ns;
    std::vector<Mutation> mutations;
    if (state.baselineReplicas > 0)
        mutations.push_back(Mutation {
            MK::ScaleDeployment, ns, m_plan.baseline.deployment, state.baselineReplicas });
    if (m_plan.traffic.mode == TrafficMode::HttpRoute) {
        if (m_plan.shadow.enabled)
            mutations.push_back(Mutation { MK::RemoveRequestMirror, ns, m_plan.traffic.route });
        Mutation weights { MK::SetRouteWeights, ns, m_plan.traffic.route };
        weights.baselineWeight = 100;
        mutations.push_back(weights);
    }
    return mutations;
}

std::vector<Mutation> RolloutMachine::canaryDeletions() const
{
    const std::string &ns = m_plan.baseline.ns;
    std::vector<Mutation> mutations { Mutation {
        MK::DeleteDeployment, ns, m_plan.variant.deployment } };
    if (m_plan.traffic.mode == TrafficMode::HttpRoute)
        mutations.push_back(Mutation { MK::DeleteService, ns, m_plan.traffic.canaryService });
    return mutations;
}

std::vector<Mutation> RolloutMachine::draDeletions() const
{
    const std::string &ns = m_plan.baseline.ns;
    std::vector<Mutation> mutations;
    if (m_plan.negativeControl.enabled)
        mutations.push_back(Mutation { MK::DeleteClaim, ns, negativeControlClaimName() });
    mutations.push_back(Mutation { MK::DeleteClaimTemplate, ns, m_plan.variant.templateName });
    return mutations;
}

Decision RolloutMachine::rollbackStep(const RolloutState &state, const Command &command) const
{
    if (state.stage != Stage::RollingBack)
        return refuse("no rollback in progress");
    if (state.step == kRollbackDraining) {
        // Requests already sent to the canary finish before it goes.
        Decision decision = to(Stage::RollingBack, kRollbackReleasing);
        const int64_t drained = m_clock.nowMs() - state.stageEnteredAt;
        decision.requirements.push_back(Requirement {
            "the drain window (" + common::formatDuration(m_plan.rollback.drainMs) + ") has run",
            drained >= m_plan.rollback.drainMs,
            common::formatDuration(std::max<int64_t>(0, drained)) + " since traffic went back" });
        settle(decision);
        decision.mutations = canaryDeletions();
        return decision;
    }
    if (state.step == kRollbackReleasing) {
        // The template and the negative control go only once the canary's claims are released:
        // a claim still allocated keeps its devices from the baseline.
        Decision decision = to(Stage::RollingBack, kRollbackCleanedUp);
        // The command's fresh evidence, else the latest the state recorded.
        const GateResult *gate = nullptr;
        for (const GateResult &fresh : command.evidence)
            if (fresh.gate == GateKind::Rollback)
                gate = &fresh;
        if (!gate)
            if (const auto found = state.gates.find(GateKind::Rollback); found != state.gates.end())
                gate = &found->second;
        for (const char *check : { "canary removed", "claims released" }) {
            Requirement r { check, false, "the rollback gate has not been evaluated yet" };
            if (gate)
                for (const Check &c : gate->checks)
                    if (c.name == check) {
                        r.met = c.verdict == Verdict::Passed;
                        r.detail = c.evidence;
                    }
            decision.requirements.push_back(std::move(r));
        }
        settle(decision);
        decision.mutations = draDeletions();
        return decision;
    }
    return refuse("every step of the rollback is done");
}

Decision RolloutMachine::start(const RolloutState &state, const Command &command) const
{
    if (state.stage != Stage::Baseline && state.stage != Stage::RolledBack
        && state.stage != Stage::Aborted && state.stage != Stage::Rejected)
        return refuse(std::string("cannot start from ") + stageName(state.stage));
    Decision decision = to(Stage::Canary);
    if (state.stage == Stage::Rejected || command.variantRejected)
        decision.requirements.push_back(
            Requirement { "override of the rejection of variant " + m_plan.variant.name,
                command.overrideRejection,
                "the variant was rejected; start it again only with an explicit override" });
    decision.requirements.push_back(Requirement {
        "baseline Deployment " + m_plan.workloadKey() + " has replicas",
        command.baselineReplicas > 0, std::to_string(command.baselineReplicas) + " replica(s)" });
    // A restart after a rollback needs a fresh baseline: the old result belongs to that attempt.
    RolloutState fresh = state;
    if (state.stage != Stage::Baseline)
        fresh.gates.clear();
    requireGates(decision, fresh, command, { GateKind::Baseline });
    settle(decision);

    const std::string &ns = m_plan.baseline.ns;
    decision.mutations.push_back(
        Mutation { MK::CreateClaimTemplate, ns, m_plan.variant.templateName });
    decision.mutations.push_back(Mutation {
        MK::CreateCanaryDeployment, ns, m_plan.variant.deployment, m_plan.canary.replicas });
    // The route's canary backend: without it, weights and mirrors to the canary reach nobody.
    if (m_plan.traffic.mode == TrafficMode::HttpRoute)
        decision.mutations.push_back(
            Mutation { MK::CreateCanaryService, ns, m_plan.traffic.canaryService });
    if (m_plan.negativeControl.enabled)
        decision.mutations.push_back(
            Mutation { MK::CreateNegativeControlClaim, ns, negativeControlClaimName() });
    if (m_plan.traffic.mode == TrafficMode::HttpRoute) {
        // The canary answers synthetic checks only; users stay on the baseline.
        Mutation weights { MK::SetRouteWeights, ns, m_plan.traffic.route };
        weights.baselineWeight = 100;
        decision.mutations.push_back(weights);
    }
    return decision;
}

Decision RolloutMachine::promote(const RolloutState &state, const Command &command) const
{
    const std::string &ns = m_plan.baseline.ns;
    Decision decision;
    switch (state.stage) {
    case Stage::Canary:
        decision = m_plan.shadow.enabled ? to(Stage::Shadow) : to(Stage::Cutover, 0);
        break;
    case Stage::Shadow:
        decision = to(Stage::Cutover, 0);
        break;
    case Stage::Cutover:
        decision = state.step + 1 < int(m_plan.cutover.size()) ? to(Stage::Cutover, state.step + 1)
                                                               : to(Stage::Complete);
        break;
    case Stage::Paused:
        return refuse("the rollout is paused; resume it first");
    default:
        return refuse(std::string("nothing to promote to from ") + stageName(state.stage));
    }
    requireGates(decision, state, command, gatesToLeave(state.stage));
    requireWindow(decision, state);
    settle(decision);

    std::vector<Mutation> &m = decision.mutations;
    if (state.stage == Stage::Canary && m_plan.negativeControl.enabled)
        m.push_back(
            Mutation { MK::DeleteClaim, ns, negativeControlClaimName() }); // it has made its point
    if (decision.to == Stage::Shadow) {
        Mutation mirror { MK::SetRequestMirror, ns, m_plan.traffic.route };
        mirror.mirrorPercent = m_plan.traffic.mirrorPercent;
        m.push_back(mirror);
    }
    if (state.stage == Stage::Shadow)
        m.push_back(Mutation { MK::RemoveRequestMirror, ns, m_plan.traffic.route });
    if (decision.to == Stage::Cutover) {
        const std::vector<Mutation> step = stepMutations(decision.toStep, state.baselineReplicas);
        m.insert(m.end(), step.begin(), step.end());
    }
    if (decision.to == Stage::Complete)
        m.push_back(Mutation { MK::ScaleDeployment, ns, m_plan.baseline.deployment, 0 });
    return decision;
}

Decision RolloutMachine::decide(const RolloutState &state, const Command &command) const
{
    Decision decision = decideVerb(state, command);
    // A verb that is possible at all also answers to the plan's window and approvals (a refusal
    // without requirements is about the stage, and stays the answer).
    if (decision.allowed || !decision.requirements.empty()) {
        requireGovernance(decision, state, command);
        settle(decision);
    }
    return decision;
}

void RolloutMachine::requireGovernance(
    Decision &decision, const RolloutState &state, const Command &command) const
{
    // Who and when come before the evidence: the refusal names them first.
    std::vector<Requirement> first;
    if (std::optional<Requirement> window = windowRequirement(m_plan, command, m_clock.nowMs()))
        first.push_back(std::move(*window));
    if (std::optional<Requirement> approval = approvalRequirement(m_plan, state, command))
        first.push_back(std::move(*approval));
    decision.requirements.insert(decision.requirements.begin(),
        std::make_move_iterator(first.begin()), std::make_move_iterator(first.end()));
}

Decision RolloutMachine::decideVerb(const RolloutState &state, const Command &command) const
{
    const Stage stage = state.stage;
    switch (command.verb) {
    case Verb::Start:
        return start(state, command);
    case Verb::Promote:
        return promote(state, command);
    case Verb::Pause:
        if (!isActive(stage))
            return refuse(std::string("only a canary, shadow or cutover stage can be paused, not ")
                + stageName(stage));
        return to(Stage::Paused);
    case Verb::Resume:
        if (stage != Stage::Paused)
            return refuse(std::string("the rollout is not paused (") + stageName(stage) + ")");
        return to(state.pausedStage, state.pausedStep);
    case Verb::Abort: {
        if (stage == Stage::Baseline)
            return to(Stage::Aborted); // nothing changed in the cluster yet
        if (!isActive(stage) && stage != Stage::Paused && stage != Stage::Complete
            && stage != Stage::RollingBack)
            return refuse(std::string("nothing to roll back in ") + stageName(stage));
        if (stage == Stage::RollingBack) {
            // Aborting a rollback again forces every step at once (the mutations are
            // idempotent): the way out when claims are never released.
            Decision decision = to(Stage::RollingBack, kRollbackCleanedUp);
            decision.mutations = rollbackMutations(state);
            for (std::vector<Mutation> more : { canaryDeletions(), draDeletions() })
                decision.mutations.insert(decision.mutations.end(), more.begin(), more.end());
            return decision;
        }
        Decision decision = to(Stage::RollingBack, kRollbackDraining);
        decision.mutations = rollbackMutations(state);
        return decision;
    }
    case Verb::RetryGate:
        if (!command.gate)
            return refuse("name the gate to retry");
        if (isSettled(stage) || stage == Stage::Complete)
            return refuse(std::string("no gate to retry in ") + stageName(stage));
        return to(stage, state.step);
    case Verb::Finalise: {
        if (stage != Stage::Complete)
            return refuse(
                std::string("only a complete rollout can be finalised, not ") + stageName(stage));
        Decision decision = to(Stage::Finalised);
        decision.mutations.push_back(
            Mutation { MK::DeleteDeployment, m_plan.baseline.ns, m_plan.baseline.deployment });
        return decision;
    }
    case Verb::Reject: {
        const Mutation mark { MK::MarkVariantRejected, m_plan.workloadKey(), m_plan.variant.name };
        if (stage == Stage::Rejected || stage == Stage::Finalised)
            return refuse(std::string("cannot reject in ") + stageName(stage));
        if (stage == Stage::Baseline || stage == Stage::RolledBack || stage == Stage::Aborted) {
            Decision decision = to(Stage::Rejected);
            decision.mutations.push_back(mark);
            return decision;
        }
        // Still in the cluster: roll back first, and land in Rejected once verified.
        if (stage == Stage::RollingBack)
            return to(Stage::RollingBack, state.step);
        Decision decision = to(Stage::RollingBack, kRollbackDraining);
        decision.mutations = rollbackMutations(state);
        return decision;
    }
    case Verb::StopConditionFired: {
        if (!command.stopAction)
            return refuse("a stop condition needs its action");
        if (*command.stopAction == StopAction::Pause) {
            if (!isActive(stage))
                return refuse(std::string("a stop condition pauses only a running stage, not ")
                    + stageName(stage));
            return to(Stage::Paused);
        }
        if (!isActive(stage) && stage != Stage::Paused && stage != Stage::Complete)
            return refuse(std::string("a stop condition rolls back only a running rollout, not ")
                + stageName(stage));
        Decision decision = to(Stage::RollingBack, kRollbackDraining);
        decision.mutations = rollbackMutations(state);
        return decision;
    }
    case Verb::RollbackStep:
        return rollbackStep(state, command);
    case Verb::RollbackVerified: {
        if (stage != Stage::RollingBack)
            return refuse("no rollback in progress");
        // A rollback recorded before it had steps (step -1) did them all at once.
        if (state.step != kRollbackCleanedUp && state.step != -1)
            return refuse("the rollback has steps left");
        Decision decision = state.rejectAfterRollback ? to(Stage::Rejected) : to(Stage::RolledBack);
        requireGates(decision, state, command, { GateKind::Rollback });
        settle(decision);
        if (state.rejectAfterRollback)
            decision.mutations.push_back(
                Mutation { MK::MarkVariantRejected, m_plan.workloadKey(), m_plan.variant.name });
        return decision;
    }
    }
    return refuse("unknown verb");
}

void RolloutMachine::recordGate(RolloutState &state, GateResult result) const
{
    if (result.at == 0)
        result.at = m_clock.nowMs();
    state.gates[result.gate] = std::move(result);
}

Decision RolloutMachine::apply(RolloutState &state, const Command &command) const
{
    Decision decision = decide(state, command);
    if (!decision.allowed)
        return decision;
    const int64_t now = m_clock.nowMs();
    HistoryEntry entry { now, command.actor, command.verb, state.stage, decision.to, state.step,
        decision.toStep, command.reason };
    for (const Requirement &r : decision.requirements)
        if (r.noted && r.met)
            entry.note += (entry.note.empty() ? "" : "; ") + r.what + ": " + r.detail;

    const bool stageChanges = decision.to != state.stage || decision.toStep != state.step;
    if (command.verb == Verb::RetryGate) {
        state.gates.erase(*command.gate);
        ++state.gateRetries[*command.gate];
        entry.note
            += (entry.note.empty() ? "" : "; ") + std::string("retry ") + gateName(*command.gate);
    } else {
        for (const GateResult &fresh : command.evidence)
            recordGate(state, fresh);
    }
    switch (command.verb) {
    case Verb::Start:
        ++state.attempt;
        state.baselineReplicas = command.baselineReplicas;
        state.rejectAfterRollback = false;
        break;
    case Verb::Pause:
    case Verb::StopConditionFired:
        if (decision.to == Stage::Paused) {
            state.pausedStage = state.stage;
            state.pausedStep = state.step;
            state.pauseReason = command.reason;
        }
        break;
    case Verb::Reject:
        if (decision.to == Stage::RollingBack)
            state.rejectAfterRollback = true;
        break;
    default:
        break;
    }
    if (stageChanges) {
        // Evidence belongs to the stage it was gathered in; a paused stage keeps its own.
        if (decision.to != Stage::Paused) {
            state.gates.clear();
            state.gateRetries.clear();
        }
        if (decision.to != Stage::Paused)
            state.pauseReason.clear();
        state.stage = decision.to;
        state.step = decision.toStep;
        state.stageEnteredAt = now; // resuming restarts the window as well
    }
    state.history.push_back(std::move(entry));
    return decision;
}

} // namespace dra::rollout
