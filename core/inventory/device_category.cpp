// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/device_category.h"

#include <algorithm>
#include <tuple>

#include "core/inventory/snapshot.h"

namespace dra::inventory {

DeviceCategory categoryOf(const Device &device)
{
    if (device.isPartition())
        return DeviceCategory::Partition;
    const std::string type = device.type();
    const std::string &driver = device.key.driver;
    if (type == "gpu" || (type.empty() && driver.find("gpu") != std::string::npos))
        return DeviceCategory::Gpu;
    if (type == "nic" || type == "rdma" || type == "netdev" || type == "vf" || type == "pf"
        || driver == "dra.net" || driver.find("sriov") != std::string::npos
        || driver.find("network") != std::string::npos)
        return DeviceCategory::Nic;
    return DeviceCategory::Other;
}

std::string_view categoryTitle(DeviceCategory category)
{
    switch (category) {
    case DeviceCategory::Gpu:
        return "GPUs";
    case DeviceCategory::Partition:
        return "MIG devices";
    case DeviceCategory::Nic:
        return "NICs";
    case DeviceCategory::Other:
        break;
    }
    return "Other devices";
}

namespace {

// Network-attached devices (no node) after every node's.
auto browseKey(const Device &device, DeviceCategory category)
{
    return std::make_tuple(device.node.empty(), std::string_view(device.node), int(category));
}

} // namespace

bool browsesBefore(const Device &a, const Device &b)
{
    return browseKey(a, categoryOf(a)) < browseKey(b, categoryOf(b));
}

std::vector<const Device *> devicesInBrowseOrder(const Snapshot &snapshot)
{
    // The category reads attributes: once per device, not once per comparison.
    struct Entry
    {
        const Device *device;
        DeviceCategory category;
    };
    std::vector<Entry> entries;
    entries.reserve(snapshot.devices().size());
    for (const Device *device : snapshot.devices())
        entries.push_back({ device, categoryOf(*device) });
    std::ranges::stable_sort(entries, [](const Entry &a, const Entry &b) {
        return browseKey(*a.device, a.category) < browseKey(*b.device, b.category);
    });
    std::vector<const Device *> devices;
    devices.reserve(entries.size());
    for (const Entry &entry : entries)
        devices.push_back(entry.device);
    return devices;
}

} // namespace dra::inventory
