// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include "core/sandbox/control_pass.h"

namespace dra::sandbox {

// The demo's Deployment controller: each apps/v1 Deployment owns one ReplicaSet per pod
// template ("<deployment>-<pod-template-hash>"); the one matching the current template gets
// spec.replicas, older ones are scaled to 0 (a Recreate-like rollout, enough for a demo).
// Keeps the Deployment's status (replica counts, Available and Progressing) from its
// ReplicaSets'. A ReplicaSet whose template already matches is adopted, never recreated, so
// the preseeded serving stack stays as it is.
class DeploymentController final
{
public:
    void reconcile(ControlPass &pass);

private:
    void reconcileOne(ControlPass &pass, const nlohmann::json &deployment);
};

// The pod template of a ReplicaSet without its pod-template-hash label: what it is compared
// with a Deployment's template by.
nlohmann::json templateWithoutHash(const nlohmann::json &replicaSet);

} // namespace dra::sandbox
