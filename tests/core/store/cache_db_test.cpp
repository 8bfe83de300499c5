// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/cache_db.h"

#include <chrono>

#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "tests/core/store/store_fixtures.h"

using dra::Result;
using dra::common::Error;
using namespace dra::store;
using namespace dra::model;
using namespace dra::store::test;

namespace {

class CacheDbTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        Result<CacheDb> opened
            = CacheDb::open(m_dir.filePath(QStringLiteral("cache.db")), OpenMode::ReadWrite);
        ASSERT_TRUE(opened.has_value()) << opened.error().message.toStdString();
        m_cache = std::move(*opened);
    }

    BatchSummary apply(const WatchBatch &batch)
    {
        Result<BatchSummary> summary = m_cache.apply(batch);
        EXPECT_TRUE(summary.has_value()) << summary.error().message.toStdString();
        return summary.value_or(BatchSummary {});
    }

    std::vector<LoggedChange> log()
    {
        Result<std::vector<LoggedChange>> changes = m_cache.changesSince(0, 1000000);
        EXPECT_TRUE(changes.has_value());
        return changes.value_or(std::vector<LoggedChange> {});
    }

    std::vector<std::string> sliceNames()
    {
        std::vector<std::string> names;
        const std::vector<ObjectRecord> slices
            = m_cache.objects("lab", kResourceGroup, "ResourceSlice").value();
        for (const ObjectRecord &slice : slices)
            names.push_back(slice.key.name);
        return names;
    }

    QTemporaryDir m_dir;
    CacheDb m_cache;
};

} // namespace

TEST_F(CacheDbTest, ApplyCountsAndLogsEachKindOfChange)
{
    const BatchSummary first = apply(WatchBatch { .cluster = "lab",
        .changes
        = { added(makeSlice("a", "node-1", 2, "10")), added(makeSlice("b", "node-1", 2, "11")),
            added(makeSlice("c", "node-2", 2, "12")), added(makeClaim("ml", "train", "13")) } });
    EXPECT_EQ(first, (BatchSummary { .added = 4, .firstRev = 1, .lastRev = 4 }));

    const ObjectRecord claimBefore = m_cache.object("lab", claimKey("ml", "train")).value().value();
    const BatchSummary second = apply(WatchBatch { .cluster = "lab",
        .changes = { modified(makeSlice("a", "node-1", 2, "20", "v2")), // really changed
            modified(makeSlice("b", "node-1", 2, "11")), // resent as is
            added(makeSlice("c", "node-2", 2, "12")), // replayed ADDED
            deletedKey(claimKey("ml", "train")), // key only: relist
            deletedKey(claimKey("ml", "never-seen")) } });
    EXPECT_EQ(second,
        (BatchSummary { .added = 0,
            .modified = 1,
            .deleted = 1,
            .unchanged = 3,
            .firstRev = 5,
            .lastRev = 6 }));

    const std::vector<LoggedChange> changes = log();
    ASSERT_EQ(changes.size(), 6u);
    EXPECT_EQ(changes[4].type, ChangeType::Modified);
    EXPECT_EQ(changes[4].key, sliceKey("a"));
    EXPECT_EQ(changes[4].resourceVersion, "20");
    EXPECT_EQ(changes[4].json, makeSlice("a", "node-1", 2, "20", "v2").json);
    // A deletion without a final state logs the last state the cache held.
    EXPECT_EQ(changes[5].type, ChangeType::Deleted);
    EXPECT_EQ(changes[5].key, claimKey("ml", "train"));
    EXPECT_EQ(changes[5].json, claimBefore.json);
    EXPECT_EQ(changes[5].resourceVersion, "13");
    EXPECT_FALSE(m_cache.object("lab", claimKey("ml", "train")).value().has_value());

    const ObjectRecord a = m_cache.object("lab", sliceKey("a")).value().value();
    EXPECT_EQ(a.rev, 5);
    EXPECT_EQ(a.resourceVersion, "20");
    EXPECT_EQ(a.apiVersion, "resource.k8s.io/v1beta1");
    EXPECT_EQ(m_cache.object("lab", sliceKey("b")).value()->rev, 2); // untouched by the resend
    EXPECT_EQ(m_cache.currentRev(), int64_t(6));
}

