// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What the cluster looked like before a rollout changed anything: the first page of its
// evidence bundle. Recorded with the pre-flight, so a rollback can be judged against it and a
// reviewer sees what the canary was compared with.
#pragma once

#include <nlohmann/json.hpp>

#include "core/rollout/gates.h"

namespace dra::rollout {

// At most this many devices are listed; the rest are counted.
inline constexpr size_t kBaselineFactDevices = 512;

// {"versions": {"kubernetes", "resource.k8s.io": [...]},
//  "baseline": {"replicas", "readyReplicas", "errorRate"?, "latencyP95Ms"?},
//  "nodes": [{"name", "devicePluginGpus", "drivers": [...]}],   nodes with GPUs of either kind
//  "devices": [{"node", "driver", "pool", "name", "uuid"}], "devicesLeftOut",
//  "daemonSets": [{"namespace", "name", "desired", "ready", "images"}] | "daemonSetsUnknown"}
nlohmann::json baselineFacts(const BaselineEvidence &evidence);

} // namespace dra::rollout
