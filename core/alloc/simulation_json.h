// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// JSON for simulation results: shared by `dractl simulate`, the server and the console.
#pragma once

#include <nlohmann/json.hpp>

#include "core/alloc/explain.h"
#include "core/alloc/simulator.h"

namespace dra::alloc {

// One entry of status.allocation.devices.results, as Kubernetes writes it: request, driver,
// pool, device, adminAccess, and shareID / consumedCapacity / tolerations / binding conditions
// where Kubernetes writes them.
nlohmann::json deviceResultJson(const Cluster &cluster, const DeviceResult &result);

// {"name", "node", "results": [...], "nodeSelector"} for one allocated claim.
nlohmann::json claimResultJson(const Cluster &cluster, const ClaimToAllocate &claim,
    const ClaimResult &result, const std::string &node);

// One node of an explanation: node, failedAt, claim, request, the funnel counts, why matching
// devices are not free, the selector clauses that eliminated devices, and the reason.
nlohmann::json explanationJson(const NodeExplanation &explanation);

// A consumed amount in nano units as Kubernetes prints a quantity of `format` ("4Gi", "500m").
std::string formatQuantity(Nano amount, model::Quantity::Format format);

} // namespace dra::alloc
