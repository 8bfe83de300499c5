// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A rollout as `dractl rollout status -o json` prints it and the web console's rollout pages
// show it: one function per document, so the page's figures are the command's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/rollout/audit_log.h"
#include "core/rollout/rollout_store.h"
#include "core/store/state_db.h"

namespace dra::rollout {

// One rollout: its state (stateJson), updatedAt, the verbs the state machine lets a user give
// now, and with `state` who drives it (controller: owner, pid, heartbeat, lease) and the verbs
// queued for that controller (pendingVerbs).
nlohmann::json rolloutStatusJson(const RolloutRecord &record, store::StateDb *state, int64_t now);

// {"rollouts": [rolloutStatusJson...]}, most recently updated first; an empty list when there is
// no state file yet (`state` null).
[[nodiscard]] Result<nlohmann::json> rolloutListJson(store::StateDb *state, int64_t now);

// rolloutStatusJson of rollout `id` with what its page shows besides: the timeline, the gate
// history, the plan, and the rollout's audit entries with the verification of the whole chain
// ("audit": {"entries", "verification"}), as the evidence bundle has them. nullopt when there is
// no such rollout.
[[nodiscard]] Result<std::optional<nlohmann::json>> rolloutDetailJson(
    store::StateDb &state, const std::string &id, int64_t now);

// {"intact", "entries", "headHash"[, "firstBrokenSeq", "reason"]}: `dractl rollout audit
// --verify -o json`.
nlohmann::json auditVerificationJson(const AuditVerification &verification);

} // namespace dra::rollout
