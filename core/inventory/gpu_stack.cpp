// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/gpu_stack.h"

#include "core/inventory/snapshot.h"

namespace dra::inventory {

const char *NodeGpuStack::name() const
{
    if (draGpus)
        return devicePlugin() ? "both" : "dra";
    return devicePlugin() ? "device-plugin" : "none";
}

std::map<std::string, NodeGpuStack> nodeGpuStacks(const Snapshot &snapshot)
{
    std::map<std::string, NodeGpuStack> stacks;
    for (const auto &object : snapshot.objects(model::Kind::Node)) {
        NodeGpuStack &stack = stacks[object->meta.name];
        if (const auto *node = object->as<model::Node>())
            for (const auto &[name, quantity] : node->allocatable)
                if ((name == "nvidia.com/gpu" || name.starts_with("nvidia.com/mig-"))
                    && quantity != "0")
                    stack.devicePluginResources.push_back(name + "=" + quantity);
    }
    for (const Device *device : snapshot.devices())
        if (!device->node.empty() && (device->type() == "gpu" || device->type() == "mig"))
            stacks[device->node].draGpus = true;
    return stacks;
}

} // namespace dra::inventory
