// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/snapshot.h"

#include <set>

#include <gtest/gtest.h>

#include "core/inventory/selector_sweep.h"
#include "core/inventory/slice_reader.h"
#include "tests/support/inventory_fixtures.h"

using namespace dra;
using namespace dra::inventory;
using dra::test::json;

TEST(SnapshotTest, H100PresetHasEveryDeviceWithQualifiedAttributes)
{
    const SnapshotPtr snapshot = test::snapshotOf(test::presetList("h100-sxm", 4));
    EXPECT_TRUE(snapshot->problems().empty());
    // 4 nodes x (8 GPUs + 8 NICs), one pool per node and driver.
    EXPECT_EQ(snapshot->devices().size(), 64u);
    EXPECT_EQ(snapshot->pools().size(), 8u);
    EXPECT_EQ(snapshot->devicesOnNode("h100-000").size(), 16u);
    EXPECT_EQ(snapshot->devicesOfDriver("gpu.nvidia.com").size(), 32u);
    EXPECT_EQ(snapshot->devicesInPool("gpu.nvidia.com", "h100-001").size(), 8u);
    EXPECT_TRUE(snapshot->devicesOnNode("").empty()) << "no network-attached devices";
    EXPECT_EQ(snapshot->deviceNodes(),
        (std::vector<std::string> { "h100-000", "h100-001", "h100-002", "h100-003" }));

    const Device *gpu = snapshot->device({ "gpu.nvidia.com", "h100-000", "gpu-3" });
    ASSERT_NE(gpu, nullptr);
    EXPECT_EQ(gpu->node, "h100-000");
    EXPECT_EQ(gpu->productName(), "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(gpu->attributeText("gpu.nvidia.com/productName"), "NVIDIA H100 80GB HBM3")
        << "the short name and the qualified name are one attribute";
    EXPECT_EQ(gpu->type(), "gpu");
    EXPECT_FALSE(gpu->isPartition());
    ASSERT_NE(gpu->attribute("resource.kubernetes.io/pcieRoot"), nullptr);
    ASSERT_NE(gpu->capacity("memory"), nullptr);
    EXPECT_EQ(gpu->capacity("memory")->toString(), "81559Mi");
    ASSERT_NE(gpu->view.findAttributeDomain("gpu.nvidia.com"), nullptr);
    EXPECT_EQ(gpu->view.driver, "gpu.nvidia.com");

    for (const Pool &pool : snapshot->pools()) {
        EXPECT_TRUE(pool.complete()) << pool.name;
        EXPECT_TRUE(pool.valid()) << pool.name;
        EXPECT_EQ(pool.node, pool.name) << "the preset names node-local pools after their node";
    }
    ASSERT_NE(snapshot->pool("dra.net", "h100-002"), nullptr);
    EXPECT_EQ(snapshot->pool("dra.net", "h100-002")->deviceCount, 8u);
}

TEST(SnapshotTest, HoldsFollowTheClaimsOfThePreset)
{
    const json list = test::presetList("mixed", 1);
    const SnapshotPtr snapshot = test::sharedPresetSnapshot("mixed");
    // Every allocation result of every claim is a hold on a device the snapshot has.
    size_t results = 0;
    for (const json &item : list["items"]) {
        if (item["kind"] != "ResourceClaim" || !item.contains("status")
            || !item["status"].contains("allocation"))
            continue;
        for (const json &result : item["status"]["allocation"]["devices"]["results"]) {
            ++results;
            const DeviceKey key { result["driver"], result["pool"], result["device"] };
            ASSERT_NE(snapshot->device(key), nullptr) << key.display();
            const auto holds = snapshot->holds(key);
            ASSERT_FALSE(holds.empty()) << key.display();
            EXPECT_TRUE(std::ranges::any_of(holds, [&](const DeviceHold &hold) {
                return hold.claim.name == item["metadata"]["name"]
                    && hold.claim.ns == item["metadata"]["namespace"];
            }));
            EXPECT_EQ(snapshot->state(*snapshot->device(key)), DeviceState::Allocated);
        }
    }
    EXPECT_GT(results, 0u);
    size_t allocated = 0;
    for (const Device *device : snapshot->devices())
        allocated += snapshot->state(*device) == DeviceState::Allocated ? 1 : 0;
    EXPECT_LE(allocated, results);
    // Reservations name pods of the claim's namespace.
    for (const Device *device : snapshot->devices())
        for (const DeviceHold &hold : snapshot->holds(device->key))
            for (const std::string &pod : hold.pods)
                EXPECT_NE(snapshot->object(model::Kind::Pod, hold.claim.ns, pod), nullptr) << pod;
}

TEST(SnapshotTest, MigPresetCountsSharedCountersOfAllocatedPartitions)
{
    const SnapshotPtr snapshot = test::sharedPresetSnapshot("a100-mig");
    const Pool *pool = snapshot->pool("gpu.nvidia.com", "a100-mig-000");
    ASSERT_NE(pool, nullptr);
    EXPECT_EQ(pool->slices.size(), 4u);
    EXPECT_EQ(pool->resourceSliceCount, 4);
    EXPECT_TRUE(pool->complete());
    EXPECT_EQ(pool->sharedCounters.size(), 8u);
    EXPECT_EQ(snapshot->devices().size(), 152u) << "8 GPUs and 144 MIG placements";

    const auto usage = snapshot->counterUsage("gpu.nvidia.com", "a100-mig-000");
    ASSERT_EQ(usage.size(), 8u);
    // What is consumed equals the sum over allocated devices, counted by hand from the holds.
    for (const CounterSetUsage &set : usage) {
        int64_t slices = 0;
        for (const Device *device : snapshot->devicesInPool("gpu.nvidia.com", "a100-mig-000")) {
            if (snapshot->state(*device) != DeviceState::Allocated)
                continue;
            for (const auto &consumption : device->consumesCounters)
                if (consumption.counterSet == set.name)
                    for (const auto &[name, amount] : consumption.counters)
                        if (name.starts_with("memory-slice-"))
                            slices += amount.value();
        }
        int64_t consumed = 0;
        for (const CounterUsage &counter : set.counters)
            if (counter.name.starts_with("memory-slice-"))
                consumed += counter.consumed.value();
        EXPECT_EQ(consumed, slices) << set.name;
    }
    // A MIG placement that overlaps an allocated one is blocked, not free.
    size_t blocked = 0;
    for (const Device *device : snapshot->devices())
        blocked += snapshot->state(*device) == DeviceState::Blocked ? 1 : 0;
    EXPECT_GT(blocked, 0u);
    const Device *mig
        = snapshot->device({ "gpu.nvidia.com", "a100-mig-000", "gpu-0-mig-1g10gb-19-0" });
    ASSERT_NE(mig, nullptr);
    EXPECT_TRUE(mig->isPartition());
    EXPECT_EQ(mig->profile(), "1g.10gb");
    ASSERT_EQ(mig->consumesCounters.size(), 1u);
    EXPECT_EQ(mig->consumesCounters[0].counterSet, "gpu-0-counter-set");
}

TEST(SnapshotTest, ClassMatchEvaluatesSelectorsOnceAndKeepsTheAnswer)
{
    const SnapshotPtr snapshot = test::sharedPresetSnapshot("a100-mig");
    const auto gpus = snapshot->classMatch("gpu.nvidia.com");
    EXPECT_TRUE(gpus->classExists);
    EXPECT_TRUE(gpus->errors.empty());
    EXPECT_EQ(gpus->devices.size(), 8u);
    const auto migs = snapshot->classMatch("mig.nvidia.com");
    EXPECT_EQ(migs->devices.size(), 144u);
    EXPECT_EQ(snapshot->classMatch("gpu.nvidia.com"), gpus) << "computed once";
    const auto missing = snapshot->classMatch("nope");
    EXPECT_FALSE(missing->classExists);
    EXPECT_TRUE(missing->devices.empty());
}

namespace {

// A snapshot of `list` from a cluster that reports `version`.
SnapshotPtr snapshotOfRelease(const json &list, const std::string &version)
{
    SnapshotSource source;
    source.cluster = "test";
    source.kubernetesVersion = version;
    source.objects = test::recordsOf(list);
    source.rev = int64_t(source.objects.size());
    return buildSnapshot(std::move(source));
}

} // namespace

// A class already in the cluster is compiled as the cluster's scheduler compiles it: in its
// release, with the rules of a stored expression. A selector whose estimated cost is over the
// limit for new objects still selects devices there; one that names a field the release does
// not have selects none.
TEST(SnapshotTest, ClassesAreCompiledAsTheClustersOwnReleaseCompilesStoredSelectors)
{
    const std::string expensive = R"(device.attributes["gpu.example.com"].all(a,
        device.attributes["gpu.example.com"].all(b,
        device.attributes["gpu.example.com"].all(c,
        device.attributes["gpu.example.com"].all(e, a != "" || b != "" || c != "" || e != "")))))";
    const json list = test::listOf({ test::sliceObject("s", "n1", { test::gpuDevice("gpu-0") }),
        test::deviceClass("costly", expensive),
        test::deviceClass("shareable", "device.allowMultipleAllocations == false") });

    const SnapshotPtr v136 = snapshotOfRelease(list, "v1.36.0");
    const auto costly = v136->classMatch("costly");
    EXPECT_TRUE(costly->errors.empty()) << costly->errors.front();
    EXPECT_EQ(costly->devices.size(), 1u);
    EXPECT_EQ(v136->classMatch("shareable")->devices.size(), 1u);

    // Kubernetes 1.33 has no device.allowMultipleAllocations (1.34 added it).
    const SnapshotPtr v133 = snapshotOfRelease(list, "v1.33.2");
    const auto shareable = v133->classMatch("shareable");
    ASSERT_FALSE(shareable->errors.empty());
    EXPECT_NE(shareable->errors.front().find("allowMultipleAllocations"), std::string::npos)
        << shareable->errors.front();
    EXPECT_TRUE(shareable->devices.empty());
}

