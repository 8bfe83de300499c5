// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A snapshot kept up to date from the store's committed batches must equal one loaded afresh
// from the cache at the same revision.
#include "core/inventory/snapshot_builder.h"

#include <QSignalSpy>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/inventory/inventory.h"
#include "tests/support/inventory_fixtures.h"

using namespace dra;
using namespace dra::inventory;
using dra::test::json;

namespace {

const std::string kCluster = "test";

std::string describe(const Pool &pool)
{
    std::string text = pool.driver + "/" + pool.name + " node=" + pool.node + " gen="
        + std::to_string(pool.generation) + " count=" + std::to_string(pool.resourceSliceCount)
        + " devices=" + std::to_string(pool.deviceCount) + " slices=";
    for (const std::string &s : pool.slices)
        text += s + ",";
    text += " stale=";
    for (const std::string &s : pool.staleSlices)
        text += s + ",";
    text += " dup=";
    for (const std::string &s : pool.duplicateDevices)
        text += s + ",";
    for (const model::CounterSet &set : pool.sharedCounters)
        text += " set=" + set.name + "/" + std::to_string(set.counters.size());
    return text;
}

std::string describe(const CounterSetUsage &set)
{
    std::string text = set.name;
    for (const CounterUsage &counter : set.counters)
        text += " " + counter.name + "=" + counter.consumed.toString() + "/"
            + counter.total.toString();
    return text;
}

std::string describe(std::span<const DeviceHold> holds)
{
    std::string text;
    for (const DeviceHold &hold : holds) {
        text
            += hold.claim.display() + ":" + hold.request + (hold.adminAccess ? "+admin" : "") + ":";
        for (const std::string &pod : hold.pods)
            text += pod + ",";
        text += ";";
    }
    return text;
}

// Compares everything the public API shows; the first difference is the failure message.
testing::AssertionResult sameContent(const Snapshot &a, const Snapshot &b)
{
    if (a.rev() != b.rev())
        return testing::AssertionFailure() << "rev " << a.rev() << " vs " << b.rev();
    if (a.devices().size() != b.devices().size())
        return testing::AssertionFailure()
            << "devices " << a.devices().size() << " vs " << b.devices().size();
    for (size_t i = 0; i < a.devices().size(); ++i) {
        if (!(*a.devices()[i] == *b.devices()[i]))
            return testing::AssertionFailure()
                << "device #" << i << " " << a.devices()[i]->key.display() << " vs "
                << b.devices()[i]->key.display();
        if (describe(a.holds(a.devices()[i]->key)) != describe(b.holds(b.devices()[i]->key)))
            return testing::AssertionFailure() << "holds of " << a.devices()[i]->key.display()
                                               << ": " << describe(a.holds(a.devices()[i]->key))
                                               << " vs " << describe(b.holds(b.devices()[i]->key));
        if (a.state(*a.devices()[i]) != b.state(*b.devices()[i]))
            return testing::AssertionFailure() << "state of " << a.devices()[i]->key.display();
    }
    if (a.pools().size() != b.pools().size())
        return testing::AssertionFailure()
            << "pools " << a.pools().size() << " vs " << b.pools().size();
    for (size_t i = 0; i < a.pools().size(); ++i) {
        if (describe(a.pools()[i]) != describe(b.pools()[i]))
            return testing::AssertionFailure()
                << describe(a.pools()[i]) << " vs " << describe(b.pools()[i]);
        const auto usageA = a.counterUsage(a.pools()[i].driver, a.pools()[i].name);
        const auto usageB = b.counterUsage(b.pools()[i].driver, b.pools()[i].name);
        if (usageA.size() != usageB.size())
            return testing::AssertionFailure() << "counter sets of " << a.pools()[i].name;
        for (size_t j = 0; j < usageA.size(); ++j)
            if (describe(usageA[j]) != describe(usageB[j]))
                return testing::AssertionFailure()
                    << describe(usageA[j]) << " vs " << describe(usageB[j]);
    }
    if (a.slices().size() != b.slices().size())
        return testing::AssertionFailure()
            << "slices " << a.slices().size() << " vs " << b.slices().size();
    for (size_t i = 0; i < a.slices().size(); ++i)
        if (a.slices()[i].name != b.slices()[i].name || a.slices()[i].stale != b.slices()[i].stale
            || a.slices()[i].rev != b.slices()[i].rev)
            return testing::AssertionFailure()
                << "slice " << a.slices()[i].name << " vs " << b.slices()[i].name;
    for (int kind = 0; kind < int(model::Kind::Unknown); ++kind) {
        const auto objectsA = a.objects(model::Kind(kind));
        const auto objectsB = b.objects(model::Kind(kind));
        if (objectsA.size() != objectsB.size())
            return testing::AssertionFailure() << "objects of kind " << kind << ": "
                                               << objectsA.size() << " vs " << objectsB.size();
        for (size_t i = 0; i < objectsA.size(); ++i)
            if (objectsA[i]->key() != objectsB[i]->key() || *objectsA[i]->raw != *objectsB[i]->raw)
                return testing::AssertionFailure()
                    << objectsA[i]->display() << " vs " << objectsB[i]->display();
    }
    if (a.problems().size() != b.problems().size())
        return testing::AssertionFailure()
            << "problems " << a.problems().size() << " vs " << b.problems().size();
    return testing::AssertionSuccess();
}

model::ObjectRecord record(const json &object)
{
    return test::recordsOf(test::listOf({ object })).front();
}

class SnapshotIncrementalTest : public testing::Test
{
protected:
    void SetUp() override
    {
        Result<store::CacheDb> cache = store::CacheDb::open(
            m_dir.filePath(QStringLiteral("cache.db")), store::OpenMode::ReadWrite);
        ASSERT_TRUE(cache.has_value()) << cache.error().message.toStdString();
        m_cache = std::move(*cache);
    }

