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

// A cluster name that now reaches another cluster: the batch that says so keeps the old log
// apart under the archive name and starts the name afresh, deletions logged for followers.
TEST_F(CacheHistoryTest, ArchivingKeepsTheOldClusterLogApartAndStartsTheNameAfresh)
{
    apply(WatchBatch { .cluster = "lab",
        .changes
        = { added(makeSlice("a", "node-1", 1, "5")), added(makeSlice("b", "node-2", 2, "6")) },
        .listVersions = { { kResourceGroup, "ResourceSlice", "6" } },
        .streams = { stream("watching", "6") },
        .server = "https://old:6443",
        .clusterUid = "uid-old",
        .bookmarkGapMs = 30000 });
    const int64_t before = m_cache.currentRev().value();
    apply(WatchBatch { .cluster = "lab",
        .changes = { added(makeSlice("c", "node-1", 1, "2")) },
        .server = "https://new:6443",
        .clusterUid = "uid-new",
        .archiveHistoryAs = "lab@uid-old" });

    const std::vector<ObjectRecord> slices
        = m_cache.objects("lab", kResourceGroup, "ResourceSlice").value();
    ASSERT_EQ(slices.size(), 1u);
    EXPECT_EQ(slices[0].key.name, "c");
    EXPECT_EQ(m_cache.devices("lab").value().size(), 1u);
    EXPECT_TRUE(m_cache.streams("lab").value().empty());
    EXPECT_EQ(m_cache.listVersion("lab", kResourceGroup, "ResourceSlice").value(), std::nullopt);
    const std::vector<ClusterInfo> clusters = m_cache.clusters().value();
    ASSERT_EQ(clusters.size(), 1u); // the archive is a log, not a cluster to choose
    EXPECT_EQ(clusters[0].uid, "uid-new");
    EXPECT_EQ(clusters[0].server, "https://new:6443");
    EXPECT_EQ(clusters[0].bookmarkGapMs, 0);

    const std::vector<LoggedChange> archived
        = m_cache.history(HistoryQuery { .cluster = "lab@uid-old" }).value();
    ASSERT_EQ(archived.size(), 2u);
    EXPECT_EQ(archived[0].type, ChangeType::Added);
    EXPECT_LE(archived[1].rev, before);
    // The name's own log: the old objects leave (so whoever follows it drops them), then the new.
    const std::vector<LoggedChange> now
        = m_cache.history(HistoryQuery { .cluster = "lab" }).value();
    ASSERT_EQ(now.size(), 3u);
    EXPECT_GT(now[0].rev, before);
    EXPECT_EQ(now[0].type, ChangeType::Deleted);
    EXPECT_EQ(now[1].type, ChangeType::Deleted);
    EXPECT_EQ(now[2].type, ChangeType::Added);
    EXPECT_EQ(now[2].key.name, "c");
}

// An etcd restore, for the server's test hook: the state at a revision comes back, the later
// log goes and its revisions are issued again.
TEST_F(CacheHistoryTest, RollingBackRestoresTheStateThenAndReissuesLaterRevisions)
{
    apply(WatchBatch { .cluster = "lab", .changes = { added(makeSlice("a", "node-1", 1, "1")) } });
    const int64_t backup = m_cache.currentRev().value();
    apply(WatchBatch { .cluster = "lab",
        .changes = { modified(makeSlice("a", "node-1", 3, "2", "relabelled")),
            added(makeSlice("b", "node-2", 2, "3")) } });
    ASSERT_TRUE(m_cache.rollBackTo(backup).has_value());

    const std::vector<ObjectRecord> slices
        = m_cache.objects("lab", kResourceGroup, "ResourceSlice").value();
    ASSERT_EQ(slices.size(), 1u);
    EXPECT_EQ(slices[0].key.name, "a");
    EXPECT_EQ(slices[0].json, makeSlice("a", "node-1", 1, "1").json);
    EXPECT_EQ(m_cache.devices("lab").value().size(), 1u);
    EXPECT_EQ(m_cache.currentRev().value(), backup);
    apply(WatchBatch { .cluster = "lab", .changes = { added(makeSlice("c", "node-3", 1, "2")) } });
    EXPECT_EQ(m_cache.currentRev().value(), backup + 1);
}

} // namespace
