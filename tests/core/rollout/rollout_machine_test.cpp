// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/rollout_machine.h"

#include <gtest/gtest.h>

#include "tests/support/rollout_fixtures.h"

using namespace dra::rollout;
using Kind = Mutation::Kind;

namespace {

GateResult verdict(GateKind gate, Verdict v, std::string evidence)
{
    return gateResult(gate, { Check { "fixture", v, std::move(evidence) } });
}

class RolloutMachineTest : public testing::Test
{
protected:
    RolloutMachineTest()
        : m_plan(test::examplePlan())
        , m_machine(m_plan, m_clock)
        , m_state(m_machine.initialState())
    {
    }

    Command command(Verb verb)
    {
        Command c;
        c.verb = verb;
        c.actor = "alice";
        return c;
    }

    Decision startCanary()
    {
        Command start = command(Verb::Start);
        start.baselineReplicas = 8;
        start.evidence = { test::passedGate(GateKind::Baseline) };
        return m_machine.apply(m_state, start);
    }

    // Promotes with every gate passed after the stage's window.
    Decision promoteAfterWindow()
    {
        m_clock.advance(m_machine.windowRemaining(m_state));
        Command promote = command(Verb::Promote);
        for (GateKind gate : m_machine.gatesToLeave(m_state.stage))
            promote.evidence.push_back(test::passedGate(gate));
        return m_machine.apply(m_state, promote);
    }

    // Takes a rollback through its steps as the controller does: the canary goes after the
    // drain window, the DRA-side objects once its claims are released.
    void walkRollbackSteps()
    {
        m_clock.advance(m_plan.rollback.drainMs);
        Command step = command(Verb::RollbackStep);
        step.actor = "controller";
        ASSERT_TRUE(m_machine.apply(m_state, step).allowed);
        step.evidence = { gateResult(GateKind::Rollback,
            { Check { "canary removed", Verdict::Passed, "no canary Deployment or pods" },
                Check {
                    "claims released", Verdict::Passed, "no claim of the variant is left" } }) };
        ASSERT_TRUE(m_machine.apply(m_state, step).allowed);
    }

    dra::common::ManualClock m_clock;
    RolloutPlan m_plan;
    RolloutMachine m_machine;
    RolloutState m_state;
};

} // namespace

TEST_F(RolloutMachineTest, WalksTheWholeWayToFinalised)
{
    EXPECT_EQ(m_state.stage, Stage::Baseline);
    const Decision start = startCanary();
    ASSERT_TRUE(start.allowed) << start.refusal;
    EXPECT_EQ(m_state.stage, Stage::Canary);
    EXPECT_EQ(m_state.attempt, 1);
    ASSERT_EQ(start.mutations.size(), 5u);
    EXPECT_EQ(start.mutations[0].kind, Kind::CreateClaimTemplate);
    EXPECT_EQ(start.mutations[1],
        (Mutation { Kind::CreateCanaryDeployment, "inference", "llm-server-dra", 1 }));
    EXPECT_EQ(start.mutations[2].describe(),
        "create Service inference/llm-server-dra in front of the canary's pods");
    EXPECT_EQ(start.mutations[3].kind, Kind::CreateNegativeControlClaim);
    EXPECT_EQ(start.mutations[4].describe(),
        "set HTTPRoute inference/llm-server weights baseline 100 / canary 0");

    const Decision shadow = promoteAfterWindow();
    ASSERT_TRUE(shadow.allowed) << shadow.refusal;
    EXPECT_EQ(m_state.stage, Stage::Shadow);
    ASSERT_EQ(shadow.mutations.size(), 2u);
    EXPECT_EQ(shadow.mutations[0].kind, Kind::DeleteClaim)
        << "the negative control has made its point";
    EXPECT_EQ(shadow.mutations[1].kind, Kind::SetRequestMirror);
    EXPECT_EQ(shadow.mutations[1].mirrorPercent, 100);

    const Decision first = promoteAfterWindow();
    ASSERT_TRUE(first.allowed) << first.refusal;
    EXPECT_EQ(m_state.stage, Stage::Cutover);
    EXPECT_EQ(m_state.step, 0);
    ASSERT_EQ(first.mutations.size(), 3u);
    EXPECT_EQ(first.mutations[0].kind, Kind::RemoveRequestMirror);
    EXPECT_EQ(first.mutations[1].describe(), "scale Deployment inference/llm-server-dra to 1");
    EXPECT_EQ(first.mutations[2].describe(),
        "set HTTPRoute inference/llm-server weights baseline 95 / canary 5");

    for (int step = 1; step < 4; ++step) {
        const Decision next = promoteAfterWindow();
        ASSERT_TRUE(next.allowed) << next.refusal;
        EXPECT_EQ(m_state.step, step);
    }
    EXPECT_EQ(m_state.history.back().toStep, 3);

    const Decision complete = promoteAfterWindow();
    ASSERT_TRUE(complete.allowed) << complete.refusal;
    EXPECT_EQ(m_state.stage, Stage::Complete);
    ASSERT_EQ(complete.mutations.size(), 1u);
    EXPECT_EQ(complete.mutations[0].describe(), "scale Deployment inference/llm-server to 0");

    const Decision finalise = m_machine.apply(m_state, command(Verb::Finalise));
    ASSERT_TRUE(finalise.allowed);
    EXPECT_EQ(m_state.stage, Stage::Finalised);
    EXPECT_EQ(finalise.mutations[0].describe(), "delete Deployment inference/llm-server");
    EXPECT_TRUE(RolloutMachine::userVerbs(m_state.stage).empty());
    EXPECT_EQ(m_state.history.size(), 8u);
}