    // Commits `batch` to the cache and returns what the store would announce.
    model::CommittedBatch commit(model::WatchBatch batch)
    {
        batch.cluster = kCluster;
        std::vector<model::WatchBatch> batches;
        batches.push_back(std::move(batch));
        Result<std::vector<model::CommittedBatch>> committed = m_cache.applyAll(std::move(batches));
        EXPECT_TRUE(committed.has_value()) << committed.error().message.toStdString();
        return committed ? committed->front() : model::CommittedBatch {};
    }

    SnapshotPtr reload()
    {
        Result<SnapshotPtr> loaded = loadSnapshot(m_cache, kCluster);
        EXPECT_TRUE(loaded.has_value()) << loaded.error().message.toStdString();
        return loaded ? *loaded : nullptr;
    }

    QTemporaryDir m_dir;
    store::CacheDb m_cache;
};

} // namespace

TEST_F(SnapshotIncrementalTest, EveryBatchGivesWhatAFullReloadGives)
{
    // Start: the MIG preset (partitionable devices, counters, claims, pods) plus a plain node.
    const json preset = test::presetList("a100-mig", 1);
    model::WatchBatch initial;
    for (model::ObjectRecord &object : test::recordsOf(preset))
        initial.changes.push_back({ model::ChangeType::Added, std::move(object) });
    initial.changes.push_back({ model::ChangeType::Added, record(test::nodeObject("n1")) });
    initial.changes.push_back({ model::ChangeType::Added,
        record(test::sliceObject("n1-a", "n1", { test::gpuDevice("gpu-0") }, 1, 2)) });
    SnapshotPtr live = applyBatch(emptySnapshot(kCluster), commit(std::move(initial)));
    ASSERT_TRUE(sameContent(*live, *reload()));

    const auto step = [&](const char *what, model::WatchBatch batch, ChangeSet *changes = nullptr) {
        const SnapshotPtr before = live;
        live = applyBatch(live, commit(std::move(batch)), changes);
        EXPECT_NE(live, before) << what;
        EXPECT_TRUE(sameContent(*live, *reload())) << what;
    };

    // The second slice of n1's pool arrives: complete.
    ChangeSet added;
    step("slice added",
        { kCluster,
            { { model::ChangeType::Added,
                record(test::sliceObject("n1-b", "n1", { test::gpuDevice("gpu-1") }, 1, 2)) } } },
        &added);
    EXPECT_EQ(
        added.devicesAdded, (std::vector<DeviceKey> { { "gpu.example.com", "n1", "gpu-1" } }));
    EXPECT_TRUE(live->pool("gpu.example.com", "n1")->complete());

    // The driver restarts: one slice at a new generation makes the other stale.
    ChangeSet restarted;
    step("new generation",
        { kCluster,
            { { model::ChangeType::Modified,
                record(test::sliceObject("n1-a", "n1", { test::gpuDevice("gpu-0") }, 2, 2)) } } },
        &restarted);
    EXPECT_EQ(restarted.devicesRemoved,
        (std::vector<DeviceKey> { { "gpu.example.com", "n1", "gpu-1" } }));
    EXPECT_FALSE(live->pool("gpu.example.com", "n1")->complete());

    // A claim takes gpu-0; then its pod is gone while the claim stays.
    step("claim allocated",
        { kCluster,
            { { model::ChangeType::Added,
                  record(test::claimObject("ml", "c1", "n1", { "gpu-0" }, { "p1" })) },
                { model::ChangeType::Added, record(test::podObject("ml", "p1")) } } });
    EXPECT_EQ(live->holds({ "gpu.example.com", "n1", "gpu-0" }).size(), 1u);
    EXPECT_EQ(
        live->state(*live->device({ "gpu.example.com", "n1", "gpu-0" })), DeviceState::Allocated);
    ChangeSet podGone;
    step("pod deleted",
        { kCluster, { { model::ChangeType::Deleted, record(test::podObject("ml", "p1")) } } },
        &podGone);
    EXPECT_FALSE(podGone.allocationsChanged) << "only a pod changed";

    // MIG claims of the preset are released: the counters they used come back.
    std::vector<model::Change> released;
    for (const auto &claim : live->objects(model::Kind::ResourceClaim))
        if (claim->meta.ns != "ml")
            released.push_back({ model::ChangeType::Deleted,
                model::ObjectRecord { claim->key(), {}, {}, {}, {}, 0, {}, {}, 0 } });
    ASSERT_FALSE(released.empty());
    step("preset claims deleted", { kCluster, std::move(released) });
    for (const CounterSetUsage &set : live->counterUsage("gpu.nvidia.com", "a100-mig-000"))
        for (const CounterUsage &counter : set.counters)
            EXPECT_TRUE(counter.consumed.isZero()) << set.name << "/" << counter.name;

    // A slice disappears, a class is added, the node changes; then pods are relisted.
    const std::string firstMigSlice = live->slices()[1].name;
    step("slice deleted",
        { kCluster,
            { { model::ChangeType::Deleted,
                model::ObjectRecord { { "resource.k8s.io", "ResourceSlice", {}, firstMigSlice }, {},
                    {}, {}, {}, 0, {}, {}, 0 } } } });
    step("class added",
        { kCluster,
            { { model::ChangeType::Added,
                record(test::deviceClass("example", "device.driver == 'gpu.example.com'")) } } });
    json node = test::nodeObject("n1");
    node["metadata"]["labels"] = { { "zone", "b" } };
    step("node modified", { kCluster, { { model::ChangeType::Modified, record(node) } } });
    model::WatchBatch relist { kCluster,
        { { model::ChangeType::Added, record(test::podObject("ml", "p2")) } }, { { "", "Pod" } },
        {} };
    step("pods relisted", std::move(relist));
    EXPECT_EQ(live->objects(model::Kind::Pod).size(), 1u);
}

