// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/device_category.h"

#include <algorithm>
#include <tuple>

#include "core/common/ascii.h"
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

// Names as people read them: "gpu-2" before "gpu-10", "h100-9" before "h100-10". Runs of
// digits compare by value (leading zeros aside), everything else byte by byte.
bool naturallyBefore(std::string_view a, std::string_view b)
{
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (common::isAsciiDigit(a[i]) && common::isAsciiDigit(b[j])) {
            size_t endA = i, endB = j;
            while (endA < a.size() && common::isAsciiDigit(a[endA]))
                ++endA;
            while (endB < b.size() && common::isAsciiDigit(b[endB]))
                ++endB;
            std::string_view numberA = a.substr(i, endA - i), numberB = b.substr(j, endB - j);
            numberA.remove_prefix(std::min(numberA.find_first_not_of('0'), numberA.size()));
            numberB.remove_prefix(std::min(numberB.find_first_not_of('0'), numberB.size()));
            if (numberA.size() != numberB.size())
                return numberA.size() < numberB.size();
            if (numberA != numberB)
                return numberA < numberB;
            i = endA;
            j = endB;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j];
        ++i;
        ++j;
    }
    if (a.size() - i != b.size() - j)
        return a.size() - i < b.size() - j;
    return a < b; // the same to a reader ("gpu-02", "gpu-2"): still one order
}

// By node (network-attached devices, with no node, after every node's), then category, then
// name as people read it; the driver and pool break ties between equal names.
bool browseBefore(
    const Device &a, DeviceCategory categoryA, const Device &b, DeviceCategory categoryB)
{
    if (a.node.empty() != b.node.empty())
        return b.node.empty();
    if (a.node != b.node)
        return naturallyBefore(a.node, b.node);
    if (categoryA != categoryB)
        return categoryA < categoryB;
    if (a.key.device != b.key.device)
        return naturallyBefore(a.key.device, b.key.device);
    return std::tie(a.key.driver, a.key.pool) < std::tie(b.key.driver, b.key.pool);
}

} // namespace

bool browsesBefore(const Device &a, const Device &b)
{
    return browseBefore(a, categoryOf(a), b, categoryOf(b));
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
    std::ranges::sort(entries, [](const Entry &a, const Entry &b) {
        return browseBefore(*a.device, a.category, *b.device, b.category);
    });
    std::vector<const Device *> devices;
    devices.reserve(entries.size());
    for (const Entry &entry : entries)
        devices.push_back(entry.device);
    return devices;
}

} // namespace dra::inventory
