// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace dra::sandbox {

// Which demo cluster to generate. `nodes` 0 means the preset's default; for `mixed` it sets the
// number of H100 nodes (the A100, L40S and device-plugin nodes stay fixed).
struct PresetOptions
{
    std::string preset;
    int nodes = 0;
    uint64_t seed = 1;
};

// Names and one-line descriptions of every preset, for --help and the console.
std::vector<std::pair<std::string, std::string>> presetNames();

// A complete demo cluster as one v1 `List`: Namespaces, Nodes, DeviceClasses, ResourceSlices,
// ResourceClaimTemplates, ResourceClaims and Pods, shaped as the NVIDIA GPU DRA driver and the
// kubelet publish them. The same (preset, nodes, seed) always yields the same bytes. Thread-safe.
[[nodiscard]] dra::Result<nlohmann::json> generateInventory(const PresetOptions &options);

} // namespace dra::sandbox
