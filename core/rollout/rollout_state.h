// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/rollout/gate_result.h"

namespace dra::rollout {

// Where a rollout is. Baseline -> Canary -> Shadow -> Cutover (one step after another) ->
// Complete -> Finalised is the way forward; Paused holds any stage; RollingBack leads to
// RolledBack (or Rejected when the variant was rejected); Aborted is a stop before anything
// changed in the cluster.
enum class Stage {
    Baseline,
    Canary,
    Shadow,
    Cutover,
    Complete,
    Paused,
    RollingBack,
    RolledBack,
    Aborted,
    Rejected,
    Finalised,
};

// What moves a rollout: the user's verbs, and the controller's own events.
enum class Verb {
    Start,
    Promote,
    Pause,
    Resume,
    Abort,
    RetryGate,
    Finalise,
    Reject,
    StopConditionFired, // the controller saw a stop condition (its action decides pause or
                        // rollback)
    RollbackVerified, // the rollback gate passed: the cluster is back at the baseline
    RollbackStep, // the controller takes the next step of a rollback (rollout_machine.h)
};

const char *stageName(Stage stage);
const char *verbName(Verb verb);
std::optional<Stage> stageFromName(std::string_view name);
std::optional<Verb> verbFromName(std::string_view name);

// Nothing of the rollout remains to manage in the cluster (or it is finished): a new rollout of
// the same workload may begin.
bool isSettled(Stage stage);

// One transition, as the history keeps it.
struct HistoryEntry
{
    int64_t at = 0;
    std::string actor;
    Verb verb = Verb::Start;
    Stage from = Stage::Baseline, to = Stage::Baseline;
    int fromStep = -1, toStep = -1;
    std::string note; // reason given, stop condition, accepted inconclusive gates
};

// Everything the state file keeps about one rollout besides its plan.
struct RolloutState
{
    std::string id; // the plan's metadata.name
    std::string workload; // "namespace/deployment"
    std::string variant;
    Stage stage = Stage::Baseline;
    int step = -1; // cutover step index while in Cutover
    Stage pausedStage = Stage::Baseline; // what Paused will resume
    int pausedStep = -1;
    std::string pauseReason;
    int64_t createdAt = 0;
    int64_t stageEnteredAt = 0; // observation windows count from here
    int baselineReplicas = 0; // captured at start; what rollback restores
    int attempt = 0; // starts so far
    bool rejectAfterRollback = false;
    std::map<GateKind, GateResult> gates; // latest result per gate in the current stage
    std::map<GateKind, int> gateRetries; // retry-gate count per gate in the current stage
    std::vector<HistoryEntry> history;

    // The stage a paused rollout is in, otherwise `stage`.
    Stage effectiveStage() const { return stage == Stage::Paused ? pausedStage : stage; }
};

nlohmann::json stateJson(const RolloutState &state);
// Reads what stateJson wrote; nullopt (with `error` set) for anything else.
std::optional<RolloutState> stateFromJson(const nlohmann::json &json, std::string *error = nullptr);

} // namespace dra::rollout
