// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/cache_db.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/store/state_db.h"
#include "tests/core/store/store_fixtures.h"

using dra::Result;
using dra::common::Error;
using namespace dra::store;
using namespace dra::model;
using namespace dra::store::test;

namespace {

// Fills a cache with enough slices to span many pages, then closes it (checkpointing the WAL).
void fillCache(const QString &path)
{
    Result<CacheDb> cache = CacheDb::open(path, OpenMode::ReadWrite);
    ASSERT_TRUE(cache.has_value()) << cache.error().message.toStdString();
    WatchBatch batch { .cluster = "lab" };
    for (int i = 0; i < 300; ++i)
        batch.changes.push_back(
            added(makeSlice("slice-" + std::to_string(i), "node-" + std::to_string(i), 8, "1")));
    ASSERT_TRUE(cache->apply(batch).has_value());
}

std::string text(const Error &error)
{
    return error.message.toStdString();
}

} // namespace

TEST(CacheDbOpenTest, NewCacheGetsTheSchemaAndIdentity)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sub/cache.db"));
    ASSERT_TRUE(CacheDb::open(path, OpenMode::ReadWrite).has_value());

    Result<sqlite::Database> raw = sqlite::Database::open(path, sqlite::Database::Access::ReadOnly);
    ASSERT_TRUE(raw.has_value());
    EXPECT_EQ(
        raw->queryInt("PRAGMA application_id"), int64_t(int64_t(CacheDb::schema().applicationId)));
    EXPECT_EQ(raw->queryInt("PRAGMA user_version"),
        int64_t(int64_t(CacheDb::schema().migrations.size())));
    EXPECT_EQ(
        raw->queryInt("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN "
                      "('objects', 'devices', 'list_versions', 'streams', 'clusters', 'changes')"),
        int64_t(6));
    EXPECT_EQ(raw->queryInt("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name IN "
                            "('devices_by_node', 'devices_by_driver', 'devices_by_pool')"),
        int64_t(3));
}

TEST(CacheDbOpenTest, ForeignSqliteFileIsRefusedWithAHint)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    {
        Result<sqlite::Database> other
            = sqlite::Database::open(path, sqlite::Database::Access::ReadWriteCreate);
        ASSERT_TRUE(other.has_value());
        ASSERT_TRUE(other->exec("CREATE TABLE bookmarks (url TEXT)").has_value());
    }
    const Result<CacheDb> cache = CacheDb::open(path, OpenMode::ReadWrite);
    ASSERT_FALSE(cache.has_value());
    EXPECT_EQ(cache.error().message,
        path
            + QStringLiteral(
                " is not a DRA Console cache (an SQLite database of another application); "
                "use `dractl cache rebuild` or --reset"));

    // Our own state file is not a cache either.
    const QString statePath = dir.filePath(QStringLiteral("state.db"));
    ASSERT_TRUE(StateDb::open(statePath, OpenMode::ReadWrite).has_value());
    const Result<CacheDb> wrongFile = CacheDb::open(statePath, OpenMode::ReadOnly);
    ASSERT_FALSE(wrongFile.has_value());
    EXPECT_TRUE(wrongFile.error().message.contains(
        QStringLiteral("is not a DRA Console cache (application_id 0x44524153)")))
        << text(wrongFile.error());
}

TEST(CacheDbOpenTest, GarbageFileIsRefusedAndResetReplacesIt)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(8192, 'x').prepend("kubeconfig: not a database\n"));
    }
    for (OpenMode mode : { OpenMode::ReadWrite, OpenMode::ReadOnly }) {
        const Result<CacheDb> cache = CacheDb::open(path, mode);
        ASSERT_FALSE(cache.has_value());
        EXPECT_EQ(cache.error().message,
            path
                + QStringLiteral(" is not a DRA Console cache (not an SQLite database); "
                                 "use `dractl cache rebuild` or --reset"));
    }
    Result<CacheDb> reset = CacheDb::open(path, OpenMode::ReadWrite, OpenOptions { .reset = true });
    ASSERT_TRUE(reset.has_value()) << text(reset.error());
    EXPECT_EQ(reset->currentRev(), int64_t(0));
}

