// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Starting a rollout, as `dractl rollout start` and the console's "Start from plan" both do it:
// the pre-flight against the cluster, then the rollout created at Baseline with that evidence
// and its start queued for the controller that carries it out.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <QObject>
#include <QString>

#include "core/common/clock.h"
#include "core/common/result.h"
#include "core/rollout/cluster_port.h"
#include "core/rollout/gate_result.h"
#include "core/rollout/rollout_plan.h"
#include "core/rollout/rollout_state.h"

namespace dra::rollout {

// Who starts a rollout, why, and what they accept.
struct StartRequest
{
    std::string actor; // for the history and the audit log
    std::string reason;
    bool overrideRejection = false; // start a variant that was rejected before
    bool acceptInconclusive = false; // an Inconclusive pre-flight counts as passed, as theirs
    bool force = false; // outside the plan's maintenance window (with a reason)
};

// What became of a start.
struct StartOutcome
{
    std::optional<GateResult> preflight; // the baseline gate, when the pre-flight ran
    // Why nothing was started: a rejected variant, a rollout of the plan already under way
    // (existingStage says where), an unreachable cluster, a pre-flight that did not pass.
    std::optional<common::Error> error;
    std::optional<Stage> existingStage; // the unsettled rollout of the plan's name, if any
    bool variantRejected = false; // refused: the variant was rejected before
    int64_t queued = 0; // the start's sequence number in the state file's inbox

    bool started() const { return !error.has_value(); }
};

// The pre-flight: the baseline gate of `plan` against the cluster now (DRA API served, baseline
// Ready, no node managed by both the device plugin and DRA). `done` is called once on the
// thread of `context`, unless `context` is gone by then.
void runPreflight(const RolloutPlan &plan, ClusterPort &cluster, common::Clock &clock,
    QObject *context, std::function<void(Result<GateResult>)> done);

// Whether a pre-flight result lets the start go on: Passed, or Inconclusive when accepted. The
// error says what did not pass and that nothing was changed.
[[nodiscard]] Result<void> preflightAllows(const GateResult &baseline, bool acceptInconclusive);

// Starts `plan`'s rollout in the state file at `statePath`: refuses a variant rejected before
// (unless overridden) and a rollout of the plan's name that is under way, without contacting
// the cluster; runs the pre-flight; when it allows, creates the rollout at Baseline with the
// pre-flight recorded (or reuses the one a refused start left there) and queues the Start verb.
// Nothing is written before the pre-flight passed. The controller that next ticks the rollout
// carries the start out. `done` on the thread of `context`, as runPreflight().
void startRollout(const QString &statePath, const RolloutPlan &plan, const StartRequest &request,
    ClusterPort &cluster, common::Clock &clock, QObject *context,
    std::function<void(StartOutcome)> done);

// The plan as a rollout stores it: planJson(), which parsePlan() reads back whole.
std::string storedPlanText(const RolloutPlan &plan);

} // namespace dra::rollout