// What a user types for a new claim is checked as kube-apiserver of the cluster's release
// checks a new object.
TEST(SnapshotTest, ASweptSelectorIsANewExpressionOfTheClustersRelease)
{
    const json list = test::listOf({ test::sliceObject("s", "n1", { test::gpuDevice("gpu-0") }) });
    const std::string expression = "device.allowMultipleAllocations == false";
    const SelectorSweep v136 = sweepSelector(*snapshotOfRelease(list, "v1.36.0"), expression);
    EXPECT_TRUE(v136.valid);
    EXPECT_EQ(v136.matches.size(), 1u);
    // In 1.34 the field is behind DRAConsumableCapacity, alpha and off: a new selector may not
    // use it, although a class already stored with it still works there.
    const SelectorSweep v134 = sweepSelector(*snapshotOfRelease(list, "v1.34.1"), expression);
    EXPECT_FALSE(v134.valid);
    const json stored = test::listOf({ test::sliceObject("s", "n1", { test::gpuDevice("gpu-0") }),
        test::deviceClass("shareable", expression) });
    EXPECT_EQ(snapshotOfRelease(stored, "v1.34.1")->classMatch("shareable")->devices.size(), 1u);
}

TEST(SnapshotTest, OnlyTheHighestGenerationCountsAndDuplicatesInvalidateThePool)
{
    using test::gpuDevice;
    using test::sliceObject;
    const SnapshotPtr snapshot = test::snapshotOf(test::listOf({
        sliceObject("old", "n1", { gpuDevice("gpu-0"), gpuDevice("gpu-1") }, 1, 1),
        sliceObject("new-a", "n1", { gpuDevice("gpu-0") }, 2, 3),
        sliceObject("new-b", "n1", { gpuDevice("gpu-0"), gpuDevice("gpu-2") }, 2, 3),
    }));
    const Pool *pool = snapshot->pool("gpu.example.com", "n1");
    ASSERT_NE(pool, nullptr);
    EXPECT_EQ(pool->generation, 2);
    EXPECT_EQ(pool->slices, (std::vector<std::string> { "new-a", "new-b" }));
    EXPECT_EQ(pool->staleSlices, (std::vector<std::string> { "old" }));
    EXPECT_FALSE(pool->complete()) << "2 of 3 slices";
    EXPECT_FALSE(pool->valid());
    EXPECT_EQ(pool->duplicateDevices, (std::vector<std::string> { "gpu-0" }));
    EXPECT_EQ(snapshot->devices().size(), 3u) << "the stale slice's devices do not count";
    EXPECT_EQ(snapshot->device({ "gpu.example.com", "n1", "gpu-1" }), nullptr);
    ASSERT_NE(snapshot->slice("old"), nullptr);
    EXPECT_TRUE(snapshot->slice("old")->stale);
    EXPECT_FALSE(snapshot->slice("new-a")->stale);
    const Result<model::Object> object = snapshot->sliceObject("old");
    ASSERT_TRUE(object.has_value());
    EXPECT_EQ(object->as<model::ResourceSlice>()->devices.size(), 2u);
}

