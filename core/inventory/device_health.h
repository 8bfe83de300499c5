// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/object_key.h"
#include "core/inventory/device.h"
#include "core/inventory/device_health_report.h"
#include "core/inventory/snapshot.h"

namespace dra::inventory {

// A device's status as its driver reported it in a claim (status.devices[]): conditions,
// driver data and network data.
struct ClaimDeviceStatus
{
    DeviceKey device;
    std::string shareID;
    nlohmann::json conditions = nlohmann::json::array(); // [{type, status, reason?, message?}]
    nlohmann::json data; // null when absent
    nlohmann::json networkData; // {interfaceName, ips, hardwareAddress}; null when absent
};

// The status.devices[] of `claim` (a ResourceClaim object); empty for other objects.
std::vector<ClaimDeviceStatus> claimDeviceStatuses(const model::Object &claim);

// Every report of `snapshot`'s pods, in pod order: Snapshot::deviceHealthReports(), read once
// per set of pods.
const std::vector<DeviceHealthReport> &deviceHealthReports(const Snapshot &snapshot);
// The reports of `pods` (Pod objects), in their order.
std::vector<DeviceHealthReport> readDeviceHealthReports(
    std::span<const std::shared_ptr<const model::Object>> pods);
// The reports about `device`.
std::vector<DeviceHealthReport> healthOf(
    const std::vector<DeviceHealthReport> &reports, const DeviceKey &device);
// The worst health among reports about one device: Unhealthy, then Unknown, then Healthy; ""
// when none.
std::string worstHealth(const std::vector<DeviceHealthReport> &reports);
// Per node, how many of its devices some container reports Unhealthy (a node's tile says so).
std::map<std::string, int> unhealthyDevicesByNode(
    const Snapshot &snapshot, const std::vector<DeviceHealthReport> &reports);
// One line per report for tables: "ml/train-0 container main: Unhealthy (claim gpu, request
// gpu)".
std::string healthLine(const DeviceHealthReport &report);

// "<driver>/<pool>/<device>" (the pool may hold slashes); nullopt when it is not one.
std::optional<DeviceKey> parseResourceId(std::string_view resourceId);

nlohmann::json toJson(const ClaimDeviceStatus &status);
nlohmann::json toJson(const DeviceHealthReport &report);

} // namespace dra::inventory