TEST_F(RolloutMachineTest, StartNeedsAPassedBaselineAndReplicas)
{
    Command start = command(Verb::Start);
    start.baselineReplicas = 8;
    Decision decision = m_machine.apply(m_state, start);
    EXPECT_FALSE(decision.allowed);
    EXPECT_EQ(decision.refusal, "baseline gate Passed (not evaluated yet)");
    EXPECT_EQ(m_state.stage, Stage::Baseline) << "a refused verb changes nothing";

    start.evidence = { verdict(GateKind::Baseline, Verdict::Failed, "both manage GPUs on node-a") };
    decision = m_machine.apply(m_state, start);
    EXPECT_FALSE(decision.allowed);
    EXPECT_NE(decision.refusal.find("both manage GPUs on node-a"), std::string::npos);

    start.evidence = { test::passedGate(GateKind::Baseline) };
    start.baselineReplicas = 0;
    EXPECT_FALSE(m_machine.apply(m_state, start).allowed);
}

TEST_F(RolloutMachineTest, PromotionWaitsForGatesAndTheWindow)
{
    ASSERT_TRUE(startCanary().allowed);
    Command promote = command(Verb::Promote);
    promote.evidence = { test::passedGate(GateKind::Api), test::passedGate(GateKind::Node),
        test::passedGate(GateKind::Application), test::passedGate(GateKind::NegativeControl) };
    Decision early = m_machine.decide(m_state, promote);
    EXPECT_FALSE(early.allowed);
    EXPECT_EQ(early.refusal, "Canary observed for 10m (10m left)");

    m_clock.advance(4 * 60'000);
    EXPECT_EQ(m_machine.windowRemaining(m_state), 6 * 60'000);
    m_clock.advance(6 * 60'000);
    promote.evidence[1]
        = verdict(GateKind::Node, Verdict::Inconclusive, "the driver publishes no device status");
    Decision inconclusive = m_machine.decide(m_state, promote);
    EXPECT_FALSE(inconclusive.allowed) << "Inconclusive is never taken as passed";
    EXPECT_NE(inconclusive.refusal.find("node gate Passed"), std::string::npos);

    promote.acceptInconclusive = true;
    const Decision accepted = m_machine.apply(m_state, promote);
    ASSERT_TRUE(accepted.allowed) << accepted.refusal;
    EXPECT_NE(
        m_state.history.back().note.find("accepted as Inconclusive by alice"), std::string::npos);

    m_clock.advance(60 * 60'000);
    Command failing = command(Verb::Promote);
    failing.acceptInconclusive = true;
    failing.evidence = { test::passedGate(GateKind::Api), test::passedGate(GateKind::Node),
        verdict(GateKind::Application, Verdict::Failed, "error rate 4%") };
    EXPECT_FALSE(m_machine.decide(m_state, failing).allowed) << "a failed gate is never accepted";
}

TEST_F(RolloutMachineTest, IllegalVerbsAreRefusedWithAReason)
{
    struct Case
    {
        Verb verb;
        std::string refusal;
    };
    for (const Case &c : { Case { Verb::Promote, "nothing to promote to from Baseline" },
             Case { Verb::Pause,
                 "only a canary, shadow or cutover stage can be paused, not Baseline" },
             Case { Verb::Resume, "the rollout is not paused (Baseline)" },
             Case { Verb::Finalise, "only a complete rollout can be finalised, not Baseline" },
             Case { Verb::RollbackVerified, "no rollback in progress" } }) {
        const Decision decision = m_machine.apply(m_state, command(c.verb));
        EXPECT_FALSE(decision.allowed) << verbName(c.verb);
        EXPECT_EQ(decision.refusal, c.refusal);
    }
    EXPECT_TRUE(m_state.history.empty());
    ASSERT_TRUE(startCanary().allowed);
    EXPECT_EQ(m_machine.decide(m_state, command(Verb::Start)).refusal, "cannot start from Canary");
}

TEST_F(RolloutMachineTest, PauseHoldsTheStageAndResumeRestartsTheWindow)
{
    ASSERT_TRUE(startCanary().allowed);
    m_clock.advance(9 * 60'000);
    Command pause = command(Verb::Pause);
    pause.reason = "waiting for the on-call";
    ASSERT_TRUE(m_machine.apply(m_state, pause).allowed);
    EXPECT_EQ(m_state.stage, Stage::Paused);
    EXPECT_EQ(m_state.effectiveStage(), Stage::Canary);
    EXPECT_EQ(m_state.pauseReason, "waiting for the on-call");
    EXPECT_EQ(m_machine.decide(m_state, command(Verb::Promote)).refusal,
        "the rollout is paused; resume it first");

    m_clock.advance(60 * 60'000);
    const Decision resume = m_machine.apply(m_state, command(Verb::Resume));
    ASSERT_TRUE(resume.allowed);
    EXPECT_TRUE(resume.mutations.empty());
    EXPECT_EQ(m_state.stage, Stage::Canary);
    EXPECT_EQ(m_machine.windowRemaining(m_state), 10 * 60'000)
        << "the window starts over after a pause";
    EXPECT_TRUE(m_state.pauseReason.empty());
}

TEST_F(RolloutMachineTest, AbortRollsBackStepByStepUntilVerified)
{
    ASSERT_TRUE(startCanary().allowed);
    ASSERT_TRUE(promoteAfterWindow().allowed);
    ASSERT_TRUE(promoteAfterWindow().allowed); // cutover 5%
    const auto described = [](const Decision &decision) {
        std::vector<std::string> steps;
        for (const Mutation &m : decision.mutations)
            steps.push_back(m.describe());
        return steps;
    };
    // First traffic back on the baseline.
    const Decision abort = m_machine.apply(m_state, command(Verb::Abort));
    ASSERT_TRUE(abort.allowed);
    EXPECT_EQ(m_state.stage, Stage::RollingBack);
    EXPECT_EQ(m_state.step, kRollbackDraining);
    EXPECT_EQ(described(abort),
        (std::vector<std::string> { "scale Deployment inference/llm-server to 8",
            "remove the mirror from HTTPRoute inference/llm-server",
            "set HTTPRoute inference/llm-server weights baseline 100 / canary 0" }));

    // The canary goes once the drain window has run.
    Command step = command(Verb::RollbackStep);
    step.actor = "controller";
    EXPECT_EQ(m_machine.decide(m_state, step).refusal,
        "the drain window (30s) has run (0s since traffic went back)");
    m_clock.advance(30'000);
    const Decision canaryGone = m_machine.apply(m_state, step);
    ASSERT_TRUE(canaryGone.allowed);
    EXPECT_EQ(m_state.step, kRollbackReleasing);
    EXPECT_EQ(described(canaryGone),
        (std::vector<std::string> { "delete Deployment inference/llm-server-dra",
            "delete Service inference/llm-server-dra" }));

    // The template and the negative control once the canary's claims are released.
    step.evidence = { gateResult(GateKind::Rollback,
        { Check { "canary removed", Verdict::Passed, "no canary Deployment or pods" },
            Check { "claims released", Verdict::Inconclusive,
                "still present: inference/llm-server-dra-0-gpu" } }) };
    EXPECT_EQ(m_machine.decide(m_state, step).refusal,
        "claims released (still present: inference/llm-server-dra-0-gpu)");
    Command verified = command(Verb::RollbackVerified);
    verified.actor = "controller";
    verified.evidence = { test::passedGate(GateKind::Rollback) };
    EXPECT_EQ(m_machine.decide(m_state, verified).refusal, "the rollback has steps left");
    step.evidence[0].checks[1] = Check { "claims released", Verdict::Passed, "none left" };
    const Decision draGone = m_machine.apply(m_state, step);
    ASSERT_TRUE(draGone.allowed);
    EXPECT_EQ(described(draGone),
        (std::vector<std::string> {
            "delete ResourceClaim inference/llm-server-to-dra-negative-control",
            "delete ResourceClaimTemplate inference/llm-server-h100" }));
    EXPECT_FALSE(m_machine.decide(m_state, step).allowed) << "no step is left";
    // Each step is in the history with what it waited for.
    EXPECT_EQ(m_state.history.back().verb, Verb::RollbackStep);

    verified.evidence
        = { verdict(GateKind::Rollback, Verdict::Inconclusive, "claims still present") };
    EXPECT_FALSE(m_machine.apply(m_state, verified).allowed);
    verified.evidence = { test::passedGate(GateKind::Rollback) };
    ASSERT_TRUE(m_machine.apply(m_state, verified).allowed);
    EXPECT_EQ(m_state.stage, Stage::RolledBack);

    // A second attempt needs a fresh baseline, not the one of the first attempt.
    Command again = command(Verb::Start);
    again.baselineReplicas = 8;
    EXPECT_FALSE(m_machine.decide(m_state, again).allowed);
    ASSERT_TRUE(startCanary().allowed);
    EXPECT_EQ(m_state.attempt, 2);
}

// Aborting a rollback again forces every step at once: the way out when claims never go.
TEST_F(RolloutMachineTest, AbortingARollbackAgainTakesEveryStepAtOnce)
{
    ASSERT_TRUE(startCanary().allowed);
    ASSERT_TRUE(m_machine.apply(m_state, command(Verb::Abort)).allowed);
    const Decision forced = m_machine.apply(m_state, command(Verb::Abort));
    ASSERT_TRUE(forced.allowed);
    EXPECT_EQ(m_state.step, kRollbackCleanedUp);
    EXPECT_EQ(forced.mutations.size(), 7u);
    EXPECT_EQ(forced.mutations.back().kind, Kind::DeleteClaimTemplate);
}

TEST_F(RolloutMachineTest, AbortBeforeStartChangesNothingInTheCluster)
{
    const Decision abort = m_machine.apply(m_state, command(Verb::Abort));
    ASSERT_TRUE(abort.allowed);
    EXPECT_EQ(m_state.stage, Stage::Aborted);
    EXPECT_TRUE(abort.mutations.empty());
}

TEST_F(RolloutMachineTest, RejectNeedsAnExplicitOverrideToStartAgain)
{
    ASSERT_TRUE(startCanary().allowed);
    const Decision reject = m_machine.apply(m_state, command(Verb::Reject));
    ASSERT_TRUE(reject.allowed);
    EXPECT_EQ(m_state.stage, Stage::RollingBack)
        << "a running variant is rolled back before it is rejected";
    EXPECT_FALSE(reject.mutations.empty());
    walkRollbackSteps();
    Command verified = command(Verb::RollbackVerified);
    verified.evidence = { test::passedGate(GateKind::Rollback) };
    const Decision landed = m_machine.apply(m_state, verified);
    ASSERT_TRUE(landed.allowed);
    EXPECT_EQ(m_state.stage, Stage::Rejected);
    ASSERT_EQ(landed.mutations.size(), 1u);
    EXPECT_EQ(landed.mutations[0].kind, Kind::MarkVariantRejected);

    Command start = command(Verb::Start);
    start.baselineReplicas = 8;
    start.evidence = { test::passedGate(GateKind::Baseline) };
    const Decision refused = m_machine.decide(m_state, start);
    EXPECT_FALSE(refused.allowed);
    EXPECT_NE(refused.refusal.find("override of the rejection of variant h100-single"),
        std::string::npos);
    start.overrideRejection = true;
    ASSERT_TRUE(m_machine.apply(m_state, start).allowed);
    EXPECT_EQ(m_state.stage, Stage::Canary);
}

TEST_F(RolloutMachineTest, ARejectedVariantIsRefusedForANewRolloutToo)
{
    Command start = command(Verb::Start);
    start.baselineReplicas = 2;
    start.evidence = { test::passedGate(GateKind::Baseline) };
    start.variantRejected = true;
    EXPECT_FALSE(m_machine.decide(m_state, start).allowed);
    start.overrideRejection = true;
    EXPECT_TRUE(m_machine.decide(m_state, start).allowed);
}

TEST_F(RolloutMachineTest, StopConditionsPauseOrRollBack)
{
    ASSERT_TRUE(startCanary().allowed);
    Command stop = command(Verb::StopConditionFired);
    stop.actor = "controller";
    stop.reason = "PendingTooLong: claim not allocated after 5m";
    stop.stopAction = StopAction::Pause;
    ASSERT_TRUE(m_machine.apply(m_state, stop).allowed);
    EXPECT_EQ(m_state.stage, Stage::Paused);
    EXPECT_EQ(m_state.pauseReason, stop.reason);
    EXPECT_FALSE(m_machine.decide(m_state, stop).allowed) << "already paused";

    stop.stopAction = StopAction::Rollback;
    const Decision rollback = m_machine.apply(m_state, stop);
    ASSERT_TRUE(rollback.allowed);
    EXPECT_EQ(m_state.stage, Stage::RollingBack);
    EXPECT_EQ(rollback.mutations.front().describe(), "scale Deployment inference/llm-server to 8");
}

TEST_F(RolloutMachineTest, RetryGateForgetsTheResultAndCounts)
{
    ASSERT_TRUE(startCanary().allowed);
    m_machine.recordGate(m_state, verdict(GateKind::Node, Verdict::Failed, "prepare failed"));
    Command retry = command(Verb::RetryGate);
    EXPECT_FALSE(m_machine.decide(m_state, retry).allowed) << "the gate must be named";
    retry.gate = GateKind::Node;
    const Decision decision = m_machine.apply(m_state, retry);
    ASSERT_TRUE(decision.allowed);
    EXPECT_EQ(m_state.stage, Stage::Canary);
    EXPECT_EQ(m_state.gates.count(GateKind::Node), 0u);
    EXPECT_EQ(m_state.gateRetries[GateKind::Node], 1);
}

TEST(RolloutMachineReplicaRatioTest, CutoverMovesReplicasInsteadOfWeights)
{
    RolloutPlan plan = test::examplePlan();
    plan.traffic = Traffic { TrafficMode::ReplicaRatio, "", "", "", "llm-server" };
    plan.shadow.enabled = false;
    plan.negativeControl.enabled = false;
    dra::common::ManualClock clock;
    const RolloutMachine machine(plan, clock);
    RolloutState state = machine.initialState();
    Command start { Verb::Start, "bob" };
    start.baselineReplicas = 4;
    start.evidence = { test::passedGate(GateKind::Baseline) };
    const Decision started = machine.apply(state, start);
    ASSERT_TRUE(started.allowed);
    EXPECT_EQ(started.mutations.size(), 2u) << "no route to set, no negative control";

    clock.advance(machine.windowRemaining(state));
    Command promote { Verb::Promote, "bob" };
    promote.evidence = { test::passedGate(GateKind::Api), test::passedGate(GateKind::Node),
        test::passedGate(GateKind::Application) };
    const Decision first = machine.apply(state, promote);
    ASSERT_TRUE(first.allowed) << first.refusal;
    EXPECT_EQ(state.stage, Stage::Cutover) << "shadow is skipped without a mirror";
    ASSERT_EQ(first.mutations.size(), 2u);
    EXPECT_EQ(first.mutations[0].describe(), "scale Deployment inference/llm-server-dra to 1");
    EXPECT_EQ(first.mutations[1].describe(), "scale Deployment inference/llm-server to 3");

    for (int step = 1; step < 4; ++step) {
        clock.advance(machine.windowRemaining(state));
        promote.evidence = { test::passedGate(GateKind::Api), test::passedGate(GateKind::Node),
            test::passedGate(GateKind::Application) };
        ASSERT_TRUE(machine.apply(state, promote).allowed);
    }
    EXPECT_EQ(state.step, 3);
    EXPECT_EQ(state.history.back().to, Stage::Cutover);
}

TEST(RolloutStateTest, JsonRoundTripKeepsEverything)
{
    RolloutState state;
    state.id = "r";
    state.workload = "ns/d";
    state.stage = Stage::Paused;
    state.pausedStage = Stage::Cutover;
    state.pausedStep = 2;
    state.baselineReplicas = 5;
    state.gates[GateKind::Node] = verdict(GateKind::Node, Verdict::Inconclusive, "no status");
    state.gateRetries[GateKind::Api] = 2;
    state.history.push_back(
        HistoryEntry { 7, "alice", Verb::Pause, Stage::Cutover, Stage::Paused, 2, -1, "lunch" });
    std::string error;
    const std::optional<RolloutState> back = stateFromJson(stateJson(state), &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(stateJson(*back), stateJson(state));
    EXPECT_FALSE(stateFromJson(nlohmann::json { { "id", "x" }, { "stage", "Sideways" } }, &error));
    EXPECT_EQ(error, "unknown stage \"Sideways\"");
}
