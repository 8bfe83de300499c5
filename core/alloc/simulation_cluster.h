// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What every allocation answer starts from: the allocator's index of a cluster's inventory and
// the Kubernetes release whose rules it follows. The desktop, `dractl`, the rollout evidence
// and the demo cluster's scheduler all build it here, so the same cache gives the same answer
// in each of them.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "core/alloc/cluster.h"
#include "core/common/result.h"
#include "core/inventory/snapshot.h"
#include "core/release/release_choice.h"

namespace dra::alloc {

// The allocator's inventory of one cluster and the release it is simulated under.
struct SimulationCluster
{
    std::shared_ptr<const Cluster> cluster;
    release::ChosenRelease release;
};

// Indexes what the allocator and the Pending diagnosis read from `snapshot` (Nodes,
// DeviceClasses, every ResourceSlice of every generation, ResourceClaims and templates,
// DeviceTaintRules, Pods, Events) to be simulated under `release`. The snapshot's objects are
// shared, not copied. Fails when a stored slice no longer decodes. Any thread.
[[nodiscard]] Result<SimulationCluster> simulationCluster(
    const inventory::Snapshot &snapshot, release::ChosenRelease release);
// The same with `extra` objects beside the snapshot's (DeviceClasses a proposal would create).
[[nodiscard]] Result<SimulationCluster> simulationCluster(const inventory::Snapshot &snapshot,
    release::ChosenRelease release, std::vector<model::Object> extra);
// The same under release::chooseRelease() of the snapshot's recorded version and `choice`;
// also fails on a bad choice.
[[nodiscard]] Result<SimulationCluster> simulationCluster(
    const inventory::Snapshot &snapshot, const release::ReleaseChoice &choice = {});

// simulationCluster() of the latest snapshot asked for, built once per snapshot revision and
// release and shared by every check of it (each keystroke of the editor). Thread-safe.
class SimulationClusterCache final
{
public:
    [[nodiscard]] Result<SimulationCluster> of(
        const inventory::SnapshotPtr &snapshot, const release::ChosenRelease &release);
    // In the release chooseRelease() picks from the snapshot's recorded version and `choice`.
    [[nodiscard]] Result<SimulationCluster> of(
        const inventory::SnapshotPtr &snapshot, const release::ReleaseChoice &choice = {});

private:
    std::mutex m_mutex;
    std::string m_cluster, m_version;
    int64_t m_rev = -1;
    std::optional<SimulationCluster> m_built;
};

} // namespace dra::alloc
