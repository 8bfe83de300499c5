// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QString>

#include "core/alloc/diagnosis.h"
#include "core/alloc/simulation_cluster.h"
#include "core/common/result.h"
#include "core/inventory/snapshot.h"

namespace dra::views {

// The Pending diagnosis of claim `ns/name` in the snapshot (core/alloc, as `dractl explain
// claim` gives it), with the allocator's rules of the cluster's release. Any thread.
[[nodiscard]] Result<alloc::Diagnosis> diagnoseClaimIn(const inventory::SnapshotPtr &snapshot,
    const std::string &ns, const std::string &name, alloc::SimulationClusterCache &clusters);

// The chain as HTML for the inspector: each step with its status, who owns it and the events
// about it, the per-node explanation when the claim cannot be allocated, and the verdict.
QString diagnosisHtml(const alloc::Diagnosis &diagnosis);

} // namespace dra::views