TEST(SnapshotTest, NetworkAttachedDevicesAndTaintRules)
{
    json slice
        = test::sliceObject("fabric", "", { test::gpuDevice("gpu-0"), test::gpuDevice("gpu-1") }, 1,
            1, "fabric", { { "allNodes", true } });
    slice["spec"].erase("nodeName");
    const json rule = { { "apiVersion", "resource.k8s.io/v1alpha3" }, { "kind", "DeviceTaintRule" },
        { "metadata", { { "name", "drain-gpu-1" } } },
        { "spec",
            { { "deviceSelector", { { "driver", "gpu.example.com" }, { "device", "gpu-1" } } },
                { "taint", { { "key", "maintenance" }, { "effect", "NoSchedule" } } } } } };
    const SnapshotPtr snapshot = test::snapshotOf(test::listOf({ slice, rule }));
    ASSERT_TRUE(snapshot->problems().empty()) << snapshot->problems().front().message;
    EXPECT_EQ(snapshot->devicesOnNode("").size(), 2u);
    const Device *gpu0 = snapshot->device({ "gpu.example.com", "fabric", "gpu-0" });
    const Device *gpu1 = snapshot->device({ "gpu.example.com", "fabric", "gpu-1" });
    ASSERT_TRUE(gpu0 && gpu1);
    EXPECT_TRUE(gpu0->allNodes);
    EXPECT_TRUE(gpu0->node.empty());
    EXPECT_EQ(snapshot->state(*gpu0), DeviceState::Free);
    EXPECT_EQ(snapshot->state(*gpu1), DeviceState::Tainted);
    ASSERT_EQ(snapshot->effectiveTaints(*gpu1).size(), 1u);
    EXPECT_EQ(snapshot->effectiveTaints(*gpu1)[0].key, "maintenance");
}

