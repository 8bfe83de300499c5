// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include "core/sandbox/control_pass.h"

namespace dra::sandbox {

// Answers ResourcePoolStatusRequests as Kubernetes 1.36's resource pool status controller
// does: once, in the status (then frozen), from the slices and claims of this pass; tainted
// devices are not counted as unavailable in 1.36. A request whose spec is not one (no driver,
// a limit outside 1..1000) gets a Failed condition instead.
class PoolStatusController final
{
public:
    void reconcile(ControlPass &pass);
};

} // namespace dra::sandbox