TEST_F(CacheDbTest, ReimportingTheSameDataChangesNothing)
{
    WatchBatch import { .cluster = "lab",
        .replaceKinds = { { kResourceGroup, "ResourceSlice" } },
        .listVersions = { { kResourceGroup, "ResourceSlice", "100" } } };
    for (int i = 0; i < 20; ++i)
        import.changes.push_back(added(makeSlice("s" + std::to_string(i), "node-1", 4, "1")));
    EXPECT_EQ(apply(import).added, 20);
    const BatchSummary again = apply(import);
    EXPECT_EQ(again, (BatchSummary { .unchanged = 20 }));
    EXPECT_EQ(log().size(), 20u);
    EXPECT_EQ(m_cache.currentRev(), int64_t(20));
}

TEST_F(CacheDbTest, ReplaceKindsDeletesWhatTheRelistDidNotMention)
{
    apply(WatchBatch { .cluster = "lab",
        .changes
        = { added(makeSlice("a", "node-1", 2, "1")), added(makeSlice("b", "node-2", 3, "2")),
            added(makeSlice("c", "node-3", 2, "3")), added(makeClaim("ml", "train", "4")) } });
    apply(
        WatchBatch { .cluster = "other", .changes = { added(makeSlice("b", "node-9", 1, "1")) } });
    const ObjectRecord bBefore = m_cache.object("lab", sliceKey("b")).value().value();

    const BatchSummary relist = apply(WatchBatch { .cluster = "lab",
        .changes = { added(makeSlice("a", "node-1", 2, "1")),
            added(makeSlice("c", "node-3", 2, "30", "v2")) },
        .replaceKinds = { { kResourceGroup, "ResourceSlice" } },
        .listVersions = { { kResourceGroup, "ResourceSlice", "31" } } });
    EXPECT_EQ(relist,
        (BatchSummary {
            .modified = 1, .deleted = 1, .unchanged = 1, .firstRev = 6, .lastRev = 7 }));
    EXPECT_EQ(sliceNames(), (std::vector<std::string> { "a", "c" }));
    // Another kind, and the same name in another cluster, are not part of the relist.
    EXPECT_TRUE(m_cache.object("lab", claimKey("ml", "train")).value().has_value());
    EXPECT_TRUE(m_cache.object("other", sliceKey("b")).value().has_value());

    const std::vector<LoggedChange> changes = log();
    ASSERT_EQ(changes.size(), 7u);
    EXPECT_EQ(changes.back().type, ChangeType::Deleted);
    EXPECT_EQ(changes.back().key, sliceKey("b"));
    EXPECT_EQ(changes.back().json, bBefore.json);
    const std::vector<SliceDevice> devices = m_cache.devices("lab").value();
    for (const SliceDevice &device : devices)
        EXPECT_NE(device.slice, "b");
    EXPECT_EQ(m_cache.listVersion("lab", kResourceGroup, "ResourceSlice").value(),
        std::optional<std::string>("31"));
}

TEST_F(CacheDbTest, DevicesFollowTheirSlice)
{
    apply(WatchBatch { .cluster = "lab",
        .changes = { added(makeSlice("node-1-gpus", "node-1", 4, "1")),
            added(makeSlice("node-2-gpus", "node-2", 2, "2")),
            added(makeSlice("fabric", "", 3, "3")) } });
    EXPECT_EQ(m_cache.devices("lab").value().size(), 9u);
    const std::vector<SliceDevice> onNode1 = m_cache.devices("lab", "node-1").value();
    ASSERT_EQ(onNode1.size(), 4u);
    EXPECT_EQ(onNode1[0].slice, "node-1-gpus");
    EXPECT_EQ(onNode1[0].device, makeSlice("node-1-gpus", "node-1", 4, "1").devices[0]);
    const std::vector<SliceDevice> networked = m_cache.devices("lab", "").value();
    ASSERT_EQ(networked.size(), 3u);
    EXPECT_EQ(networked[0].device.pool, "fabric");

    // A slice that shrinks drops the devices it no longer lists; a deleted one drops all.
    apply(WatchBatch { .cluster = "lab",
        .changes = { modified(makeSlice("node-1-gpus", "node-1", 1, "4")),
            deletedKey(sliceKey("node-2-gpus")) } });
    EXPECT_EQ(m_cache.devices("lab", "node-1").value().size(), 1u);
    EXPECT_TRUE(m_cache.devices("lab", "node-2").value().empty());
    EXPECT_EQ(m_cache.devices("lab").value().size(), 4u);
}

