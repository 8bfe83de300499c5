// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/sandbox/cluster_plan.h"
#include "core/sandbox/object_factory.h"

namespace dra::sandbox {

// The namespaces of the three worlds that share a GPU cluster.
inline const std::vector<std::string> kWorkloadNamespaces = { "inference", "training", "batch" };

// What teams run on a generated cluster: templates, claims (allocated ones with status.allocation
// and reservedFor) and the pods holding them, plus device-plugin pods and a claim no device can
// satisfy, and the model server on the device-plugin pool as the Deployment a rollout moves to
// DRA. Only hardware the plan has is used; which nodes get which work follows the seed.
struct Workloads
{
    nlohmann::json templates = nlohmann::json::array();
    nlohmann::json claims = nlohmann::json::array();
    nlohmann::json pods = nlohmann::json::array();
    // The serving stack a rollout starts from: Deployment, ReplicaSet, Service, HTTPRoute and the
    // GPU drivers' DaemonSets (see serving_objects.h).
    nlohmann::json apps = nlohmann::json::array();
};

Workloads buildWorkloads(const ObjectFactory &factory, const ClusterPlan &plan, uint64_t seed);

} // namespace dra::sandbox
