// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Consumable capacity (DRAConsumableCapacity): how much of a device's capacity a request
// consumes under the device's requestPolicy, and whether it still fits.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/common/result.h"
#include "core/model/quantity.h"
#include "core/model/resource_types.h"

namespace dra::alloc {

using Nano = model::Quantity::NanoUnits;

// Capacity consumed per capacity name (as the device publishes it), in nano units.
using ConsumedCapacity = std::map<std::string, Nano>;

void addCapacity(ConsumedCapacity &to, const ConsumedCapacity &amount);
void subtractCapacity(ConsumedCapacity &from, const ConsumedCapacity &amount);

// The `capacity.requests` of a request: name -> quantity. Absent (nullopt) and empty differ only
// in whether the DRAConsumableCapacity gate must be on.
struct CapacityRequests
{
    bool present = false;
    std::vector<std::pair<std::string, model::Quantity>> requests;
};

// Reads `capacity` of an exact request or subrequest (JSON, null when absent).
[[nodiscard]] Result<CapacityRequests> parseCapacityRequests(const nlohmann::json &capacity);

// Why a device cannot take a request's capacity, for explanations.
enum class CapacityVerdict { Fits, UndefinedCapacity, ViolatesPolicy, Exhausted };

// Whether `requests` still fit on a device with `capacity`, given what allocated claims
// (`allocated`) and the allocation in progress (`allocating`) already consume. Mirrors
// Kubernetes' CmpRequestOverCapacity: every capacity is charged (the request, the policy's
// default, or the whole value), rounded up by the requestPolicy.
CapacityVerdict checkCapacity(
    const std::vector<std::pair<std::string, model::DeviceCapacity>> &capacity,
    const CapacityRequests &requests, const ConsumedCapacity *allocated,
    const ConsumedCapacity *allocating);

// What an allocation of a shareable device records in consumedCapacity: every capacity of the
// device, charged as checkCapacity() charges it.
ConsumedCapacity consumedCapacity(
    const std::vector<std::pair<std::string, model::DeviceCapacity>> &capacity,
    const CapacityRequests &requests);

// Parses consumedCapacity of an allocation result ({"memory": "10Gi"}); bad entries are skipped.
ConsumedCapacity parseConsumedCapacity(const nlohmann::json &consumed);

} // namespace dra::alloc
