// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// How DRA drivers name the DaemonSet of their kubelet plugin, the per-node half of a driver that
// prepares devices for pods: NVIDIA's chart "nvidia-dra-driver-gpu-kubelet-plugin", the example
// driver's "dra-example-driver-kubeletplugin". One convention, read wherever a driver's pods
// must be told from other DaemonSets' (a rollout's node gate, the demo kubelet's faults).
#pragma once

#include <string_view>

namespace dra::model {

inline bool isKubeletPluginName(std::string_view daemonSetName)
{
    return daemonSetName.find("kubelet-plugin") != std::string_view::npos
        || daemonSetName.find("kubeletplugin") != std::string_view::npos;
}

} // namespace dra::model
