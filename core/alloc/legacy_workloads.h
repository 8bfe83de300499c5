// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The workloads that still get their devices from a device plugin: Deployments, StatefulSets,
// Jobs, DaemonSets, ReplicaSets and bare Pods whose containers ask for extended resources
// (`nvidia.com/gpu`, `nvidia.com/mig-1g.10gb`, `example.com/fpga`). What the migration
// assistant starts from.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/inventory/snapshot.h"

namespace dra::alloc {

// Kubernetes' IsExtendedResourceName: a qualified name outside the kubernetes.io domains
// ("nvidia.com/gpu"; not "cpu", "hugepages-2Mi" or "requests.nvidia.com/gpu").
bool isExtendedResourceName(std::string_view name);

// One container's ask for an extended resource (the larger of its request and limit: they must
// be equal for extended resources).
struct ExtendedRequest
{
    std::string container;
    std::string resource; // "nvidia.com/gpu"
    int64_t count = 0;
    int nodesAdvertising = 0; // nodes whose allocatable offers the resource
};

struct LegacyWorkload
{
    std::string ns, kind, name; // kind: Deployment, StatefulSet, Job, DaemonSet, ReplicaSet, Pod
    // "object": the workload object as the cache mirrors it; "pods": grouped from its pods'
    // ownerReferences because the cache holds no object of that kind.
    std::string source;
    int replicas = 1; // pods it runs (DaemonSets: the pods seen)
    std::vector<std::string> pods; // its pods in the cache
    nlohmann::json podTemplate; // {metadata: {labels}, spec}, as the workload's template
    std::vector<ExtendedRequest> requests;
};

// Which kinds of workload object the snapshot holds, and the sentence saying where the
// workloads below were found ("Deployments, DaemonSets and ReplicaSets as the cache mirrors
// them; other workloads from their pods").
struct WorkloadSource
{
    std::vector<std::string> objectKinds; // mirrored workload kinds that hold objects
    std::string text;
};

WorkloadSource workloadSource(const inventory::Snapshot &snapshot);

// The workloads of `ns` (all namespaces when empty) asking for extended resources, sorted by
// namespace, kind, name. Workload objects are used where the snapshot has them; pods the
// snapshot holds without their workload are grouped by their controller: a ReplicaSet's to its
// Deployment (the ReplicaSet object's owner, else the pod-template-hash naming convention),
// others to the owner they name, pods without one stand alone. Finished pods are left out.
std::vector<LegacyWorkload> findLegacyWorkloads(
    const inventory::Snapshot &snapshot, std::string_view ns = {});

} // namespace dra::alloc
