// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The order the device table opens in: by node, GPUs before their MIG devices before NICs,
// names as people read them.
#include "core/inventory/device_category.h"

#include <gtest/gtest.h>

#include "core/inventory/snapshot.h"
#include "tests/support/inventory_fixtures.h"

namespace dra::inventory {
namespace {

std::vector<std::string> namesOnNode(
    const Snapshot &snapshot, const std::string &node, DeviceCategory category)
{
    std::vector<std::string> names;
    for (const Device *device : devicesInBrowseOrder(snapshot))
        if (device->node == node && categoryOf(*device) == category)
            names.push_back(device->key.device);
    return names;
}

TEST(DeviceCategoryTest, NodesInOrderAndOnEachGpusThenMigDevicesThenNics)
{
    const SnapshotPtr snapshot = test::snapshotOf(test::presetList("mixed"));
    const std::vector<const Device *> devices = devicesInBrowseOrder(*snapshot);
    ASSERT_EQ(devices.size(), snapshot->devices().size());
    for (size_t i = 1; i < devices.size(); ++i) {
        const Device &before = *devices[i - 1], &after = *devices[i];
        EXPECT_FALSE(browsesBefore(after, before))
            << after.key.device << " on " << after.node << " is listed after " << before.key.device
            << " on " << before.node;
        if (before.node == after.node) {
            EXPECT_LE(int(categoryOf(before)), int(categoryOf(after)))
                << before.key.device << " / " << after.key.device;
        }
    }
}

TEST(DeviceCategoryTest, NamesAreInTheOrderPeopleReadThem)
{
    const SnapshotPtr snapshot = test::snapshotOf(test::presetList("mixed"));
    EXPECT_EQ(namesOnNode(*snapshot, "a100-mig-000", DeviceCategory::Gpu),
        (std::vector<std::string> {
            "gpu-0", "gpu-1", "gpu-2", "gpu-3", "gpu-4", "gpu-5", "gpu-6", "gpu-7" }));
    const std::vector<std::string> partitions
        = namesOnNode(*snapshot, "a100-mig-000", DeviceCategory::Partition);
    ASSERT_FALSE(partitions.empty());
    EXPECT_EQ(partitions.front().rfind("gpu-0-", 0), 0u) << partitions.front();
    EXPECT_EQ(partitions.back().rfind("gpu-7-", 0), 0u) << partitions.back();
}

TEST(DeviceCategoryTest, NumbersInNamesCompareByValue)
{
    const SnapshotPtr snapshot = test::snapshotOf(test::presetList("mixed"));
    const Device *any = snapshot->devices().front();
    Device a = *any, b = *any;
    a.key.device = "gpu-2";
    b.key.device = "gpu-10";
    EXPECT_TRUE(browsesBefore(a, b));
    EXPECT_FALSE(browsesBefore(b, a));
    a.key.device = "gpu-02";
    b.key.device = "gpu-2";
    EXPECT_NE(browsesBefore(a, b), browsesBefore(b, a)) << "one order, even for equal numbers";
    a.node = "h100-9";
    b.node = "h100-10";
    a.key.device = b.key.device = "gpu-0";
    EXPECT_TRUE(browsesBefore(a, b)) << "nodes too";
}

} // namespace
} // namespace dra::inventory