TEST_F(SnapshotIncrementalTest, UnchangedPartsAreSharedAndClassMatchesKept)
{
    model::WatchBatch initial;
    for (model::ObjectRecord &object : test::recordsOf(test::presetList("h100-sxm", 2)))
        initial.changes.push_back({ model::ChangeType::Added, std::move(object) });
    const SnapshotPtr first = applyBatch(emptySnapshot(kCluster), commit(std::move(initial)));
    const auto match = first->classMatch("gpu.nvidia.com");
    EXPECT_EQ(match->devices.size(), 16u);

    const SnapshotPtr second = applyBatch(first,
        commit({ kCluster, { { model::ChangeType::Added, record(test::podObject("ml", "x")) } } }));
    EXPECT_EQ(second->devices().front(), first->devices().front())
        << "devices are shared, not copied";
    EXPECT_EQ(second->classMatch("gpu.nvidia.com"), match) << "no device or class changed";

    const SnapshotPtr other
        = applyBatch(second, model::CommittedBatch { "another-cluster", {}, {} });
    EXPECT_EQ(other, second);
}

TEST_F(SnapshotIncrementalTest, InventoryAnnouncesEachChange)
{
    registerInventoryMetaTypes();
    Inventory inventory(emptySnapshot(kCluster));
    QSignalSpy spy(&inventory, &Inventory::changed);
    inventory.apply(
        commit({ kCluster, { { model::ChangeType::Added, record(test::nodeObject("n9")) } } }));
    ASSERT_EQ(spy.count(), 1);
    const ChangeSet changes = spy.takeFirst().at(0).value<ChangeSet>();
    ASSERT_EQ(changes.objects.size(), 1u);
    EXPECT_EQ(changes.objects[0].name, "n9");
    EXPECT_EQ(changes.snapshot, inventory.snapshot());
    EXPECT_NE(inventory.snapshot()->object(model::Kind::Node, {}, "n9"), nullptr);
}

