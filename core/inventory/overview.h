// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/inventory/device_category.h"
#include "core/inventory/free_capacity.h"
#include "core/inventory/summaries.h"

namespace dra::inventory {

// A set of devices counted by what they are (DeviceCategory): whole GPUs, MIG placements by
// profile, NICs and the rest apart, so an 8-GPU node with 8 NICs reads "8 GPUs", not 16.
struct CategoryCapacity
{
    FreeCapacity gpus, nics, other, all;
    int partitionPlacements = 0; // MIG placements published
    int partitionsFit = 0; // of those, how many can be allocated at once
    std::vector<ProfileCapacity> profiles; // of `all`, sorted by profile
    std::set<std::string> models; // product names of the GPUs
};

struct NodeOverview
{
    NodeSummary summary;
    CategoryCapacity capacity;
    // The device plugin hands out GPUs or MIG slices here and no DRA driver publishes GPU or
    // MIG devices (nodeGpuStacks(), as the readiness report says it).
    bool devicePluginOnly = false;
    int unhealthyDevices = 0; // devices a container on it reports Unhealthy
};

// What the console's overview shows, desktop and web alike: one computation, so the two (and
// `dractl console-api overview`) cannot disagree.
struct ClusterOverview
{
    std::vector<NodeOverview> nodes; // every node (nodeSummaries), by name
    CategoryCapacity totals; // network-attached devices included
    int devicePluginOnlyNodes = 0;
    int64_t devicePluginGpus = 0;
    int claims = 0, pendingClaims = 0; // ResourceClaims, and those not allocated yet
    int lintErrors = 0, lintWarnings = 0, lintInfo = 0;
};

CategoryCapacity categoryCapacity(
    const Snapshot &snapshot, const std::string &group, std::span<const Device *const> devices);
// The nodes' part of the overview (cheap enough for every change of a large cluster).
std::vector<NodeOverview> nodeOverviews(const Snapshot &snapshot);
// Everything, lint included: run it off the GUI thread.
ClusterOverview clusterOverview(const Snapshot &snapshot);

} // namespace dra::inventory
