// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/resource_types.h"

namespace dra::model {

// A DeviceToleration of a request (or a pod's toleration of a node taint: the same rules).
struct Toleration
{
    std::string key, op, value, effect;
};

// Reads the `tolerations` list of a request (JSON, null when absent); malformed entries are
// skipped.
std::vector<Toleration> parseTolerations(const nlohmann::json &tolerations);

// Kubernetes' ToleratesTaint: the effect matches (or the toleration has none), the key matches
// (an empty key with Exists matches every key), and Exists matches any value, Equal (the
// default) only the same value.
bool tolerates(const Toleration &toleration, const DeviceTaint &taint);

// Only NoSchedule and NoExecute keep a device from being allocated; None and unknown effects
// are informational.
bool taintBlocksAllocation(const DeviceTaint &taint);

// The first taint among `taints` that blocks allocation and none of `tolerations` tolerates,
// or nullptr.
const DeviceTaint *untoleratedTaint(
    const std::vector<DeviceTaint> &taints, const std::vector<Toleration> &tolerations);

} // namespace dra::model
