// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/stop_conditions.h"

#include <gtest/gtest.h>

#include "tests/support/rollout_fixtures.h"

using namespace dra::rollout;

namespace {

RolloutState inStage(Stage stage)
{
    RolloutState state;
    state.stage = stage;
    return state;
}

} // namespace

TEST(StopConditionsTest, NothingFiresOnAHealthyCanary)
{
    const RolloutPlan plan = test::examplePlan();
    EXPECT_FALSE(firstStopCondition(plan, inStage(Stage::Canary), StopObservation {}, 1'000'000));
}

TEST(StopConditionsTest, PendingTooLongNamesWhatItWaitsFor)
{
    const RolloutPlan plan = test::examplePlan(); // PendingTooLong after 5m -> Pause
    RolloutState state = inStage(Stage::Canary);
    state.gates[GateKind::Api] = gateResult(GateKind::Api,
        { Check { "claim gpu allocated", Verdict::Inconclusive,
            "ResourceClaim inference/c is not allocated yet" } });
    StopObservation observation;
    observation.pendingSince = 1'000'000;
    EXPECT_FALSE(firstStopCondition(plan, state, observation, 1'000'000 + 4 * 60'000));
    const std::optional<FiredStop> fired
        = firstStopCondition(plan, state, observation, 1'000'000 + 6 * 60'000);
    ASSERT_TRUE(fired);
    EXPECT_EQ(fired->condition.action, StopAction::Pause);
    EXPECT_EQ(fired->reason,
        "PendingTooLong: waiting 6m (limit 5m): ResourceClaim inference/c is not allocated yet");
}

TEST(StopConditionsTest, WrongIdentityRollsBackButAnUnverifiedOneDoesNot)
{
    const RolloutPlan plan = test::examplePlan();
    RolloutState state = inStage(Stage::Cutover);
    state.gates[GateKind::Node] = gateResult(GateKind::Node,
        { Check { "device gpu.nvidia.com/node-a/gpu-0 identity", Verdict::Inconclusive,
            "not published" } });
    EXPECT_FALSE(firstStopCondition(plan, state, StopObservation {}, 0))
        << "Inconclusive is not wrong";
    state.gates[GateKind::Node].checks[0].verdict = Verdict::Failed;
    state.gates[GateKind::Node].checks[0].evidence
        = "the pod got GPU-b but the ResourceSlice publishes GPU-a";
    const std::optional<FiredStop> fired = firstStopCondition(plan, state, StopObservation {}, 0);
    ASSERT_TRUE(fired);
    EXPECT_EQ(fired->condition.action, StopAction::Rollback);
    EXPECT_EQ(fired->reason,
        "WrongDeviceIdentity: the pod got GPU-b but the ResourceSlice publishes GPU-a");
}

TEST(StopConditionsTest, ReadinessErrorRateAndRelease)
{
    const RolloutPlan plan
        = test::examplePlan(); // ReadinessFailures 3, ErrorRateAbove 0.02, ClaimNotReleased 2m
    StopObservation observation;
    observation.readinessFailuresInARow = 3;
    std::optional<FiredStop> fired
        = firstStopCondition(plan, inStage(Stage::Shadow), observation, 0);
    ASSERT_TRUE(fired);
    EXPECT_EQ(fired->condition.type, StopCondition::Type::ReadinessFailures);

    observation = StopObservation {};
    observation.canaryErrorRate = 0.03;
    RolloutState paused = inStage(Stage::Paused);
    paused.pausedStage = Stage::Cutover;
    fired = firstStopCondition(plan, paused, observation, 0);
    ASSERT_TRUE(fired) << "a paused stage still rolls back when its error rate climbs";
    EXPECT_EQ(fired->reason, "ErrorRateAbove: canary error rate 3.00% above 2.00%");

    observation = StopObservation {};
    observation.claimsRemainingSince = 10'000;
    EXPECT_FALSE(
        firstStopCondition(plan, inStage(Stage::Canary), observation, 10'000 + 3 * 60'000));
    fired = firstStopCondition(plan, inStage(Stage::RollingBack), observation, 10'000 + 3 * 60'000);
    ASSERT_TRUE(fired);
    EXPECT_EQ(fired->reason, "ClaimNotReleased: the variant's claims are still there after 3m");
    EXPECT_FALSE(
        firstStopCondition(plan, inStage(Stage::RolledBack), observation, 10'000 + 3 * 60'000));
}
