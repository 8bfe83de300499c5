// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include "core/sandbox/control_pass.h"

namespace dra::sandbox {

// Deletes what a deleted owner leaves behind, as Kubernetes' garbage collector does with
// background propagation: ReplicaSets whose Deployment is gone, and Pods whose ReplicaSet is
// gone. Only those two kinds of owner: preseeded objects owned by kinds the demo
// does not serve are left alone. Claims of deleted pods are the ClaimReleaser's.
class GarbageCollector final
{
public:
    void reconcile(ControlPass &pass);
};

} // namespace dra::sandbox