// The cluster's reported version is part of its snapshot: loaded with it, and learnt from the
// batch that records it (a live mirror records it before its first objects).
TEST_F(SnapshotIncrementalTest, TheRecordedKubernetesVersionTravelsWithTheSnapshot)
{
    model::WatchBatch discovered;
    discovered.server = "https://cluster.example:6443";
    discovered.serverVersion = "v1.33.4";
    const model::CommittedBatch info = commit(std::move(discovered));
    EXPECT_EQ(info.serverVersion, "v1.33.4");

    const SnapshotPtr before = emptySnapshot(kCluster);
    EXPECT_EQ(before->kubernetesVersion(), "");
    const SnapshotPtr learnt = applyBatch(before, info);
    ASSERT_NE(learnt, before) << "a version alone makes a new snapshot";
    EXPECT_EQ(learnt->kubernetesVersion(), "v1.33.4");
    EXPECT_EQ(learnt->rev(), before->rev());

    const SnapshotPtr kept = applyBatch(learnt,
        commit({ kCluster, { { model::ChangeType::Added, record(test::nodeObject("n1")) } } }));
    EXPECT_EQ(kept->kubernetesVersion(), "v1.33.4") << "later batches keep it";
    EXPECT_EQ(reload()->kubernetesVersion(), "v1.33.4") << "and the cache gives it on load";
    EXPECT_EQ(applyBatch(kept, info), kept) << "the same version again changes nothing";
}

namespace {

// What the cache holds for kCluster as plain records, slices without their device rows: a
// snapshot built from them decodes every slice in full, independently of the loader.
SnapshotSource fullDecodeSourceOf(store::CacheDb &cache)
{
    SnapshotSource source;
    source.cluster = kCluster;
    source.rev = cache.currentRev().value_or(-1);
    for (const model::KindInfo &kind : model::allKinds()) {
        Result<std::vector<model::ObjectRecord>> records
            = cache.objects(kCluster, kind.group, kind.name);
        EXPECT_TRUE(records.has_value());
        if (records)
            std::move(records->begin(), records->end(), std::back_inserter(source.objects));
    }
    return source;
}

} // namespace

