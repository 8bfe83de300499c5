// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/cache_db.h"

#include <atomic>
#include <thread>

#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "tests/core/store/store_fixtures.h"

using dra::Result;
using namespace dra::store;
using namespace dra::model;
using namespace dra::store::test;

namespace {

WatchBatch slicesBatch(int batchIndex, int count, int devicesEach)
{
    WatchBatch batch { .cluster = "lab" };
    for (int i = 0; i < count; ++i) {
        batch.changes.push_back(
            added(makeSlice("b" + std::to_string(batchIndex) + "-s" + std::to_string(i),
                "node-" + std::to_string(i), devicesEach, std::to_string(batchIndex))));
    }
    return batch;
}

} // namespace

TEST(CacheDbReaderTest, ReadTransactionSeesNoneOfALaterBatchUntilItRereads)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    Result<CacheDb> writer = CacheDb::open(path, OpenMode::ReadWrite);
    ASSERT_TRUE(writer.has_value());
    ASSERT_TRUE(writer->apply(slicesBatch(0, 3, 2)).has_value());

    Result<CacheDb> reader = CacheDb::open(path, OpenMode::ReadOnly);
    ASSERT_TRUE(reader.has_value()) << reader.error().message.toStdString();
    {
        Result<sqlite::Transaction> snapshot = reader->beginRead();
        ASSERT_TRUE(snapshot.has_value()) << snapshot.error().message.toStdString();
        ASSERT_TRUE(writer->apply(slicesBatch(1, 5, 2)).has_value());
        EXPECT_EQ(reader->objects("lab", kResourceGroup, "ResourceSlice").value().size(), 3u);
        EXPECT_EQ(reader->devices("lab").value().size(), 6u);
        EXPECT_EQ(reader->currentRev(), int64_t(3));
    }
    EXPECT_EQ(reader->objects("lab", kResourceGroup, "ResourceSlice").value().size(), 8u);
    EXPECT_EQ(reader->devices("lab").value().size(), 16u);
    EXPECT_EQ(reader->currentRev(), int64_t(8));
}

TEST(CacheDbReaderTest, DataVersionTellsAReaderThatAnotherConnectionCommitted)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    Result<CacheDb> writer = CacheDb::open(path, OpenMode::ReadWrite);
    ASSERT_TRUE(writer.has_value());
    Result<CacheDb> reader = CacheDb::open(path, OpenMode::ReadOnly);
    ASSERT_TRUE(reader.has_value());

    const int64_t before = reader->dataVersion().value();
    EXPECT_EQ(reader->dataVersion(), int64_t(before)); // nothing committed yet
    ASSERT_TRUE(writer->apply(slicesBatch(0, 1, 1)).has_value());
    EXPECT_NE(reader->dataVersion(), int64_t(before));
}

TEST(CacheDbReaderTest, ReaderNeverSeesHalfABatch)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    Result<CacheDb> writer = CacheDb::open(path, OpenMode::ReadWrite);
    ASSERT_TRUE(writer.has_value());
    Result<CacheDb> reader = CacheDb::open(path, OpenMode::ReadOnly);
    ASSERT_TRUE(reader.has_value());

    constexpr int kBatches = 25, kSlices = 40, kDevices = 3;
    std::atomic<bool> done = false;
    std::atomic<bool> writerOk = true;
    std::thread writing([&] {
        for (int b = 0; b < kBatches && writerOk; ++b)
            writerOk = writer->apply(slicesBatch(b, kSlices, kDevices)).has_value();
        done = true;
    });

    int reads = 0, partialStates = 0;
    size_t lastSeen = 0;
    while (!done || reads == 0) {
        Result<sqlite::Transaction> snapshot = reader->beginRead();
        ASSERT_TRUE(snapshot.has_value()) << snapshot.error().message.toStdString();
        const size_t slices
            = reader->objects("lab", kResourceGroup, "ResourceSlice").value().size();
        const size_t devices = reader->devices("lab").value().size();
        const size_t logged = reader->changesSince(0, 1000000).value().size();
        if (slices % kSlices != 0 || devices != slices * kDevices || logged != slices)
            ++partialStates;
        EXPECT_GE(slices, lastSeen); // snapshots never go back in time
        lastSeen = slices;
        ++reads;
    }
    writing.join();
    ASSERT_TRUE(writerOk);
    EXPECT_EQ(partialStates, 0) << "of " << reads << " reads";
    EXPECT_EQ(reader->objects("lab", kResourceGroup, "ResourceSlice").value().size(),
        size_t(kBatches * kSlices));
}
