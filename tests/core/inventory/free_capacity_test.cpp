// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/free_capacity.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/support/inventory_fixtures.h"

using namespace dra;
using namespace dra::inventory;
using dra::test::claimObject;
using dra::test::counters;
using dra::test::deviceClass;
using dra::test::gpuDevice;
using dra::test::json;
using dra::test::listOf;
using dra::test::sliceObject;

namespace {

// A partition of the counter set `set` using memory slices [first, first + count).
json partition(const std::string &name, const std::string &profile, const std::string &set,
    int first, int count)
{
    json device = gpuDevice(name, { { "profile", { { "string", profile } } } });
    device["attributes"]["type"] = { { "string", "mig" } };
    std::vector<std::pair<std::string, std::string>> used;
    for (int slice = first; slice < first + count; ++slice)
        used.emplace_back("memory-slice-" + std::to_string(slice), "1");
    device["consumesCounters"] = { { { "counterSet", set }, { "counters", counters(used) } } };
    return device;
}

json memorySlices(const std::string &name, int count)
{
    std::vector<std::pair<std::string, std::string>> slices;
    for (int slice = 0; slice < count; ++slice)
        slices.emplace_back("memory-slice-" + std::to_string(slice), "1");
    return { { "name", name }, { "counters", counters(slices) } };
}

// Node n1, counted by hand in the test below:
//   gpu-0: a whole GPU over 8 memory slices, with 1g placements on slices 0..6 and 3g
//          placements on 0-3 and 4-7; the 1g on slice 0 is allocated.
//   gpu-1 free, gpu-2 tainted NoSchedule, gpu-3 allocated, gpu-4 held with admin access only.
// Node n2: three 2g placements over 4 slices overlapping by one (0-1, 1-2, 2-3).
json handCountedInventory()
{
    json whole = gpuDevice("gpu-0");
    whole["consumesCounters"]
        = { { { "counterSet", "gpu-0-set" }, { "counters", memorySlices("", 8)["counters"] } } };
    std::vector<json> n1 = { whole };
    for (int slice = 0; slice < 7; ++slice)
        n1.push_back(
            partition("gpu-0-1g-" + std::to_string(slice), "1g.10gb", "gpu-0-set", slice, 1));
    n1.push_back(partition("gpu-0-3g-0", "3g.40gb", "gpu-0-set", 0, 4));
    n1.push_back(partition("gpu-0-3g-4", "3g.40gb", "gpu-0-set", 4, 4));
    n1.push_back(gpuDevice("gpu-1"));
    n1.push_back(gpuDevice("gpu-2", json::object(),
        { { "taints", { { { "key", "broken" }, { "effect", "NoSchedule" } } } } }));
    n1.push_back(gpuDevice("gpu-3"));
    n1.push_back(gpuDevice("gpu-4"));
    json admin = claimObject("ops", "inspect", "n1", { "gpu-4" }, { "debug" });
    admin["status"]["allocation"]["devices"]["results"][0]["adminAccess"] = true;
    return listOf({
        sliceObject(
            "n1", "n1", n1, 1, 1, "n1", { { "sharedCounters", { memorySlices("gpu-0-set", 8) } } }),
        sliceObject("n2", "n2",
            { partition("gpu-0-2g-0", "2g.20gb", "s", 0, 2),
                partition("gpu-0-2g-1", "2g.20gb", "s", 1, 2),
                partition("gpu-0-2g-2", "2g.20gb", "s", 2, 2) },
            1, 1, "n2", { { "sharedCounters", { memorySlices("s", 4) } } }),
        claimObject("ml", "small", "n1", { "gpu-0-1g-0" }, { "p1" }),
        claimObject("ml", "big", "n1", { "gpu-3" }, { "p2" }),
        admin,
        deviceClass("gpu", "device.attributes['gpu.example.com'].type == 'gpu'"),
        deviceClass("mig", "device.attributes['gpu.example.com'].type == 'mig'"),
    });
}

const FreeCapacity *group(const std::vector<FreeCapacity> &groups, const std::string &name)
{
    const auto it = std::ranges::find(groups, name, &FreeCapacity::group);
    return it == groups.end() ? nullptr : &*it;
}

const ProfileCapacity *profile(const FreeCapacity &capacity, const std::string &name)
{
    const auto it = std::ranges::find(capacity.profiles, name, &ProfileCapacity::profile);
    return it == capacity.profiles.end() ? nullptr : &*it;
}

} // namespace