// Over a thousand slices are read in shares, each on a connection of its own: the result is
// the cluster as a full decode of every object gives it.
TEST_F(SnapshotIncrementalTest, LoadingInSharesGivesWhatAFullDecodeGives)
{
    model::WatchBatch initial;
    for (model::ObjectRecord &object : test::recordsOf(test::presetList("h100-sxm", 520)))
        initial.changes.push_back({ model::ChangeType::Added, std::move(object) });
    commit(std::move(initial));
    const SnapshotPtr loaded = reload();
    ASSERT_NE(loaded, nullptr);
    EXPECT_EQ(loaded->slices().size(), 1040u) << "two slices per node: GPUs and NICs";
    EXPECT_EQ(loaded->devices().size(), 520u * 16);
    EXPECT_TRUE(loaded->problems().empty());
    EXPECT_TRUE(sameContent(*loaded, *buildSnapshot(fullDecodeSourceOf(m_cache))));
}

// A share whose connection cannot be opened (here: the file is gone from the folder while the
// loader's connection still reads it) is read on the loader's own connection: nothing is lost.
TEST_F(SnapshotIncrementalTest, SharesTheirOwnConnectionCannotReadAreReadByTheLoader)
{
    model::WatchBatch initial;
    for (model::ObjectRecord &object : test::recordsOf(test::presetList("h100-sxm", 520)))
        initial.changes.push_back({ model::ChangeType::Added, std::move(object) });
    commit(std::move(initial));
    const SnapshotPtr reference = buildSnapshot(fullDecodeSourceOf(m_cache));
    ASSERT_TRUE(QFile::remove(m_dir.filePath(QStringLiteral("cache.db"))));
    const SnapshotPtr loaded = reload();
    ASSERT_NE(loaded, nullptr);
    EXPECT_EQ(loaded->devices().size(), 520u * 16);
    EXPECT_TRUE(sameContent(*loaded, *reference));
}

TEST_F(SnapshotIncrementalTest, DeviceHealthIsReadOncePerSetOfPods)
{
    const auto reporting = [](const std::string &health) {
        json pod = test::podObject("ml", "trainer");
        pod["status"]["containerStatuses"] = json::array({ { { "name", "main" },
            { "allocatedResourcesStatus",
                json::array({ { { "name", "claim:train/gpu" },
                    { "resources",
                        json::array({ { { "resourceID", "gpu.example.com/n1/gpu-0" },
                            { "health", health } } }) } } }) } } });
        return record(pod);
    };
    const SnapshotPtr first = applyBatch(emptySnapshot(kCluster),
        commit({ kCluster, { { model::ChangeType::Added, reporting("Healthy") } } }));
    const std::vector<DeviceHealthReport> &reports = first->deviceHealthReports();
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].health, "Healthy");
    EXPECT_EQ(&first->deviceHealthReports(), &reports) << "read once, then kept";

    // Another kind changed: the pods and their reports are shared.
    const SnapshotPtr second = applyBatch(first,
        commit({ kCluster, { { model::ChangeType::Added, record(test::nodeObject("n1")) } } }));
    EXPECT_EQ(&second->deviceHealthReports(), &reports);

    // The pod changed: its new report is read.
    const SnapshotPtr third = applyBatch(
        second, commit({ kCluster, { { model::ChangeType::Modified, reporting("Unhealthy") } } }));
    ASSERT_EQ(third->deviceHealthReports().size(), 1u);
    EXPECT_EQ(third->deviceHealthReports()[0].health, "Unhealthy");
    EXPECT_EQ(first->deviceHealthReports()[0].health, "Healthy") << "snapshots are immutable";
}
