// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/rollout/gates.h"

namespace dra::rollout {

// The gates' view of a Deployment as the server sent it (nullopt: it does not exist).
WorkloadStatus workloadStatusOf(const std::optional<nlohmann::json> &deployment);

// Whether a Deployment has settled at `replicas`: the controller has seen its latest spec, and
// exactly that many pods exist and are Ready (a scale down is done when the old pods are gone).
bool deploymentSettled(const nlohmann::json &deployment, int replicas);

// "2/3 Ready, 3 pods, generation 4 observed 3": what a timeout reports.
std::string deploymentProgressText(const nlohmann::json &deployment);

} // namespace dra::rollout
