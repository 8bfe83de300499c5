// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include "core/sandbox/control_pass.h"

namespace dra::sandbox {

// The demo's ReplicaSet controller: each ReplicaSet owns spec.replicas Pods named
// "<replicaset>-<5 characters>" from its template (scaling down deletes the newest first), and
// its status counts them. Pods it already controls, preseeded ones too, are kept as they are.
class ReplicaSetController final
{
public:
    void reconcile(ControlPass &pass);

private:
    void reconcileOne(ControlPass &pass, nlohmann::json replicaSet);
};

} // namespace dra::sandbox