TEST(CacheDbOpenTest, DamagedPagesAreReportedAndResetRecovers)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    fillCache(path);
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::ReadWrite));
        const qint64 pages = file.size() / 4096;
        ASSERT_GT(pages, 40);
        // Overwrite a run of pages in the middle, as a failing disk or a stray writer would.
        for (qint64 page = pages / 2; page < pages / 2 + 8; ++page) {
            file.seek(page * 4096);
            file.write(QByteArray(4096, char(0xA5)));
        }
    }
    for (OpenMode mode : { OpenMode::ReadWrite, OpenMode::ReadOnly }) {
        const Result<CacheDb> cache = CacheDb::open(path, mode);
        ASSERT_FALSE(cache.has_value());
        EXPECT_EQ(cache.error().code, Error::Code::Database);
        EXPECT_TRUE(cache.error().message.startsWith(path + QStringLiteral(" is damaged (")))
            << text(cache.error());
        EXPECT_TRUE(cache.error().message.endsWith(
            QStringLiteral("; use `dractl cache rebuild` or --reset")))
            << text(cache.error());
    }
    // A reader that must show data fast opens without the check and runs it later: then the
    // damage is reported just the same.
    Result<CacheDb> deferred
        = CacheDb::open(path, OpenMode::ReadOnly, OpenOptions { .deferQuickCheck = true });
    ASSERT_TRUE(deferred.has_value()) << text(deferred.error());
    const Result<void> checked = deferred->quickCheck();
    ASSERT_FALSE(checked.has_value());
    EXPECT_TRUE(checked.error().message.startsWith(path + QStringLiteral(" is damaged (")))
        << text(checked.error());
    deferred = CacheDb();

    Result<CacheDb> reset = CacheDb::open(path, OpenMode::ReadWrite, OpenOptions { .reset = true });
    ASSERT_TRUE(reset.has_value()) << text(reset.error());
    EXPECT_TRUE(reset->quickCheck().has_value());
    Result<std::vector<ObjectRecord>> slices
        = reset->objects("lab", kResourceGroup, "ResourceSlice");
    ASSERT_TRUE(slices.has_value());
    EXPECT_TRUE(slices->empty());
    WatchBatch batch { .cluster = "lab",
        .changes = { added(makeSlice("fresh", "node-1", 2, "1")) } };
    EXPECT_TRUE(reset->apply(batch).has_value());
}

TEST(CacheDbOpenTest, ReaderNeedsAnExistingCacheAndCannotWrite)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    const Result<CacheDb> missing = CacheDb::open(path, OpenMode::ReadOnly);
    ASSERT_FALSE(missing.has_value());
    EXPECT_EQ(missing.error().code, Error::Code::NotFound);
    EXPECT_FALSE(QFile::exists(path));

    ASSERT_TRUE(CacheDb::open(path, OpenMode::ReadWrite).has_value());
    Result<CacheDb> reader = CacheDb::open(path, OpenMode::ReadOnly);
    ASSERT_TRUE(reader.has_value()) << text(reader.error());
    const Result<BatchSummary> write = reader->apply(WatchBatch { .cluster = "lab" });
    ASSERT_FALSE(write.has_value());
    EXPECT_EQ(write.error().code, Error::Code::Invalid);
    EXPECT_FALSE(
        CacheDb::open(path, OpenMode::ReadOnly, OpenOptions { .reset = true }).has_value());
}

TEST(CacheDbOpenTest, SecondWriterIsRefusedNamingThePid)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    Result<CacheDb> first = CacheDb::open(path, OpenMode::ReadWrite);
    ASSERT_TRUE(first.has_value());

    const Result<CacheDb> second
        = CacheDb::open(path, OpenMode::ReadWrite, OpenOptions { .reset = true });
    ASSERT_FALSE(second.has_value());
    EXPECT_EQ(second.error().code, Error::Code::Busy);
    const QString expected = path
        + QStringLiteral(" is being written by pid %1 (").arg(QCoreApplication::applicationPid());
    EXPECT_TRUE(second.error().message.startsWith(expected)) << text(second.error());
    EXPECT_TRUE(second.error().message.contains(QStringLiteral("dra_store_tests")))
        << text(second.error());
    // The refused reset must not have touched the writer's file.
    EXPECT_TRUE(first
                    ->apply(WatchBatch {
                        .cluster = "lab", .changes = { added(makeSlice("a", "n", 1, "1")) } })
                    .has_value());

    // Readers need no lock.
    EXPECT_TRUE(CacheDb::open(path, OpenMode::ReadOnly).has_value());

    first = CacheDb();
    EXPECT_TRUE(CacheDb::open(path, OpenMode::ReadWrite).has_value());
}
