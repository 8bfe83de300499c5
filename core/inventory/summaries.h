// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// One row per node, claim, pod and DeviceClass with what the console's overview tables show.
// Computed on demand from a snapshot; pointers stay valid as long as the snapshot. Any thread.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/common/object_key.h"
#include "core/inventory/snapshot.h"

namespace dra::inventory {

struct NodeSummary
{
    std::string name;
    const model::Object *node = nullptr; // nullptr when only ResourceSlices name the node
    std::string status; // "Ready", "NotReady,SchedulingDisabled", ...; "" without a Node
    int devices = 0; // node-local DRA devices
    int allocated = 0, free = 0; // by Snapshot::state(); blocked and tainted are neither
    std::vector<std::string> drivers; // sorted
    int pods = 0; // pods bound to the node
    int64_t devicePluginGpus = 0; // `nvidia.com/gpu` capacity of the device plugin
};

// Every Node, and every node only ResourceSlices name, sorted by name.
std::vector<NodeSummary> nodeSummaries(const Snapshot &snapshot);

struct ClaimSummary
{
    const model::Object *claim = nullptr;
    std::string state; // as kubectl prints it: "allocated,reserved", "pending"
    std::string node; // the node of its node-local devices, "" otherwise
    std::vector<DeviceKey> devices; // allocated devices, in result order
    std::vector<std::string> pods; // pods it is reserved for
    std::vector<std::string> missingPods; // of those, the ones the cache does not hold
};

// Every ResourceClaim, sorted by namespace then name. Missing pods are reported only when the
// cache mirrors pods at all.
std::vector<ClaimSummary> claimSummaries(const Snapshot &snapshot);

struct PodSummary
{
    const model::Object *pod = nullptr;
    std::vector<common::ObjectKey> claims; // the ResourceClaims it uses, as its status names them
    std::vector<std::string> pendingClaims; // pod claim names whose ResourceClaim is not known yet
};

// Pods that use ResourceClaims, sorted by namespace then name.
std::vector<PodSummary> podSummaries(const Snapshot &snapshot);

struct ClassSummary
{
    const model::Object *deviceClass = nullptr;
    int devices = 0, free = 0; // devices it selects, and of those the free ones
    int requestedBy = 0; // claims and templates with a request for it
    bool selectorErrors = false;
};

// How many ResourceClaims and ResourceClaimTemplates request each DeviceClass (by name).
std::map<std::string, int, std::less<>> classRequestCounts(const Snapshot &snapshot);

// Every DeviceClass, sorted by name; evaluates class selectors on first use.
std::vector<ClassSummary> classSummaries(const Snapshot &snapshot);

} // namespace dra::inventory
