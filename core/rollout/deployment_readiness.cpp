// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/deployment_readiness.h"

namespace dra::rollout {

namespace {

int64_t intAt(
    const nlohmann::json &object, const char *section, const char *field, int64_t fallback)
{
    if (!object.contains(section) || !object[section].is_object())
        return fallback;
    const nlohmann::json &value = object[section].value(field, nlohmann::json());
    return value.is_number_integer() ? value.get<int64_t>() : fallback;
}

} // namespace

WorkloadStatus workloadStatusOf(const std::optional<nlohmann::json> &deployment)
{
    WorkloadStatus status;
    if (!deployment)
        return status;
    status.exists = true;
    status.replicas = int(intAt(*deployment, "spec", "replicas", 1)); // the API server's default
    status.readyReplicas = int(intAt(*deployment, "status", "readyReplicas", 0));
    return status;
}

bool deploymentSettled(const nlohmann::json &deployment, int replicas)
{
    const int64_t generation = intAt(deployment, "metadata", "generation", 0);
    const int64_t observed = intAt(deployment, "status", "observedGeneration", generation);
    return observed >= generation && intAt(deployment, "status", "readyReplicas", 0) >= replicas
        && intAt(deployment, "status", "replicas", 0) == replicas;
}

std::string deploymentProgressText(const nlohmann::json &deployment)
{
    std::string text = std::to_string(intAt(deployment, "status", "readyReplicas", 0)) + "/"
        + std::to_string(intAt(deployment, "spec", "replicas", 1)) + " Ready, "
        + std::to_string(intAt(deployment, "status", "replicas", 0)) + " pod(s)";
    const int64_t generation = intAt(deployment, "metadata", "generation", 0);
    const int64_t observed = intAt(deployment, "status", "observedGeneration", generation);
    if (observed < generation)
        text += ", generation " + std::to_string(generation) + " not yet observed (at "
            + std::to_string(observed) + ")";
    return text;
}

} // namespace dra::rollout
