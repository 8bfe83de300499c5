// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What a live mirror keeps in the cache besides objects: stream states, namespace-scoped
// relists, the cluster's server and version, history queries and the retention policy.
#include "core/store/cache_db.h"

#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

#include "tests/core/store/store_fixtures.h"

using dra::Result;
using namespace dra::store;
using namespace dra::model;
using namespace dra::store::test;

namespace {

class CacheHistoryTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        Result<CacheDb> opened
            = CacheDb::open(m_dir.filePath(QStringLiteral("cache.db")), OpenMode::ReadWrite);
        ASSERT_TRUE(opened.has_value()) << opened.error().message.toStdString();
        m_cache = std::move(*opened);
    }

    void apply(const WatchBatch &batch)
    {
        Result<BatchSummary> summary = m_cache.apply(batch);
        ASSERT_TRUE(summary.has_value()) << summary.error().message.toStdString();
    }

    StreamRecord stream(const std::string &state, const std::string &rv, const std::string &ns = {})
    {
        return StreamRecord { kResourceGroup, "ResourceClaim", ns, state,
            state == "stale" ? "connection refused" : "", "resource.k8s.io/v1beta2", rv };
    }

    QTemporaryDir m_dir;
    CacheDb m_cache;
};

TEST_F(CacheHistoryTest, StreamStatesAreKeptAndSinceMovesOnlyWhenTheStateChanges)
{
    apply(WatchBatch { .cluster = "lab", .streams = { stream("watching", "10") } });
    const StreamRecord first = m_cache.streams("lab").value().at(0);
    EXPECT_EQ(first.state, "watching");
    EXPECT_EQ(first.apiVersion, "resource.k8s.io/v1beta2");
    EXPECT_GT(first.since, 0);
    QThread::msleep(5); // timestamps are in milliseconds
    apply(WatchBatch { .cluster = "lab", .streams = { stream("watching", "12") } });
    const StreamRecord same = m_cache.streams("lab").value().at(0);
    EXPECT_EQ(same.resourceVersion, "12");
    EXPECT_EQ(same.since, first.since);
    EXPECT_GT(same.updatedAt, first.updatedAt);
    QThread::msleep(5);
    apply(WatchBatch { .cluster = "lab", .streams = { stream("stale", "12") } });
    const StreamRecord stale = m_cache.streams("lab").value().at(0);
    EXPECT_EQ(stale.reason, "connection refused");
    EXPECT_GT(stale.since, first.since);
    EXPECT_TRUE(m_cache.streams("other").value().empty());
}

TEST_F(CacheHistoryTest, NamespaceRelistDeletesVanishedObjectsOfThatNamespaceOnly)
{
    apply(WatchBatch { .cluster = "lab",
        .changes = { added(makeClaim("ml", "a", "1")), added(makeClaim("ml", "b", "1")),
            added(makeClaim("web", "c", "1")) } });
    apply(WatchBatch { .cluster = "lab",
        .changes = { added(makeClaim("ml", "a", "1")) },
        .replaceNamespaces = { { kResourceGroup, "ResourceClaim", "ml" } } });
    std::vector<std::string> names;
    const std::vector<ObjectRecord> claims
        = m_cache.objects("lab", kResourceGroup, "ResourceClaim").value();
    for (const ObjectRecord &claim : claims)
        names.push_back(claim.key.ns + "/" + claim.key.name);
    EXPECT_EQ(names, (std::vector<std::string> { "ml/a", "web/c" }));
    const std::vector<LoggedChange> log = m_cache.changesSince(0, 100).value();
    ASSERT_EQ(log.size(), 4u);
    EXPECT_EQ(log.back().type, ChangeType::Deleted);
    EXPECT_EQ(log.back().key, claimKey("ml", "b"));
}

TEST_F(CacheHistoryTest, ServerAndVersionOfTheClusterAreRecorded)
{
    apply(WatchBatch {
        .cluster = "lab", .server = "https://10.0.0.1:6443", .serverVersion = "v1.34.2" });
    apply(WatchBatch { .cluster = "lab", .changes = { added(makeClaim("ml", "a", "1")) } });
    const std::vector<ClusterInfo> clusters = m_cache.clusters().value();
    ASSERT_EQ(clusters.size(), 1u);
    EXPECT_EQ(clusters[0].server, "https://10.0.0.1:6443");
    EXPECT_EQ(clusters[0].version, "v1.34.2");
}

