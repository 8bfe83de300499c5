// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A writer process is SIGKILLed in the middle of its transactions; whatever it leaves behind
// must open cleanly and be consistent: every batch fully present or fully absent, devices
// matching their slices, the change log agreeing with the objects.
#include "core/store/cache_db.h"

#include <chrono>
#include <map>
#include <random>
#include <set>
#include <thread>

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/core/store/store_fixtures.h"

using dra::Result;
using namespace dra::store;
using namespace dra::model;
using namespace dra::store::test;

namespace {

struct WriterOutput
{
    int lastBegun = 0;
    int lastCommitted = 0;
};

// Reads the writer's "begin N" / "committed N" lines that are available within `waitMs`.
void readLines(QProcess &writer, WriterOutput &output, int waitMs)
{
    writer.waitForReadyRead(waitMs);
    while (writer.canReadLine()) {
        const QByteArray line = writer.readLine().trimmed();
        const QList<QByteArray> parts = line.split(' ');
        if (parts.size() != 2)
            continue;
        if (parts[0] == "begin")
            output.lastBegun = parts[1].toInt();
        else if (parts[0] == "committed")
            output.lastCommitted = parts[1].toInt();
    }
}

// The slice name "b<batch>-s<slice>" split back into its numbers.
std::pair<int, int> parseSliceName(const std::string &name)
{
    const size_t dash = name.find("-s");
    return { std::stoi(name.substr(1, dash - 1)), std::stoi(name.substr(dash + 2)) };
}

// Checks everything a reader relies on after a crash; returns the last batch the cache holds.
int verifyConsistent(const QString &path)
{
    Result<CacheDb> cache = CacheDb::open(path, OpenMode::ReadWrite); // runs quick_check
    EXPECT_TRUE(cache.has_value()) << cache.error().message.toStdString();
    if (!cache)
        return -1;
    EXPECT_TRUE(cache->quickCheck().has_value());
    Result<sqlite::Transaction> snapshot = cache->beginRead();
    EXPECT_TRUE(snapshot.has_value());

    const std::optional<std::string> reached
        = cache->listVersion(kCrashCluster, kResourceGroup, "ResourceSlice").value();
    const int last = reached ? std::stoi(*reached) : 0;

    // Every batch up to `last` is complete, none after it left anything.
    const std::vector<ObjectRecord> slices
        = cache->objects(kCrashCluster, kResourceGroup, "ResourceSlice").value();
    std::set<std::pair<int, int>> present;
    std::map<std::string, const ObjectRecord *> byName;
    for (const ObjectRecord &slice : slices) {
        present.insert(parseSliceName(slice.key.name));
        byName[slice.key.name] = &slice;
    }
    std::set<std::pair<int, int>> expected;
    for (int b = 1; b <= last; ++b) {
        for (int j = 0; j < kCrashSlices; ++j) {
            if (!(j == 1 && b <= last - 2))
                expected.insert({ b, j });
        }
    }
    EXPECT_EQ(present, expected) << "cache holds batches up to " << last;
    if (last >= 2) {
        const ObjectRecord *relabelled = byName[crashSliceName(last - 1, 0)];
        EXPECT_TRUE(relabelled
            && relabelled->json.find("\"example.com/revision\":\"" + std::to_string(last) + "\"")
                != std::string::npos);
    }

    // Device rows are exactly the devices each slice's JSON lists.
    std::map<std::string, std::vector<std::string>> rowsBySlice;
    const std::vector<SliceDevice> devices = cache->devices(kCrashCluster).value();
    for (const SliceDevice &device : devices)
        rowsBySlice[device.slice].push_back(device.device.name);
    size_t slicesWithDevices = 0;
    for (const ObjectRecord &slice : slices) {
        std::vector<std::string> listed;
        const nlohmann::json parsed = nlohmann::json::parse(slice.json);
        for (const auto &device : parsed["spec"]["devices"])
            listed.push_back(device["name"].get<std::string>());
        EXPECT_EQ(rowsBySlice[slice.key.name], listed) << slice.key.name;
        slicesWithDevices += rowsBySlice.count(slice.key.name);
    }
    EXPECT_EQ(rowsBySlice.size(), slicesWithDevices) << "device rows without a slice";

    // The change log explains the objects: the latest entry per key is the stored state.
    const std::vector<LoggedChange> log = cache->changesSince(0, 100000000).value();
    std::map<std::string, const LoggedChange *> latest;
    int64_t previousRev = 0;
    for (const LoggedChange &change : log) {
        EXPECT_GT(change.rev, previousRev);
        previousRev = change.rev;
        latest[change.key.name] = &change;
    }
    EXPECT_EQ(cache->currentRev(), int64_t(previousRev));
    size_t live = 0;
    for (const auto &[name, change] : latest) {
        const auto found = byName.find(name);
        if (change->type == ChangeType::Deleted) {
            EXPECT_TRUE(found == byName.end() || !found->second)
                << name << " deleted in the log but stored";
            continue;
        }
        ++live;
        if (found == byName.end() || !found->second) {
            ADD_FAILURE() << name << " logged but missing";
            continue;
        }
        EXPECT_EQ(found->second->rev, change->rev) << name;
        EXPECT_EQ(found->second->json, change->json) << name;
    }
    EXPECT_EQ(live, slices.size());
    size_t expectedLog = 0;
    for (int b = 1; b <= last; ++b)
        expectedLog += kCrashSlices + (b >= 2 ? 1 : 0) + (b >= 3 ? 1 : 0);
    EXPECT_EQ(log.size(), expectedLog);
    return last;
}

} // namespace