TEST(SnapshotTest, UnreadableObjectsAreSkippedAndNamed)
{
    json claim = test::claimObject("ml", "broken", "n1", {}, {});
    claim["spec"]["devices"]["requests"] = "not a list";
    // The record is built by hand: the fixture decoder would refuse the object.
    SnapshotSource source;
    source.cluster = "test";
    model::ObjectRecord record;
    record.key = { "resource.k8s.io", "ResourceClaim", "ml", "broken" };
    record.json = claim.dump();
    source.objects.push_back(record);
    const SnapshotPtr broken = buildSnapshot(std::move(source));
    ASSERT_EQ(broken->problems().size(), 1u);
    EXPECT_EQ(broken->problems()[0].object.name, "broken");
    EXPECT_NE(broken->problems()[0].message.find("ResourceClaim ml/broken"), std::string::npos)
        << broken->problems()[0].message;
    EXPECT_TRUE(broken->objects(model::Kind::ResourceClaim).empty());
}

// The fast path (device rows + skim) and a full decode read the same slice identically.
TEST(SliceReaderTest, RowsAndFullDecodeAgreeOnEveryPresetSlice)
{
    // The mixed preset holds every shape: GPUs, NICs, partitionable MIG devices with counters.
    for (const char *preset : { "mixed" }) {
        for (model::ObjectRecord &record : test::recordsOf(test::presetList(preset, 1))) {
            if (record.key.kind != "ResourceSlice")
                continue;
            model::ObjectRecord withoutRows = record;
            withoutRows.devices.clear();
            const bool hasDevices = !record.devices.empty();
            Result<detail::SlicePtr> fast = detail::readSlice(std::move(record));
            Result<detail::SlicePtr> full = detail::readSlice(std::move(withoutRows));
            ASSERT_TRUE(fast.has_value()) << fast.error().message.toStdString();
            ASSERT_TRUE(full.has_value()) << full.error().message.toStdString();
            EXPECT_TRUE(**fast == **full) << preset << " " << (*fast)->info.name;
            EXPECT_EQ(hasDevices, !(*fast)->devices.empty());
        }
    }
}

TEST(SliceReaderTest, V1beta1SlicesReadLikeV1)
{
    const json v1beta1
        = json::parse(R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceSlice",
      "metadata":{"name":"s1"},
      "spec":{"driver":"gpu.example.com","nodeName":"n1","pool":{"name":"n1","generation":3,"resourceSliceCount":1},
        "devices":[{"name":"gpu-0","basic":{"attributes":{"model":{"string":"X"}},"capacity":{"memory":{"value":"1Gi"}},
          "taints":[{"key":"k","value":"v","effect":"NoExecute"}]}}]}})");
    model::ObjectRecord record = test::recordsOf(test::listOf({ v1beta1 })).front();
    Result<detail::SlicePtr> slice = detail::readSlice(std::move(record));
    ASSERT_TRUE(slice.has_value()) << slice.error().message.toStdString();
    ASSERT_EQ((*slice)->devices.size(), 1u);
    const Device &device = (*slice)->devices[0];
    EXPECT_EQ((*slice)->info.generation, 3);
    EXPECT_EQ(device.attributeText("model"), "X");
    EXPECT_EQ(device.capacity("gpu.example.com/memory")->toString(), "1Gi");
    ASSERT_EQ(device.taints.size(), 1u);
    EXPECT_EQ(device.taints[0].effect, "NoExecute");
}