TEST_F(CacheDbTest, RevisionsKeepGrowingAcrossDeletionsAndReopen)
{
    apply(WatchBatch { .cluster = "lab",
        .changes = { added(makeSlice("a", "n", 1, "1")), added(makeSlice("b", "n", 1, "2")) } });
    apply(WatchBatch {
        .cluster = "lab", .changes = { deletedKey(sliceKey("a")), deletedKey(sliceKey("b")) } });
    const QString path = m_cache.path();
    m_cache = CacheDb();
    m_cache = std::move(CacheDb::open(path, OpenMode::ReadWrite).value());
    EXPECT_EQ(m_cache.currentRev(), int64_t(4));
    const BatchSummary next
        = apply(WatchBatch { .cluster = "lab", .changes = { added(makeSlice("a", "n", 1, "3")) } });
    EXPECT_EQ(next.firstRev, 5);
    int64_t previous = 0;
    for (const LoggedChange &change : log()) {
        EXPECT_GT(change.rev, previous);
        previous = change.rev;
    }
}

TEST_F(CacheDbTest, ClustersListVersionsAndKindCountsAreRecorded)
{
    ASSERT_TRUE(m_cache
                    .setClusterInfo(ClusterInfo {
                        .name = "lab", .server = "https://lab:6443", .version = "v1.32.1" })
                    .has_value());
    apply(WatchBatch { .cluster = "lab",
        .changes = { added(makeSlice("a", "n", 1, "1")), added(makeSlice("b", "n", 1, "2")),
            added(makeClaim("ml", "x", "3")) },
        .listVersions = { { kResourceGroup, "ResourceSlice", "77" },
            { kResourceGroup, "ResourceClaim", "78" } } });
    apply(WatchBatch { .cluster = "edge", .changes = { added(makeClaim("ml", "y", "1")) } });

    const std::vector<ClusterInfo> clusters = m_cache.clusters().value();
    ASSERT_EQ(clusters.size(), 2u);
    EXPECT_EQ(clusters[0].name, "edge");
    EXPECT_EQ(clusters[1].name, "lab");
    EXPECT_EQ(clusters[1].server, "https://lab:6443");
    EXPECT_EQ(clusters[1].version, "v1.32.1");
    EXPECT_GT(clusters[1].lastSync, 0);

    EXPECT_EQ(m_cache.listVersion("lab", kResourceGroup, "ResourceClaim").value(),
        std::optional<std::string>("78"));
    EXPECT_EQ(m_cache.listVersion("edge", kResourceGroup, "ResourceClaim").value(), std::nullopt);

    const std::vector<KindCount> counts = m_cache.kindCounts("lab").value();
    ASSERT_EQ(counts.size(), 2u);
    EXPECT_EQ(counts[0].kind, "ResourceClaim");
    EXPECT_EQ(counts[0].count, 1);
    EXPECT_EQ(counts[1].kind, "ResourceSlice");
    EXPECT_EQ(counts[1].count, 2);

    const std::vector<ObjectRecord> inMl
        = m_cache.objects("lab", kResourceGroup, "ResourceClaim", "ml").value();
    ASSERT_EQ(inMl.size(), 1u);
    EXPECT_TRUE(m_cache.objects("lab", kResourceGroup, "ResourceClaim", "default").value().empty());
}

