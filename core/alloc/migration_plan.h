// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The migration assistant: every workload that still asks a device plugin for its devices,
// the DRA form proposed for it under the cluster's release, and whether that form would be
// allocated on the cluster's DRA nodes as the scheduler would do it, or why not.
// `dractl migrate plan`, the console API's `migration` and the web console's Migration page
// show this one answer.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/alloc/legacy_workloads.h"
#include "core/alloc/migration_proposal.h"
#include "core/alloc/simulation_cluster.h"

namespace dra::alloc {

// What the simulator says of a proposal: do all replicas get devices, and where.
struct MigrationVerdict
{
    bool fits = false;
    int replicas = 0; // pods simulated (at least one)
    int placed = 0; // of them, pods whose claim was allocated
    std::map<std::string, int> nodes; // node -> pods placed there
    std::string reason; // why not (or what limited the nodes), a sentence
    std::string error; // the allocator's error, when it gave one
    nlohmann::json explanation = nlohmann::json::array(); // per node, closest first
};

struct WorkloadMigration
{
    LegacyWorkload workload;
    MigrationProposal proposal;
    // The claim-template form too when the proposal is the extended-resource class: a
    // RolloutPlan moves a workload through a template.
    std::optional<MigrationProposal> claimTemplate;
    MigrationVerdict verdict;
};

struct MigrationPlan
{
    std::string cluster;
    int64_t rev = 0;
    release::ChosenRelease release;
    WorkloadSource source;
    std::string ns; // the namespace asked for; empty: all
    std::vector<WorkloadMigration> workloads;
};

// The plan for the workloads of `ns` (all when empty) of `snapshot`, simulated on `cluster`
// (simulationCluster() of the same snapshot). Each workload is simulated alone against the
// cluster as it is. Any thread.
[[nodiscard]] Result<MigrationPlan> planMigration(const inventory::Snapshot &snapshot,
    const SimulationCluster &cluster, std::string_view ns = {});

// {cluster, rev, kubernetesVersion, release, extendedResourcesFromDra, source, namespace,
// workloads: [{namespace, kind, name, source, replicas, pods, extendedResources, proposal,
// verdict}]}: `dractl migrate plan -o json` and the console API's `migration`.
nlohmann::json toJson(const MigrationPlan &plan);
nlohmann::json toJson(const MigrationProposal &proposal);

// The plan as `dractl migrate plan` prints it: one block per workload.
std::string toText(const MigrationPlan &plan);

// The workload `ns/name` or `name` (kind/name accepted) of the plan, or nullptr.
const WorkloadMigration *findWorkload(const MigrationPlan &plan, std::string_view name);

} // namespace dra::alloc