TEST(FreeCapacityTest, PerNodeMatchesTheHandCount)
{
    const SnapshotPtr snapshot = test::snapshotOf(handCountedInventory());
    const std::vector<FreeCapacity> nodes = freeCapacity(*snapshot, FreeGrouping::Node);
    ASSERT_EQ(nodes.size(), 2u);
    const FreeCapacity *n1 = group(nodes, "n1");
    ASSERT_NE(n1, nullptr);
    EXPECT_EQ(n1->devices, 14);
    EXPECT_EQ(n1->allocated, 2) << "the 1g on slice 0 and gpu-3; admin access allocates nothing";
    EXPECT_EQ(n1->blocked, 2) << "the whole gpu-0 and the 3g on slices 0-3 need slice 0";
    EXPECT_EQ(n1->tainted, 1);
    EXPECT_EQ(n1->free, 9);
    EXPECT_EQ(n1->wholeTotal, 5);
    EXPECT_EQ(n1->wholeFree, 2) << "gpu-1 and gpu-4";
    ASSERT_EQ(n1->profiles.size(), 2u);
    const ProfileCapacity *small = profile(*n1, "1g.10gb");
    ASSERT_NE(small, nullptr);
    EXPECT_EQ(small->total, 7);
    EXPECT_EQ(small->free, 6);
    EXPECT_EQ(small->fit, 6);
    const ProfileCapacity *large = profile(*n1, "3g.40gb");
    ASSERT_NE(large, nullptr);
    EXPECT_EQ(large->total, 2);
    EXPECT_EQ(large->free, 1);
    EXPECT_EQ(large->fit, 1);

    // Overlapping placements: each is free on its own, only two fit together (0-1 and 2-3).
    const FreeCapacity *n2 = group(nodes, "n2");
    ASSERT_NE(n2, nullptr);
    const ProfileCapacity *overlapping = profile(*n2, "2g.20gb");
    ASSERT_NE(overlapping, nullptr);
    EXPECT_EQ(overlapping->total, 3);
    EXPECT_EQ(overlapping->free, 3);
    EXPECT_EQ(overlapping->fit, 2);
    EXPECT_EQ(n2->wholeTotal, 0);
}

TEST(FreeCapacityTest, PerClassPoolAndModel)
{
    const SnapshotPtr snapshot = test::snapshotOf(handCountedInventory());
    const std::vector<FreeCapacity> classes = freeCapacity(*snapshot, FreeGrouping::Class);
    ASSERT_EQ(classes.size(), 2u);
    const FreeCapacity *gpus = group(classes, "gpu");
    ASSERT_NE(gpus, nullptr);
    EXPECT_EQ(gpus->devices, 5);
    EXPECT_EQ(gpus->wholeFree, 2);
    const FreeCapacity *migs = group(classes, "mig");
    ASSERT_NE(migs, nullptr);
    EXPECT_EQ(migs->devices, 12);
    EXPECT_EQ(migs->wholeTotal, 0);
    EXPECT_EQ(profile(*migs, "1g.10gb")->fit, 6);
    EXPECT_EQ(profile(*migs, "2g.20gb")->fit, 2);

    const std::vector<FreeCapacity> pools = freeCapacity(*snapshot, FreeGrouping::Pool);
    ASSERT_EQ(pools.size(), 2u);
    EXPECT_EQ(pools[0].group, "gpu.example.com/n1");
    EXPECT_EQ(pools[0].devices, 14);

    const std::vector<FreeCapacity> models = freeCapacity(*snapshot, FreeGrouping::Model);
    ASSERT_EQ(models.size(), 1u);
    EXPECT_EQ(models[0].group, "Example GPU");
    EXPECT_EQ(models[0].devices, 17);
    EXPECT_EQ(models[0].free, 12);
}

TEST(FreeCapacityTest, MigPresetFitsWhatItsCountersLeave)
{
    const SnapshotPtr snapshot = test::sharedPresetSnapshot("a100-mig");
    const std::vector<FreeCapacity> models = freeCapacity(*snapshot, FreeGrouping::Model);
    ASSERT_EQ(models.size(), 1u);
    const FreeCapacity &a100 = models[0];
    EXPECT_EQ(a100.wholeTotal, 8);
    for (const ProfileCapacity &entry : a100.profiles) {
        EXPECT_LE(entry.fit, entry.free) << entry.profile;
        EXPECT_LE(entry.free, entry.total) << entry.profile;
    }
    // An A100 has seven 1g.10gb slots; each GPU that is neither whole-allocated nor partitioned
    // contributes all seven.
    const ProfileCapacity *small = profile(a100, "1g.10gb");
    ASSERT_NE(small, nullptr);
    EXPECT_GE(small->fit, 7 * a100.wholeFree);
    const std::vector<FreeCapacity> total
        = { freeCapacityOf(*snapshot, "all", snapshot->devices()) };
    EXPECT_EQ(total[0].devices, 152);
}

TEST(FreeCapacityTest, GroupingNamesRoundTrip)
{
    for (const char *name : { "pool", "node", "class", "model" })
        EXPECT_EQ(groupingName(*parseGrouping(name)), name);
    EXPECT_FALSE(parseGrouping("rack").has_value());
    const nlohmann::json json
        = toJson(FreeCapacity { "n1", 3, 1, 1, 1, 0, 2, 1, { { "1g.10gb", 7, 6, 5 } } });
    EXPECT_EQ(json["whole"], (nlohmann::json { { "total", 2 }, { "free", 1 } }));
    EXPECT_EQ(json["profiles"][0]["fit"], 5);
}