TEST(CacheCrashTest, WriterKilledMidBatchLeavesAConsistentCache)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    std::mt19937 random(20260101);
    int midBatchKills = 0, rounds = 0, lastBatch = 0;

    while (rounds < 8 && midBatchKills < 3) {
        ++rounds;
        QProcess writer;
        writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        writer.start(QStringLiteral(DRA_STORE_CRASH_WRITER), { path });
        ASSERT_TRUE(writer.waitForStarted(10000));

        // Let it commit at least once in this round, timing its transactions.
        WriterOutput output;
        QElapsedTimer timer;
        timer.start();
        while (output.lastCommitted <= lastBatch && writer.state() == QProcess::Running
            && timer.elapsed() < 60000)
            readLines(writer, output, 1000);
        ASSERT_GT(output.lastCommitted, lastBatch) << "the writer made no progress";

        if (rounds == 1) {
            // A second writer, here in another process, is refused and told who is writing.
            const Result<CacheDb> second = CacheDb::open(path, OpenMode::ReadWrite);
            ASSERT_FALSE(second.has_value());
            EXPECT_TRUE(second.error().message.startsWith(
                path + QStringLiteral(" is being written by pid %1 (").arg(writer.processId())))
                << second.error().message.toStdString();
            EXPECT_TRUE(second.error().message.contains(QStringLiteral("dra_store_crash_writer")));
        }

        // Wait for the next transaction to start, then kill somewhere inside it.
        const int committedBefore = output.lastCommitted;
        qint64 begunAt = 0;
        QElapsedTimer batchTimer;
        while (output.lastBegun <= committedBefore && timer.elapsed() < 60000)
            readLines(writer, output, 1000);
        batchTimer.start();
        while (output.lastCommitted < output.lastBegun && timer.elapsed() < 60000)
            readLines(writer, output, 1000);
        begunAt = batchTimer.elapsed(); // one transaction's duration, roughly
        while (output.lastBegun <= output.lastCommitted && timer.elapsed() < 60000)
            readLines(writer, output, 1000);
        std::uniform_int_distribution<qint64> delay(0, std::max<qint64>(1, begunAt * 7 / 10));
        std::this_thread::sleep_for(std::chrono::milliseconds(delay(random)));
        writer.kill(); // SIGKILL: no destructors, no rollback, no unlock but the kernel's
        ASSERT_TRUE(writer.waitForFinished(10000));
        readLines(writer, output, 0);
        const bool midBatch = output.lastBegun > output.lastCommitted;
        midBatchKills += midBatch ? 1 : 0;

        const int reached = verifyConsistent(path);
        ASSERT_FALSE(::testing::Test::HasFailure()) << "after round " << rounds;
        // Committed batches survive; the one in flight is either fully there or not at all.
        EXPECT_GE(reached, output.lastCommitted);
        EXPECT_LE(reached, output.lastBegun);
        lastBatch = reached;
    }
    std::printf("%d writer kills, %d inside a transaction, %d batches survived\n", rounds,
        midBatchKills, lastBatch);
    EXPECT_GE(midBatchKills, 1);
}
