// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// How each node offers its GPUs: through the NVIDIA device plugin (whole GPUs and MIG slices as
// extended resources in its allocatable), through a DRA driver (GPU and MIG devices it
// publishes), or both. The overview, the readiness report and the migration assistant ask here,
// so one node is called the same thing on every page.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace dra::inventory {

class Snapshot;

struct NodeGpuStack
{
    // What the device plugin offers: "nvidia.com/gpu=8", "nvidia.com/mig-1g.10gb=7".
    std::vector<std::string> devicePluginResources;
    bool draGpus = false; // a DRA driver publishes GPU or MIG devices of the node

    bool devicePlugin() const { return !devicePluginResources.empty(); }
    // The device plugin hands out the node's GPUs and no DRA driver publishes any.
    bool devicePluginOnly() const { return devicePlugin() && !draGpus; }
    // "dra", "both", "device-plugin", or "none".
    const char *name() const;
};

// Every Node object of the snapshot and every node DRA devices name, by node name.
std::map<std::string, NodeGpuStack> nodeGpuStacks(const Snapshot &snapshot);

} // namespace dra::inventory
