// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/common/result.h"
#include "core/sandbox/presets.h"
#include "core/store/cache_db.h"

namespace dra::sandbox {

// The cluster name of the demo cluster.
inline constexpr std::string_view kDemoCluster = "demo";

// Seeds an empty cache (a writer) with a preset's demo cluster as cluster `cluster`: every
// object of generateInventory() and a kube-system namespace with a UID of its own (the demo
// cluster's identity) in one batch, and the cluster recorded as running presetKubernetesVersion().
// A cache that already holds the cluster is left as it is, so a demo cache kept with --cache
// carries its changes across restarts; only a release asked for in `preset` is recorded anew.
// Errors name the object.
// With `datedFromMs` (the control plane's now), the objects are dated back from it
// (dateDemoObjects) instead of all bearing the preset's fixed time.
[[nodiscard]] Result<void> seedDemoCache(store::CacheDb &writer, const std::string &cluster,
    const PresetOptions &preset, std::optional<int64_t> datedFromMs = std::nullopt);

} // namespace dra::sandbox
