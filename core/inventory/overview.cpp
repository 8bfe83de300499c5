// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/overview.h"

#include "core/inventory/device_health.h"
#include "core/inventory/gpu_stack.h"
#include "core/inventory/lint.h"

namespace dra::inventory {

CategoryCapacity categoryCapacity(
    const Snapshot &snapshot, const std::string &group, std::span<const Device *const> devices)
{
    std::vector<const Device *> gpus, nics, other;
    CategoryCapacity capacity;
    for (const Device *device : devices) {
        switch (categoryOf(*device)) {
        case DeviceCategory::Gpu:
            gpus.push_back(device);
            if (std::string product = device->productName(); !product.empty())
                capacity.models.insert(std::move(product));
            break;
        case DeviceCategory::Nic:
            nics.push_back(device);
            break;
        case DeviceCategory::Other:
            other.push_back(device);
            break;
        case DeviceCategory::Partition:
            break; // counted by profile, from `all`
        }
    }
    capacity.gpus = freeCapacityOf(snapshot, group, gpus);
    capacity.nics = freeCapacityOf(snapshot, group, nics);
    capacity.other = freeCapacityOf(snapshot, group, other);
    capacity.all = freeCapacityOf(snapshot, group, devices);
    capacity.profiles = capacity.all.profiles;
    for (const ProfileCapacity &profile : capacity.profiles) {
        capacity.partitionPlacements += profile.total;
        capacity.partitionsFit += profile.fit;
    }
    return capacity;
}

std::vector<NodeOverview> nodeOverviews(const Snapshot &snapshot)
{
    std::vector<NodeOverview> nodes;
    const std::map<std::string, NodeGpuStack> stacks = nodeGpuStacks(snapshot);
    const std::map<std::string, int> unhealthy
        = unhealthyDevicesByNode(snapshot, deviceHealthReports(snapshot));
    for (NodeSummary &summary : nodeSummaries(snapshot)) {
        NodeOverview node;
        node.capacity
            = categoryCapacity(snapshot, summary.name, snapshot.devicesOnNode(summary.name));
        const auto stack = stacks.find(summary.name);
        node.devicePluginOnly = stack != stacks.end() && stack->second.devicePluginOnly();
        if (const auto found = unhealthy.find(summary.name); found != unhealthy.end())
            node.unhealthyDevices = found->second;
        node.summary = std::move(summary);
        nodes.push_back(std::move(node));
    }
    return nodes;
}

ClusterOverview clusterOverview(const Snapshot &snapshot)
{
    ClusterOverview overview;
    overview.nodes = nodeOverviews(snapshot);
    for (const NodeOverview &node : overview.nodes) {
        overview.devicePluginOnlyNodes += node.devicePluginOnly ? 1 : 0;
        overview.devicePluginGpus += node.summary.devicePluginGpus;
    }
    overview.totals = categoryCapacity(snapshot, "TOTAL", snapshot.devices());
    for (const ClaimSummary &claim : claimSummaries(snapshot)) {
        ++overview.claims;
        if (claim.state.starts_with("pending"))
            ++overview.pendingClaims;
    }
    for (const Finding &finding : lint(snapshot)) {
        switch (finding.severity) {
        case Severity::Error:
            ++overview.lintErrors;
            break;
        case Severity::Warning:
            ++overview.lintWarnings;
            break;
        case Severity::Info:
            ++overview.lintInfo;
            break;
        }
    }
    return overview;
}

} // namespace dra::inventory
