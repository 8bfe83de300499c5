// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/pool_status.h"

#include <gtest/gtest.h>

#include "tests/support/inventory_fixtures.h"

using namespace dra;
using namespace dra::inventory;
using dra::test::claimObject;
using dra::test::gpuDevice;
using dra::test::json;
using dra::test::listOf;
using dra::test::sliceObject;

namespace dra::inventory::pool_status_test {

// Pool n1 (node n1): gpu-0 allocated, gpu-1 held for admin access only, gpu-2 tainted NoExecute,
// gpu-3 free. Pool n2 declares two slices and publishes one: incomplete. Pool n3 is another
// driver's.
json poolInventory()
{
    json admin = claimObject("ops", "inspect", "n1", { "gpu-1" }, { "debug" });
    admin["status"]["allocation"]["devices"]["results"][0]["adminAccess"] = true;
    json other = sliceObject("n3", "n3", { gpuDevice("gpu-0") });
    other["spec"]["driver"] = "other.example.com";
    return listOf({
        sliceObject("n1", "n1",
            { gpuDevice("gpu-0"), gpuDevice("gpu-1"),
                gpuDevice("gpu-2", json::object(),
                    { { "taints", { { { "key", "xid-79" }, { "effect", "NoExecute" } } } } }),
                gpuDevice("gpu-3") },
            3),
        sliceObject("n2-a", "n2", { gpuDevice("gpu-0") }, 1, 2, "n2"),
        other,
        claimObject("ml", "train", "n1", { "gpu-0" }, { "p1" }),
        admin,
    });
}

} // namespace dra::inventory::pool_status_test

using dra::inventory::pool_status_test::poolInventory;

TEST(PoolStatusTest, CountsAsTheClusterCountsWithTaintsOrWithout)
{
    const SnapshotPtr snapshot = test::snapshotOf(poolInventory());
    const PoolQuery query { "gpu.example.com" };
    const PoolCount ours = countPools(*snapshot, query, TaintCounting::Counted);
    EXPECT_EQ(ours.poolCount, 2) << "the other driver's pool is not asked for";
    ASSERT_EQ(ours.pools.size(), 2u);
    const PoolTotals &n1 = ours.pools[0];
    EXPECT_EQ(n1.pool, "n1");
    EXPECT_EQ(n1.node, "n1");
    EXPECT_EQ(n1.generation, 3);
    EXPECT_EQ(n1.resourceSliceCount, 1);
    EXPECT_EQ(n1.total, 4);
    EXPECT_EQ(n1.allocated, 1) << "admin access allocates nothing";
    EXPECT_EQ(n1.unavailable, 1);
    EXPECT_EQ(n1.available, 2);

    const PoolTotals &n2 = ours.pools[1];
    EXPECT_EQ(n2.validationError,
        "PoolIncomplete: pool gpu.example.com/n2 is incomplete: observed 1/2 slices at "
        "generation 1");
    EXPECT_FALSE(n2.total) << "an incomplete pool's counts are unset";

    // 1.36 does not count taints: the tainted device is available.
    const PoolCount v136 = countPools(*snapshot, query, TaintCounting::NotCounted);
    EXPECT_EQ(v136.pools[0].unavailable, 0);
    EXPECT_EQ(v136.pools[0].available, 3);

    // A limit keeps the count of every match; a pool name narrows.
    const PoolCount one
        = countPools(*snapshot, { "gpu.example.com", "", 1 }, TaintCounting::Counted);
    EXPECT_EQ(one.poolCount, 2);
    EXPECT_EQ(one.pools.size(), 1u);
    EXPECT_EQ(
        countPools(*snapshot, { "gpu.example.com", "n2" }, TaintCounting::Counted).poolCount, 1);
}

TEST(PoolStatusTest, TheStatusReadsBackAsWritten)
{
    const SnapshotPtr snapshot = test::snapshotOf(poolInventory());
    const PoolCount ours = countPools(*snapshot, { "gpu.example.com" }, TaintCounting::Counted);
    const json status = poolStatusJson(ours, "2026-12-04T10:00:00Z");
    EXPECT_EQ(status["conditions"][0]["type"], "Complete");
    EXPECT_EQ(status["conditions"][0]["message"], "Calculated status for 2 pools (1 incomplete)");
    EXPECT_FALSE(status["pools"][1].contains("totalDevices"));
    const Result<PoolCount> read = poolCountFromStatus(status);
    ASSERT_TRUE(read) << read.error().message.toStdString();
    const PoolComparison same = comparePools({ "gpu.example.com" }, ours, *read);
    EXPECT_EQ(same.source, "cluster");
    EXPECT_EQ(same.differing, 0u);

    EXPECT_FALSE(poolCountFromStatus(json::object()));
    json bad = status;
    bad["pools"][0]["totalDevices"] = "four";
    const Result<PoolCount> broken = poolCountFromStatus(bad);
    ASSERT_FALSE(broken);
    EXPECT_NE(broken.error().message.toStdString().find("totalDevices is not an integer"),
        std::string::npos);
}

TEST(PoolStatusTest, EveryDifferenceFromTheClustersAnswerIsNamed)
{
    const SnapshotPtr snapshot = test::snapshotOf(poolInventory());
    const PoolQuery query { "gpu.example.com" };
    const PoolCount ours = countPools(*snapshot, query, TaintCounting::Counted);
    // A 1.36 cluster that has seen one more allocation and a pool we have not mirrored yet.
    PoolCount cluster = countPools(*snapshot, query, TaintCounting::NotCounted);
    cluster.pools[0].allocated = 2;
    cluster.pools[0].available = 2;
    cluster.pools.push_back(PoolTotals { "gpu.example.com", "n9", "n9", 1, 1, 8, 0, 8, 0 });
    cluster.poolCount = 3;

    const PoolComparison c = comparePools(query, ours, cluster);
    EXPECT_EQ(c.differing, 2u);
    EXPECT_EQ(c.note, "the cluster matched 3 pools, ours 2");
    ASSERT_EQ(c.rows.size(), 3u);
    const std::vector<std::string> &n1 = c.rows[0].differences;
    ASSERT_EQ(n1.size(), 2u);
    EXPECT_EQ(n1[0], "allocatedDevices: cluster 2, ours 1");
    EXPECT_EQ(n1[1],
        "unavailableDevices: cluster 0, ours 1 (Kubernetes 1.36 reports 0 here: it does not "
        "count tainted devices yet)");
    EXPECT_TRUE(c.rows[1].differences.empty()) << "n2 is incomplete on both sides";
    EXPECT_EQ(c.rows[2].differences,
        std::vector<std::string> { "not in ours (the mirror may lag the cluster)" });

    const PoolComparison alone = comparePools(query, ours, std::nullopt, "not asked");
    EXPECT_EQ(alone.source, "ours");
    EXPECT_EQ(alone.note, "not asked");
    EXPECT_EQ(poolComparisonJson(alone)["clusterPoolCount"], nullptr);
    EXPECT_EQ(poolQueryErrors({ "", "", 0 }).size(), 2u);
}
