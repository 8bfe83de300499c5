// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/clock.h"
#include "core/rollout/gate_result.h"
#include "core/rollout/mutation.h"
#include "core/rollout/rollout_plan.h"
#include "core/rollout/rollout_state.h"

namespace dra::rollout {

// A verb or controller event with what it carries.
struct Command
{
    Verb verb = Verb::Promote;
    std::string actor; // who: the user name, or "controller"
    std::string reason; // free text, kept in the history and the audit log
    bool overrideRejection = false; // Start: start a rejected variant again
    bool acceptInconclusive
        = false; // Promote/Start: an Inconclusive gate counts as passed (recorded)
    bool force = false; // outside the plan's maintenance window (needs a reason; recorded)
    bool variantRejected = false; // Start: the state file lists this workload's variant as rejected
    int baselineReplicas = 0; // Start: the baseline's replicas now (what rollback restores)
    std::optional<GateKind> gate; // RetryGate
    std::optional<StopAction> stopAction; // StopConditionFired
    std::vector<GateResult> evidence; // fresh gate results, considered with the state's
};

// One precondition of a transition and whether it holds now.
struct Requirement
{
    std::string what; // "api gate Passed", "canary observed for 10m"
    bool met = false;
    std::string detail; // the gate's summary, the time left, ...
    bool noted = false; // kept in the history's note when met (an override, a second approval)
};

// What a command would do: allowed or not (and why not), the target stage, the preconditions
// it checked and the mutations it intends, in the order they must be applied.
// The steps of a rollback, kept in RolloutState::step while RollingBack, in the order the DRA
// rollout article gives: traffic back on the baseline, then the drain window for requests in
// flight; the canary deleted, until its claims are released; the DRA-side objects (template,
// negative-control claim) deleted, until the rollback gate verifies the cluster.
inline constexpr int kRollbackDraining = 0;
inline constexpr int kRollbackReleasing = 1;
inline constexpr int kRollbackCleanedUp = 2;

struct Decision
{
    bool allowed = false;
    std::string refusal;
    Stage to = Stage::Baseline;
    int toStep = -1;
    std::vector<Requirement> requirements;
    std::vector<Mutation> mutations;
};

// The rollout state machine: pure logic over a plan, a state and the injected clock. It
// decides; it performs nothing. Mutations are applied in order by the controller, which waits
// for each scaled Deployment to be Ready before the next mutation. The plan and the clock must
// outlive the machine. Any thread; stateless besides the references it holds.
class RolloutMachine final
{
public:
    RolloutMachine(const RolloutPlan &plan, const common::Clock &clock)
        : m_plan(plan)
        , m_clock(clock)
    {
    }

    // A new rollout of the plan, at Baseline.
    RolloutState initialState() const;

    // What `command` would do from `state`, without changing it.
    Decision decide(const RolloutState &state, const Command &command) const;

    // Decides and, when allowed, moves `state`: stage, step, windows, gates (the command's
    // evidence is recorded; results of a previous stage are dropped) and history.
    Decision apply(RolloutState &state, const Command &command) const;

    // Stores a gate result in the current stage (the controller's evaluations).
    void recordGate(RolloutState &state, GateResult result) const;

    // Verbs a user may give in `stage`, whatever the gates say (the buttons that are enabled).
    static std::vector<Verb> userVerbs(Stage stage);

    // The gates promotion out of `stage` needs.
    std::vector<GateKind> gatesToLeave(Stage stage) const;

    // Milliseconds of the current stage's observation window still to run (0 when elapsed or
    // the stage has none).
    int64_t windowRemaining(const RolloutState &state) const;

    // The rollback mutations for `state`: baseline scaled back first, then traffic, then the
    // canary, the negative control and the template removed.
    // The first step of a rollback: the baseline back to its replicas, traffic back on it.
    std::vector<Mutation> rollbackMutations(const RolloutState &state) const;
    // The later steps: the canary deleted; then the DRA-side objects.
    std::vector<Mutation> canaryDeletions() const;
    std::vector<Mutation> draDeletions() const;
    Decision rollbackStep(const RolloutState &state, const Command &command) const;

    std::string negativeControlClaimName() const { return m_plan.name + "-negative-control"; }

private:
    Decision decideVerb(const RolloutState &state, const Command &command) const;
    void requireGovernance(
        Decision &decision, const RolloutState &state, const Command &command) const;
    Decision start(const RolloutState &state, const Command &command) const;
    Decision promote(const RolloutState &state, const Command &command) const;
    std::vector<Mutation> stepMutations(int step, int baselineReplicas) const;
    void requireGates(Decision &decision, const RolloutState &state, const Command &command,
        const std::vector<GateKind> &gates) const;
    void requireWindow(Decision &decision, const RolloutState &state) const;
    int64_t windowOf(Stage stage, int step) const;

    const RolloutPlan &m_plan;
    const common::Clock &m_clock;
};

} // namespace dra::rollout