TEST_F(CacheDbTest, BatchThatFailsMidwayLeavesNothing)
{
    ObjectRecord nameless = makeClaim("ml", "x", "3");
    nameless.key.name.clear();
    const Result<BatchSummary> failed = m_cache.apply(WatchBatch { .cluster = "lab",
        .changes = { added(makeSlice("a", "node-1", 4, "1")),
            added(makeSlice("b", "node-1", 4, "2")), added(nameless) },
        .listVersions = { { kResourceGroup, "ResourceSlice", "9" } } });
    ASSERT_FALSE(failed.has_value());
    EXPECT_EQ(failed.error().code, Error::Code::Database);
    EXPECT_TRUE(failed.error().message.startsWith(
        QStringLiteral("cannot store ResourceClaim ml/ of cluster lab: ")))
        << failed.error().message.toStdString();

    EXPECT_TRUE(sliceNames().empty());
    EXPECT_TRUE(m_cache.devices("lab").value().empty());
    EXPECT_TRUE(log().empty());
    EXPECT_TRUE(m_cache.clusters().value().empty());
    EXPECT_EQ(m_cache.listVersion("lab", kResourceGroup, "ResourceSlice").value(), std::nullopt);
    // No revision was used up by the failed batch.
    EXPECT_EQ(m_cache.currentRev(), int64_t(0));
    EXPECT_EQ(apply(WatchBatch {
                        .cluster = "lab", .changes = { added(makeSlice("a", "node-1", 4, "1")) } })
                  .firstRev,
        1);
}

TEST_F(CacheDbTest, ApplyAllReportsEachBatchWithRevisions)
{
    apply(WatchBatch { .cluster = "lab", .changes = { added(makeClaim("ml", "old", "1")) } });
    std::vector<WatchBatch> batches;
    batches.push_back(WatchBatch { .cluster = "lab",
        .changes = { added(makeSlice("a", "n", 2, "2")), added(makeClaim("ml", "old", "1")) } });
    batches.push_back(
        WatchBatch { .cluster = "lab", .changes = { deletedKey(claimKey("ml", "old")) } });
    Result<std::vector<CommittedBatch>> committed = m_cache.applyAll(std::move(batches));
    ASSERT_TRUE(committed.has_value()) << committed.error().message.toStdString();
    ASSERT_EQ(committed->size(), 2u);
    const CommittedBatch &first = (*committed)[0];
    EXPECT_EQ(first.cluster, "lab");
    EXPECT_EQ(
        first.summary, (BatchSummary { .added = 1, .unchanged = 1, .firstRev = 2, .lastRev = 2 }));
    ASSERT_EQ(first.changes.size(), 1u);
    EXPECT_EQ(first.changes[0].rev, 2);
    EXPECT_EQ(first.changes[0].object.rev, 2);
    EXPECT_EQ(first.changes[0].object.devices.size(), 2u);
    const CommittedBatch &second = (*committed)[1];
    ASSERT_EQ(second.changes.size(), 1u);
    EXPECT_EQ(second.changes[0].type, ChangeType::Deleted);
    EXPECT_EQ(second.changes[0].rev, 3);
    // The deletion carries the last state, so a consumer can still show what went away.
    EXPECT_EQ(second.changes[0].object.json, makeClaim("ml", "old", "1").json);
}

TEST_F(CacheDbTest, BulkLoadOfFiveThousandSlices)
{
    WatchBatch load { .cluster = "big", .replaceKinds = { { kResourceGroup, "ResourceSlice" } } };
    for (int i = 0; i < 5000; ++i)
        load.changes.push_back(added(
            makeSlice("slice-" + std::to_string(i), "node-" + std::to_string(i / 2), 8, "1")));
    const auto start = std::chrono::steady_clock::now();
    const BatchSummary summary = apply(load);
    const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    RecordProperty("bulk_load_ms", int(elapsed.count()));
    std::printf("bulk load of 5000 slices / 40000 devices: %lld ms\n",
        static_cast<long long>(elapsed.count()));
    EXPECT_EQ(summary.added, 5000);
    EXPECT_EQ(summary.lastRev - summary.firstRev, 4999);
    EXPECT_EQ(m_cache.devices("big").value().size(), 40000u);
    EXPECT_EQ(m_cache.devices("big", "node-7").value().size(), 16u);
    EXPECT_EQ(apply(load), (BatchSummary { .unchanged = 5000 }));
}
