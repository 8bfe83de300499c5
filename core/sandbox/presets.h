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
    // The Kubernetes release the cluster runs ("1.34" or "v1.34.2"); empty: the preset's own.
    std::string kubernetesVersion;
};

// The release the demo presets run unless they or PresetOptions say otherwise.
inline constexpr std::string_view kDemoKubernetesVersion = "v1.36.0";

// Names and one-line descriptions of every preset, for --help and the console.
std::vector<std::pair<std::string, std::string>> presetNames();

// The release the cluster of `options` runs, as /version reports it ("v1.36.0"): the asked one
// ("1.34" is "v1.34.0"), else the preset's. Errors: an unknown preset, a release outside those
// the console models (1.31 to the development release).
[[nodiscard]] dra::Result<std::string> presetKubernetesVersion(const PresetOptions &options);

// A complete demo cluster as one v1 `List`: Namespaces, Nodes, DeviceClasses, ResourceSlices,
// ResourceClaimTemplates, ResourceClaims and Pods, shaped as the NVIDIA GPU DRA driver and the
// kubelet publish them, the kubelets one minor behind presetKubernetesVersion(). The same options
// always yield the same bytes. Thread-safe.
[[nodiscard]] dra::Result<nlohmann::json> generateInventory(const PresetOptions &options);

} // namespace dra::sandbox