TEST_F(CacheHistoryTest, HistoryFiltersAndStateAtATime)
{
    apply(WatchBatch { .cluster = "lab",
        .changes = { added(makeClaim("ml", "a", "1")), added(makeSlice("s", "n", 1, "1")) } });
    const int64_t afterFirst = m_cache.changesSince(0, 10).value().back().at;
    QThread::msleep(5);
    apply(
        WatchBatch { .cluster = "lab", .changes = { modified(makeClaim("ml", "a", "2", "v2")) } });
    apply(WatchBatch { .cluster = "lab", .changes = { deletedKey(claimKey("ml", "a")) } });

    HistoryQuery claims { .cluster = "lab", .group = kResourceGroup, .kind = "ResourceClaim" };
    const std::vector<LoggedChange> all = m_cache.history(claims).value();
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[2].type, ChangeType::Deleted);
    claims.name = "a";
    claims.sinceMs = afterFirst + 1;
    EXPECT_EQ(m_cache.history(claims).value().size(), 2u);
    HistoryQuery slices { .cluster = "lab", .group = kResourceGroup, .kind = "ResourceSlice" };
    EXPECT_EQ(m_cache.history(slices).value().size(), 1u);

    const std::optional<LoggedChange> then
        = m_cache.changeAt("lab", claimKey("ml", "a"), afterFirst).value();
    ASSERT_TRUE(then.has_value());
    EXPECT_EQ(then->resourceVersion, "1");
    const std::optional<LoggedChange> now
        = m_cache.changeAt("lab", claimKey("ml", "a"), INT64_MAX).value();
    EXPECT_EQ(now->type, ChangeType::Deleted);
    EXPECT_FALSE(
        m_cache.changeAt("lab", claimKey("ml", "a"), afterFirst - 60000).value().has_value());
}

TEST_F(CacheHistoryTest, RetentionTrimsTheLogByAgeAndSizeButKeepsObjectsAndRevisions)
{
    WatchBatch load { .cluster = "lab" };
    for (int i = 0; i < 200; ++i)
        load.changes.push_back(added(makeSlice("s" + std::to_string(i), "n", 2, "1")));
    apply(load);
    const int64_t rev = m_cache.currentRev().value();
    const int64_t now = m_cache.changesSince(0, 1).value().front().at;

    // Nothing is older than an hour.
    EXPECT_EQ(m_cache.applyRetention({ .maxAgeMs = 3600 * 1000 }, now).value().deletedChanges, 0);
    // Everything is older than 1 ms an hour from now.
    RetentionSummary aged = m_cache.applyRetention({ .maxAgeMs = 1 }, now + 3600 * 1000).value();
    EXPECT_EQ(aged.deletedChanges, 200);
    EXPECT_EQ(m_cache.changesSince(0, 1000).value().size(), 0u);
    EXPECT_EQ(m_cache.objects("lab", kResourceGroup, "ResourceSlice").value().size(), 200u);
    EXPECT_EQ(m_cache.currentRev().value(), rev); // revisions are never reused

    WatchBatch relabel { .cluster = "lab" };
    for (int i = 0; i < 200; ++i)
        relabel.changes.push_back(modified(makeSlice("s" + std::to_string(i), "n", 2, "2", "x")));
    apply(relabel);
    // Exactly the ten newest rows fit (each counts its JSON plus 64 bytes of row overhead).
    const std::vector<LoggedChange> before = m_cache.changesSince(0, 1000).value();
    int64_t tenNewest = 0;
    for (size_t i = before.size() - 10; i < before.size(); ++i)
        tenNewest += int64_t(before[i].json.size()) + 64;
    RetentionSummary sized = m_cache.applyRetention({ .maxBytes = tenNewest }, now).value();
    EXPECT_EQ(sized.keptChanges, 10);
    const std::vector<LoggedChange> kept = m_cache.changesSince(0, 1000).value();
    ASSERT_EQ(kept.size(), 10u);
    EXPECT_EQ(kept.back().rev, m_cache.currentRev().value()); // the newest are the ones kept
    EXPECT_EQ(m_cache.oldestChange().value().second, kept.front().rev);
    EXPECT_LT(sized.bytesAfter, sized.bytesBefore); // VACUUM gave the space back
}

TEST(CacheMigrationTest, VersionOneFilesGainStreamColumns)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    {
        SchemaSpec v1 = CacheDb::schema();
        v1.migrations = v1.migrations.first(1);
        Result<DbFile> old = openDbFile(path, OpenMode::ReadWrite, {}, v1);
        ASSERT_TRUE(old.has_value()) << old.error().message.toStdString();
        ASSERT_TRUE(old->db
                        .exec("INSERT INTO streams (cluster, grp, kind, ns, state, updated_at) "
                              "VALUES ('lab', '', 'Pod', '', 'watching', 5)")
                        .has_value());
    }
    Result<CacheDb> migrated = CacheDb::open(path, OpenMode::ReadWrite);
    ASSERT_TRUE(migrated.has_value()) << migrated.error().message.toStdString();
    const std::vector<StreamRecord> streams = migrated->streams("lab").value();
    ASSERT_EQ(streams.size(), 1u);
    EXPECT_EQ(streams[0].state, "watching");
    EXPECT_EQ(streams[0].apiVersion, "");
}

} // namespace
