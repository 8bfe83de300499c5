// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/sandbox/object_view.h"

namespace dra::sandbox {

// The extended resource of the NVIDIA device plugin.
inline constexpr const char *kDevicePluginGpu = "nvidia.com/gpu";

// The nvidia.com/gpu a pod asks for: per container the larger of request and limit, summed.
int64_t devicePluginGpus(const nlohmann::json &pod);

// Which nodes a pod may go to before DRA is asked: its nodeSelector matches, it tolerates the
// node's NoSchedule/NoExecute taints, the node is schedulable, and enough nvidia.com/gpu of
// the node's allocatable is not taken by pods bound there. `summary` (when nothing fits) is
// worded as kube-scheduler words it: "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
struct NodeFit
{
    std::vector<std::string> nodes; // by name
    int nodeCount = 0;
    std::string summary;
};
NodeFit fitNodes(const ObjectView &view, const nlohmann::json &pod);

// Whether `node` admits a pod of this spec holder (a Pod, or a pod template's
// {"spec": ...}): its nodeSelector matches the node's labels and it tolerates the node's
// NoSchedule/NoExecute taints. Cordoning and capacity are not asked: a DaemonSet's pods go
// to cordoned nodes too.
bool nodeAdmits(const nlohmann::json &node, const nlohmann::json &pod);

} // namespace dra::sandbox
