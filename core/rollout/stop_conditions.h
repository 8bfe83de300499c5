// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/rollout/rollout_plan.h"
#include "core/rollout/rollout_state.h"

namespace dra::rollout {

// What the controller tracks over time besides the gates' latest results.
struct StopObservation
{
    int64_t pendingSince
        = 0; // when the canary started waiting for its claim or pod (0: not waiting)
    int readinessFailuresInARow = 0; // failed readiness observations of canary pods, in a row
    std::optional<double> canaryErrorRate; // over the current window, 0..1
    int64_t claimsRemainingSince
        = 0; // RollingBack: since when the variant's claims are still there (0: gone)
};

// A stop condition of the plan that holds now, and why.
struct FiredStop
{
    StopCondition condition;
    std::string
        reason; // "PendingTooLong: waiting 6m (limit 5m): ResourceClaim ... is not allocated yet"
};

// The first of the plan's stop conditions (in plan order) that holds for `state` at `now`:
// PendingTooLong, WrongDeviceIdentity (a Failed identity check of the node gate),
// ReadinessFailures and ErrorRateAbove while a canary, shadow or cutover stage runs (paused
// stages included, so a rollback-on-stop still fires); ClaimNotReleased while rolling back.
// Pure; the controller turns the result into a StopConditionFired command (Pause or Rollback),
// except during RollingBack where it reports it (there is nothing to pause).
std::optional<FiredStop> firstStopCondition(const RolloutPlan &plan, const RolloutState &state,
    const StopObservation &observation, int64_t now);

} // namespace dra::rollout
