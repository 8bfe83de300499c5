// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The RolloutPlan the migration assistant writes for one workload: its Deployment as the
// baseline, its claim-template form as the variant, traffic through the HTTPRoute or Service
// that reaches it, and the default stages, gates and stop conditions. The same document
// `dractl rollout plan` validates.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/alloc/migration_plan.h"
#include "core/common/result.h"
#include "core/inventory/snapshot.h"

namespace dra::rollout {

// The plan named `name` for `migration`, validated by parsePlan() and written as planJson()
// writes it. Fails, saying why, when the workload is not a Deployment, has no claim-template
// form, or no Service selects its pods (traffic needs one to split).
[[nodiscard]] Result<nlohmann::json> migrationRolloutPlan(const inventory::Snapshot &snapshot,
    const alloc::WorkloadMigration &migration, const std::string &name);

} // namespace dra::rollout
