// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>

#include <nlohmann/json_fwd.hpp>

namespace dra::sandbox {

// Dates the objects of a generated inventory (its "items") as a cluster that has been running a
// while, counted back from `nowMs`: nodes, ResourceSlices, DeviceClasses and namespaces days
// old, workloads and templates hours to days, pods and claims minutes to hours (the newest a
// couple of minutes). The presets themselves keep one fixed time so their output is
// byte-stable; the demo cluster dates its copy when it starts.
//
// Pods and claims get older the earlier their name sorts, so that what orders them by creation
// time (the scheduler, a ReplicaSet scaling down) picks them as it did with equal timestamps.
// Status times that follow creation (a pod's startTime, a claim's allocationTimestamp, node
// condition times) move with it.
void dateDemoObjects(nlohmann::json &items, int64_t nowMs);

} // namespace dra::sandbox
