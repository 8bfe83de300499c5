// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include "core/sandbox/control_pass.h"

namespace dra::sandbox {

// The demo's DaemonSet controller: one pod from the template on each node whose labels match
// the template's nodeSelector and whose NoSchedule/NoExecute taints it tolerates, named
// "<daemonset>-<5 characters>" and bound to that node at once (the kubelet then starts it). A
// deleted pod comes back; a pod on a node no longer admitted is deleted. The status counts
// them as Kubernetes does (desired, current, ready, available, updated).
class DaemonSetController final
{
public:
    void reconcile(ControlPass &pass);

private:
    void reconcileOne(
        ControlPass &pass, nlohmann::json daemonSet, const std::vector<nlohmann::json> &nodes);
};

} // namespace dra::sandbox
