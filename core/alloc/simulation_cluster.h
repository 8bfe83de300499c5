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
#include "core/release/kubernetes_release.h"

namespace dra::alloc {

// What the user asked of the release to simulate; an empty field keeps the default.
struct ReleaseChoice
{
    std::string kubernetesVersion; // "1.33" or "v1.33.2" instead of the cluster's own
    std::string featureGates; // kube-scheduler's --feature-gates over the release's defaults

    bool operator==(const ReleaseChoice &) const = default;
};

// The release a simulation follows (the same KubernetesRelease the CEL environment and the
// checks take), and where that choice came from.
struct SimulationRelease : release::KubernetesRelease
{
    // "Kubernetes v1.34.2" (the cluster's), "Kubernetes 1.33 (as asked)", or "the newest
    // release, Kubernetes 1.36" when the cluster's version is not known.
    std::string from;
};

// The release of a cluster that reported `recordedVersion` ("" when unknown): the chosen
// version (release::KubernetesRelease::parse()), else the recorded one, else the newest release
// this build knows; its default gates with the chosen ones applied as kube-scheduler applies
// --feature-gates. Fails on a chosen version that is not a modelled 1.x, and on gates
// Kubernetes would refuse (unknown, locked). Any thread.
[[nodiscard]] Result<SimulationRelease> simulationRelease(
    std::string_view recordedVersion, const ReleaseChoice &choice = {});

// The allocator's inventory of one cluster and the release it is simulated under.
struct SimulationCluster
{
    std::shared_ptr<const Cluster> cluster;
    SimulationRelease release;
};

// Indexes what the allocator and the Pending diagnosis read from `snapshot` (Nodes,
// DeviceClasses, every ResourceSlice of every generation, ResourceClaims and templates,
// DeviceTaintRules, Pods, Events) under simulationRelease() of the snapshot's recorded version.
// The snapshot's objects are shared, not copied. Fails when a stored slice no longer decodes,
// or on a bad choice. Any thread.
[[nodiscard]] Result<SimulationCluster> simulationCluster(
    const inventory::Snapshot &snapshot, const ReleaseChoice &choice = {});

// simulationCluster() of the latest snapshot asked for, built once per snapshot revision and
// choice and shared by every check of it (each keystroke of the editor). Thread-safe.
class SimulationClusterCache final
{
public:
    [[nodiscard]] Result<SimulationCluster> of(
        const inventory::SnapshotPtr &snapshot, const ReleaseChoice &choice = {});

private:
    std::mutex m_mutex;
    std::string m_cluster, m_version;
    int64_t m_rev = -1;
    ReleaseChoice m_choice;
    std::optional<SimulationCluster> m_built;
};

} // namespace dra::alloc
