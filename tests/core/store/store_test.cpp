// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/store.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QSemaphore>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

#include "tests/core/store/store_fixtures.h"

using dra::Result;
using namespace dra::store;
using namespace dra::model;
using namespace dra::store::test;

namespace {

// A Store on its own thread, as the apps wire it; stopped and joined on destruction.
class StoreThread
{
public:
    explicit StoreThread(const QString &path)
    {
        Result<CacheDb> cache = CacheDb::open(path, OpenMode::ReadWrite);
        EXPECT_TRUE(cache.has_value());
        store = new Store(std::move(*cache));
        store->moveToThread(&thread);
        QObject::connect(&thread, &QThread::finished, store, &QObject::deleteLater);
        thread.start();
    }
    ~StoreThread()
    {
        thread.quit();
        thread.wait();
    }

    void enqueue(WatchBatch batch)
    {
        QMetaObject::invokeMethod(
            store, "enqueue", Qt::QueuedConnection, Q_ARG(dra::model::WatchBatch, batch));
    }

    QThread thread;
    Store *store = nullptr;
};

// Runs this thread's event loop until `done` or 20 s pass; queued signals arrive meanwhile.
template <typename Done> bool waitUntil(Done done)
{
    QDeadlineTimer deadline(20000);
    while (!done() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    return done();
}

} // namespace

TEST(StoreTest, CommitsOnItsThreadAndEmitsInOrder)
{
    QTemporaryDir dir;
    StoreThread running(dir.filePath(QStringLiteral("cache.db")));
    std::vector<CommittedBatch> received;
    std::vector<bool> onStoreThread;
    QObject context;
    // Connected first, so it has run before the queued copy below reaches this thread.
    QObject::connect(
        running.store, &Store::committed, running.store,
        [&] { onStoreThread.push_back(QThread::currentThread() == &running.thread); },
        Qt::DirectConnection);
    QObject::connect(running.store, &Store::committed, &context,
        [&](const CommittedBatch &batch) { received.push_back(batch); });

    for (int i = 0; i < 5; ++i)
        running.enqueue(WatchBatch { .cluster = "lab",
            .changes = { added(makeSlice("s" + std::to_string(i), "n", 2, "1")) } });
    ASSERT_TRUE(waitUntil([&] { return received.size() >= 5; }));
    ASSERT_EQ(received.size(), 5u);
    int64_t rev = 0;
    for (size_t i = 0; i < received.size(); ++i) {
        EXPECT_EQ(received[i].cluster, "lab");
        ASSERT_EQ(received[i].changes.size(), 1u);
        EXPECT_EQ(received[i].changes[0].object.key.name, "s" + std::to_string(i));
        EXPECT_EQ(received[i].changes[0].rev, rev + 1);
        rev = received[i].changes[0].rev;
        EXPECT_EQ(received[i].summary.added, 1);
    }
    EXPECT_EQ(onStoreThread, std::vector<bool>(5, true));

    Result<CacheDb> reader
        = CacheDb::open(dir.filePath(QStringLiteral("cache.db")), OpenMode::ReadOnly);
    ASSERT_TRUE(reader.has_value());
    EXPECT_EQ(reader->currentRev(), int64_t(5));
}

TEST(StoreTest, BadBatchFailsAloneWhenCoalesced)
{
    QTemporaryDir dir;
    StoreThread running(dir.filePath(QStringLiteral("cache.db")));
    int committed = 0;
    std::vector<dra::common::Error> failures;
    QObject context;
    QObject::connect(running.store, &Store::committed, &context, [&] { ++committed; });
    QObject::connect(running.store, &Store::failed, &context,
        [&](const dra::common::Error &error) { failures.push_back(error); });

    ObjectRecord nameless = makeSlice("x", "n", 1, "1");
    nameless.key.name.clear();
    // Hold the store thread while queuing, so the three batches share one transaction.
    QSemaphore held;
    QMetaObject::invokeMethod(
        running.store, [&held] { held.acquire(); }, Qt::QueuedConnection);
    running.enqueue(
        WatchBatch { .cluster = "lab", .changes = { added(makeSlice("a", "n", 1, "1")) } });
    running.enqueue(WatchBatch { .cluster = "lab", .changes = { added(nameless) } });
    running.enqueue(
        WatchBatch { .cluster = "lab", .changes = { added(makeSlice("b", "n", 1, "1")) } });
    held.release();
    ASSERT_TRUE(waitUntil([&] { return committed + failures.size() >= 3; }));
    EXPECT_EQ(committed, 2);
    ASSERT_EQ(failures.size(), 1u);
    const dra::common::Error &error = failures.front();
    EXPECT_TRUE(error.message.contains(QStringLiteral("cannot store ResourceSlice")))
        << error.message.toStdString();

    Result<CacheDb> reader
        = CacheDb::open(dir.filePath(QStringLiteral("cache.db")), OpenMode::ReadOnly);
    ASSERT_TRUE(reader.has_value());
    EXPECT_EQ(reader->objects("lab", kResourceGroup, "ResourceSlice").value().size(), 2u);
}
