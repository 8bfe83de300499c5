// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Node taints and the pods' tolerations as the scheduler's TaintToleration filter sees them,
// for the migration assistant: where may a workload's pods go before devices are counted.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/device_taints.h"

namespace dra::inventory {
class Snapshot;
}

namespace dra::alloc {

// The taints of Node `node`: its spec.taints, and node.kubernetes.io/unschedulable:NoSchedule
// when it is cordoned. None for a node without a Node object.
std::vector<model::DeviceTaint> nodeTaints(
    const inventory::Snapshot &snapshot, const std::string &node);

// The tolerations Kubernetes' ExtendedResourceToleration admission plugin adds to a pod whose
// containers ask for extended resources: `<resource>` Exists NoSchedule for each.
std::vector<model::Toleration> extendedResourceTolerations(const nlohmann::json &podSpec);

} // namespace dra::alloc
