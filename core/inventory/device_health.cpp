// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/device_health.h"

#include <set>

namespace dra::inventory {

namespace {

using nlohmann::json;

const json &member(const json &object, const char *name)
{
    static const json none;
    return object.is_object() && object.contains(name) ? object[name] : none;
}

std::string text(const json &object, const char *name)
{
    const json &value = member(object, name);
    return value.is_string() ? value.get<std::string>() : std::string();
}

} // namespace

std::optional<DeviceKey> parseResourceId(std::string_view resourceId)
{
    const std::size_t first = resourceId.find('/');
    const std::size_t last = resourceId.rfind('/');
    if (first == std::string_view::npos || first == last || first == 0
        || last + 1 == resourceId.size())
        return std::nullopt;
    return DeviceKey { std::string(resourceId.substr(0, first)),
        std::string(resourceId.substr(first + 1, last - first - 1)),
        std::string(resourceId.substr(last + 1)) };
}

std::vector<ClaimDeviceStatus> claimDeviceStatuses(const model::Object &claim)
{
    std::vector<ClaimDeviceStatus> out;
    if (claim.kind != model::Kind::ResourceClaim || !claim.raw)
        return out;
    const json &devices = member(member(*claim.raw, "status"), "devices");
    if (!devices.is_array())
        return out;
    for (const json &entry : devices) {
        ClaimDeviceStatus status;
        status.device = { text(entry, "driver"), text(entry, "pool"), text(entry, "device") };
        status.shareID = text(entry, "shareID");
        if (member(entry, "conditions").is_array())
            for (const json &condition : entry["conditions"]) {
                json kept = { { "type", text(condition, "type") },
                    { "status", text(condition, "status") } };
                for (const char *name : { "reason", "message" })
                    if (!text(condition, name).empty())
                        kept[name] = text(condition, name);
                status.conditions.push_back(std::move(kept));
            }
        status.data = member(entry, "data");
        status.networkData = member(entry, "networkData");
        out.push_back(std::move(status));
    }
    return out;
}

const std::vector<DeviceHealthReport> &deviceHealthReports(const Snapshot &snapshot)
{
    return snapshot.deviceHealthReports();
}

std::vector<DeviceHealthReport> readDeviceHealthReports(
    std::span<const std::shared_ptr<const model::Object>> pods)
{
    std::vector<DeviceHealthReport> out;
    for (const auto &object : pods) {
        if (!object->raw)
            continue;
        const json &status = member(*object->raw, "status");
        for (const char *list : { "initContainerStatuses", "containerStatuses" }) {
            const json &containers = member(status, list);
            if (!containers.is_array())
                continue;
            for (const json &container : containers) {
                const json &allocated = member(container, "allocatedResourcesStatus");
                if (!allocated.is_array())
                    continue;
                for (const json &resource : allocated) {
                    // "claim:<claim>/<request>" for DRA; device plugin resources are named
                    // otherwise and left out.
                    const std::string name = text(resource, "name");
                    if (!name.starts_with("claim:"))
                        continue;
                    const std::string claimAndRequest = name.substr(6);
                    const std::size_t slash = claimAndRequest.find('/');
                    const json &resources = member(resource, "resources");
                    if (!resources.is_array())
                        continue;
                    for (const json &device : resources) {
                        const std::optional<DeviceKey> key
                            = parseResourceId(text(device, "resourceID"));
                        if (!key)
                            continue;
                        const std::string health = text(device, "health");
                        out.push_back({ *key, health.empty() ? "Unknown" : health, object->key(),
                            text(container, "name"), claimAndRequest.substr(0, slash),
                            slash == std::string::npos ? std::string()
                                                       : claimAndRequest.substr(slash + 1) });
                    }
                }
            }
        }
    }
    return out;
}

std::vector<DeviceHealthReport> healthOf(
    const std::vector<DeviceHealthReport> &reports, const DeviceKey &device)
{
    std::vector<DeviceHealthReport> out;
    for (const DeviceHealthReport &report : reports)
        if (report.device == device)
            out.push_back(report);
    return out;
}

nlohmann::json toJson(const ClaimDeviceStatus &status)
{
    json out = { { "driver", status.device.driver }, { "pool", status.device.pool },
        { "device", status.device.device }, { "conditions", status.conditions } };
    if (!status.shareID.empty())
        out["shareID"] = status.shareID;
    if (!status.data.is_null())
        out["data"] = status.data;
    if (!status.networkData.is_null())
        out["networkData"] = status.networkData;
    return out;
}

std::string worstHealth(const std::vector<DeviceHealthReport> &reports)
{
    const auto rank = [](const std::string &health) {
        return health == "Unhealthy" ? 3 : health == "Unknown" ? 2 : health.empty() ? 0 : 1;
    };
    std::string worst;
    for (const DeviceHealthReport &report : reports)
        if (rank(report.health) > rank(worst))
            worst = report.health;
    return worst;
}

std::map<std::string, int> unhealthyDevicesByNode(
    const Snapshot &snapshot, const std::vector<DeviceHealthReport> &reports)
{
    std::set<DeviceKey> unhealthy;
    for (const DeviceHealthReport &report : reports)
        if (report.health == "Unhealthy")
            unhealthy.insert(report.device);
    std::map<std::string, int> byNode;
    for (const DeviceKey &key : unhealthy)
        if (const Device *device = snapshot.device(key))
            ++byNode[device->node];
    return byNode;
}

std::string healthLine(const DeviceHealthReport &report)
{
    return report.pod.ns + "/" + report.pod.name + " container " + report.container + ": "
        + report.health + " (claim " + report.claim + ", request " + report.request + ")";
}

nlohmann::json toJson(const DeviceHealthReport &report)
{
    return { { "driver", report.device.driver }, { "pool", report.device.pool },
        { "device", report.device.device }, { "health", report.health },
        { "pod", report.pod.ns + "/" + report.pod.name }, { "container", report.container },
        { "claim", report.claim }, { "request", report.request } };
}

} // namespace dra::inventory
