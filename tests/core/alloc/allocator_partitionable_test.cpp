// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Partitionable devices (shared counters), per-device node selection and pool validity,
// transcribed from Kubernetes' TestAllocator cases; each test names the upstream case.
#include <gtest/gtest.h>

#include "tests/core/alloc/alloc_fixtures.h"

namespace dra::alloc::test {
namespace {

release::FeatureGates partitionable(bool prioritizedList = false)
{
    release::FeatureGates g;
    g.partitionableDevices = true;
    g.prioritizedList = prioritizedList;
    return g;
}

json mem(const std::string &name, const std::string &amount, const std::string &set = counterSet1)
{
    return consuming(device(name), { { set, { { "memory", amount } } } }, true);
}

json counters(const std::string &name, const std::string &pool, int64_t sliceCount,
    std::vector<json> sets, const json &nodes = node1)
{
    return counterSlice(name, nodes, pool, driverA, std::move(sets), sliceCount);
}

// upstream: "partitionable-devices-single-device"
TEST(AllocatorPartitionableTest, SingleDevice)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices
        = { slice(slice1, node1, pool1, driverA,
                { consuming(device(device1), { { counterSet1, { { "memory", "4Gi" } } } }) }, 2),
              counters(slice2, pool1, 2, { counterSet(counterSet1, { { "memory", "8Gi" } }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } }, { localNode(node1) });
}

// upstream: "partitionable-devices-prioritized-list"
TEST(AllocatorPartitionableTest, PrioritizedList)
{
    Fixture f;
    f.gates = partitionable(true);
    f.claims = { claim(claim0,
        { request(req0, classA, 1),
            firstAvailable(req1,
                { subRequest(subReq0, classA, 1, { memoryAtLeast("6Gi") }),
                    subRequest(subReq1, classA, 1, { memoryAtLeast("4Gi") }) }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { mem(device1, "4Gi"), mem(device2, "6Gi"), mem(device3, "4Gi") }, 2),
        counters(slice2, pool1, 2, { counterSet(counterSet1, { { "memory", "8Gi" } }) }) };
    expectAllocated(
        f, { { "req-0 driver-a/pool-1/device-1", "req-1/subReq-1 driver-a/pool-1/device-3" } });
}

// upstream: "partitionable-devices-multiple-devices"
TEST(AllocatorPartitionableTest, MultipleDevices)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0, { request(req0, classA, 1), request(req1, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { mem(device1, "4Gi"), mem(device2, "6Gi"), mem(device3, "4Gi") }, 2),
        counters(slice2, pool1, 2, { counterSet(counterSet1, { { "memory", "8Gi" } }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-3" } });
}

// upstream: "partitionable-devices-multiple-capacity-pools"
TEST(AllocatorPartitionableTest, MultipleCapacityPools)
{
    Fixture f;
    f.gates = partitionable(true);
    f.claims = { claim(claim0,
        { request(req0, classA, 1),
            firstAvailable(req1,
                { subRequest(subReq0, classA, 1, { memoryAtLeast("6Gi") }),
                    subRequest(subReq1, classA, 1, { memoryAtLeast("4Gi") }) }) }) };
    f.classes = { deviceClass(classA, driverA) };
    auto d = [](const std::string &name, const std::string &memory, const std::string &cpus) {
        return consuming(device(name),
            { { counterSet1, { { "memory", memory } } }, { counterSet2, { { "cpus", cpus } } } },
            true);
    };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { d(device1, "4Gi", "4"), d(device2, "6Gi", "6"), d(device3, "4Gi", "4") }, 2),
        counters(slice2, pool1, 2,
            { counterSet(counterSet1, { { "memory", "18Gi" } }),
                counterSet(counterSet2, { { "cpus", "8" } }) }) };
    expectAllocated(
        f, { { "req-0 driver-a/pool-1/device-1", "req-1/subReq-1 driver-a/pool-1/device-3" } });
}

// upstream: "partitionable-devices-multiple-counters"
TEST(AllocatorPartitionableTest, MultipleCounters)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0, { request(req0, classA, 1), request(req1, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    auto d = [](const std::string &name, std::map<std::string, std::string> set1,
                 std::map<std::string, std::string> set2) {
        return consuming(device(name), { { counterSet1, set1 }, { counterSet2, set2 } }, true);
    };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { d(device1, { { "memory", "4Gi" }, { "cpus", "6" } },
                           { { "cpus", "4" }, { "memory", "2Gi" } }),
                         d(device2, { { "memory", "6Gi" }, { "cpus", "4" } },
                             { { "cpus", "6" }, { "memory", "6Gi" } }),
                         d(device3, { { "memory", "4Gi" }, { "cpus", "4" } },
                             { { "cpus", "4" }, { "memory", "4Gi" } }) },
                     2),
        counters(slice2, pool1, 2,
            { counterSet(counterSet1, { { "cpus", "8" }, { "memory", "18Gi" } }),
                counterSet(counterSet2, { { "cpus", "12" }, { "memory", "18Gi" } }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-2", "req-1 driver-a/pool-1/device-3" } });
}

// upstream: "partitionable-devices-multiple-pools": counters consumed by allocated devices count.
TEST(AllocatorPartitionableTest, MultiplePools)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0, { request(req0, classA, 1), request(req1, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    auto d = [](const std::string &name, const std::string &cpus, const std::string &memory) {
        return consuming(
            device(name), { { counterSet1, { { "cpus", cpus }, { "memory", memory } } } }, true);
    };
    const json sets = counterSet(counterSet1, { { "cpus", "8" }, { "memory", "18Gi" } });
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { d(device1, "6", "4Gi"), d(device2, "4", "6Gi"), d(device3, "4", "4Gi") }, 2),
        counters(slice2, pool1, 2, { sets }),
        slice(slice3, node1, pool2, driverA,
            { d(device1, "6", "4Gi"), d(device2, "1", "7Gi"), d(device3, "1", "7Gi") }, 2),
        counters(slice4, pool2, 2, { sets }) };
    f.allocated
        = { "driver-a/pool-1/device-2", "driver-a/pool-1/device-3", "driver-a/pool-2/device-1" };
    expectAllocated(f, { { "req-0 driver-a/pool-2/device-2", "req-1 driver-a/pool-2/device-3" } });
}

// upstream: "partitionable-devices-unused-counters-in-counter-set"
TEST(AllocatorPartitionableTest, UnusedCountersInCounterSet)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0, { request(req0, classA, 2) }) };
    f.classes = { deviceClass(classA, driverA) };
    auto d = [](const std::string &name, const std::string &memory) {
        return consuming(device(name), { { counterSet1, { { "memory", memory } } } });
    };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { d(device1, "5Gi"), d(device2, "4Gi"), d(device3, "4Gi") }, 2),
        counters(slice2, pool1, 2,
            { counterSet(counterSet1, { { "memory", "8Gi" }, { "unused", "1Gi" } }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-2", "req-0 driver-a/pool-1/device-3" } });
}

// upstream: "partitionable-devices-no-capacity-available"
TEST(AllocatorPartitionableTest, NoCapacityAvailable)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices
        = { slice(slice1, node1, pool1, driverA, { mem(device1, "4Gi"), mem(device2, "16Gi") }),
              counters(slice2, pool1, 1, { counterSet(counterSet1, { { "memory", "18Gi" } }) }) };
    f.allocated = { "driver-a/pool-1/device-2" };
    expectUnfit(f);
}

// upstream: "partitionable-devices-overallocated-capacity-pool"
TEST(AllocatorPartitionableTest, OverallocatedCapacityPool)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices
        = { slice(slice1, node1, pool1, driverA, { mem(device1, "4Gi"), mem(device2, "20Gi") }),
              counters(slice2, pool1, 1, { counterSet(counterSet1, { { "memory", "18Gi" } }) }) };
    f.allocated = { "driver-a/pool-1/device-2" };
    expectUnfit(f);
}

// upstream: "partitionable-devices-disabled-device-consumes-counters"
TEST(AllocatorPartitionableTest, DisabledDeviceConsumesCounters)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { consuming(device(device1), { { counterSet1, { { "memory", "4Gi" } } } }) }),
        counters(slice2, pool1, 1, { counterSet(counterSet1, { { "memory", "18Gi" } }) }) };
    expectUnfit(f);
}

// upstream: "partitionable-devices-disabled-other-device-do-not-consume-counters"
TEST(AllocatorPartitionableTest, DisabledOtherDeviceDoesNotConsumeCounters)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { consuming(device(device1), { { counterSet1, { { "memory", "4Gi" } } } }),
                         device(device2) },
                     2),
        counters(slice2, pool1, 2, { counterSet(counterSet1, { { "memory", "18Gi" } }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-2" } });
}

// upstream: "partitionable-devices-disabled-per-device-node-selection"
TEST(AllocatorPartitionableTest, DisabledPerDeviceNodeSelection)
{
    Fixture f;
    json d = device(device2);
    d["nodeName"] = node1;
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, perDevice, pool1, driverA, { d }) };
    expectUnfit(f);
}

// upstream: "partitionable-devices-per-device-node-selection-nodename"
TEST(AllocatorPartitionableTest, PerDeviceNodeSelectionNodeName)
{
    Fixture f;
    f.gates = partitionable(true);
    f.claims = { claim(claim0,
        { firstAvailable(req0,
            { subRequest(subReq0, classA, 1, { memoryAtLeast("6Gi") }),
                subRequest(subReq1, classA, 1, { memoryAtLeast("4Gi") }) }) }) };
    f.classes = { deviceClass(classA, driverA) };
    json d1 = mem(device1, "4Gi"), d2 = mem(device2, "6Gi");
    d1["nodeName"] = node1;
    d2["nodeName"] = node2;
    f.slices = { slice(slice1, perDevice, pool1, driverA, { d1, d2 }, 2),
        counters(
            slice2, pool1, 2, { counterSet(counterSet1, { { "memory", "18Gi" } }) }, perDevice) };
    expectAllocated(f, { { "req-0/subReq-1 driver-a/pool-1/device-1" } }, { localNode(node1) });
}

// upstream: "partitionable-devices-per-device-node-selection-node-selector"
TEST(AllocatorPartitionableTest, PerDeviceNodeSelectionNodeSelector)
{
    Fixture f;
    f.gates = partitionable(true);
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    json d1 = mem(device1, "4Gi");
    d1["nodeSelector"] = nodeLabelSelector("region", region1);
    f.slices = { slice(slice1, perDevice, pool1, driverA, { d1 }, 2),
        counters(
            slice2, pool1, 2, { counterSet(counterSet1, { { "memory", "18Gi" } }) }, perDevice) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } }, { "labels: region In region-1" });
}

// upstream: "partitionable-devices-per-device-node-selection-node-selector-multiple-devices"
TEST(AllocatorPartitionableTest, PerDeviceNodeSelectionNodeSelectorMultipleDevices)
{
    Fixture f;
    f.gates = partitionable(true);
    f.claims = { claim(claim0, { request(req0, classA, 3), request(req1, classB, 3) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    json d1 = mem(device1, "4Gi"), d2 = mem(device2, "4Gi"), d3 = mem(device3, "4Gi");
    d1["nodeSelector"] = nodeLabelSelector("region", region1);
    d2["nodeName"] = node1;
    d3["allNodes"] = true;
    json b = counterSlice(
        slice4, node1, pool2, driverB, { counterSet(counterSet2, { { "memory", "12Gi" } }) }, 2);
    f.slices = { slice(slice1, perDevice, pool1, driverA, { d1, d2, d3 }, 2),
        counters(
            slice2, pool1, 2, { counterSet(counterSet1, { { "memory", "18Gi" } }) }, perDevice),
        slice(slice3, node1, pool2, driverB,
            { mem(device1, "4Gi", counterSet2), mem(device2, "4Gi", counterSet2),
                mem(device3, "4Gi", counterSet2) },
            2),
        b };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1", "req-0 driver-a/pool-1/device-2",
            "req-0 driver-a/pool-1/device-3", "req-1 driver-b/pool-2/device-1",
            "req-1 driver-b/pool-2/device-2", "req-1 driver-b/pool-2/device-3" } },
        { localNode(node1) });
}

// upstream: "partitionable-devices-with-attribute-selector"
TEST(AllocatorPartitionableTest, WithAttributeSelector)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0,
        { request(req0, classA, 2),
            request(req1, classA, 1, { "device.attributes[\"driver-a\"].special" }) }) };
    f.classes = { deviceClass(classA, driverA) };
    auto d = [](const std::string &name, bool special, const std::string &cpu) {
        return consuming(device(name, {}, { { "special", { { "bool", special } } } }),
            { { counterSet1, { { cpu, "1" } } }, { counterSet2, { { "mem", "10Gi" } } } });
    };
    f.slices = {
        slice(slice1, node1, pool1, driverA,
            { d(device1, true, "cpu1"), d(device2, false, "cpu2"), d(device3, false, "cpu3") }, 2),
        counters(slice2, pool1, 2,
            { counterSet(counterSet1, { { "cpu1", "1" }, { "cpu2", "1" }, { "cpu3", "1" } }),
                counterSet(counterSet2, { { "mem", "30Gi" } }) })
    };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-2", "req-0 driver-a/pool-1/device-3",
            "req-1 driver-a/pool-1/device-1" } });
}

// upstream: "partitionable-devices-same-counter-set-name-in-different-resource-slices"
TEST(AllocatorPartitionableTest, SameCounterSetNameInDifferentSlices)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }, 4),
        counters(slice2, pool1, 4, { counterSet(counterSet1, {}) }),
        slice(slice3, node1, pool1, driverA, { device(device2) }, 4),
        counters(slice4, pool1, 4, { counterSet(counterSet1, {}) }) };
    expectError(f, "invalid resource pools were encountered");
    EXPECT_NE(f.last.error.find("duplicate counter set name counter-set-1"), std::string::npos)
        << f.last.error;
}

// upstream: "partitionable-devices-device-counter-consumption-references-unknown-counter-set"
TEST(AllocatorPartitionableTest, ConsumptionReferencesUnknownCounterSet)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { consuming(device(device1), { { counterSet2, {} } }) }, 2),
        counters(slice2, pool1, 2, { counterSet(counterSet1, {}) }) };
    expectError(f, "invalid resource pools were encountered");
}

// upstream:
// "partitionable-devices-device-counter-consumption-references-unknown-counter-in-counter-set"
TEST(AllocatorPartitionableTest, ConsumptionReferencesUnknownCounter)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { consuming(device(device1), { { counterSet1, { { "memory", "8Gi" } } } }) },
                     2),
        counters(slice2, pool1, 2, { counterSet(counterSet1, { { "other-memory", "8Gi" } }) }) };
    expectError(f, "invalid resource pools were encountered");
    EXPECT_NE(f.last.error.find("counter memory not found in counter set counter-set-1"),
        std::string::npos);
}

// upstream: "partitionable-devices-device-counter-consumption-references-counter-set-in-other-pool"
TEST(AllocatorPartitionableTest, ConsumptionReferencesCounterSetInOtherPool)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { consuming(device(device1), { { counterSet1, { { "memory", "8Gi" } } } }) }),
        counters(slice2, pool2, 1, { counterSet(counterSet1, { { "memory", "8Gi" } }) }) };
    expectError(f, "invalid resource pools were encountered");
}

// upstream: "partitionable-devices-devices-on-different-nodes-consume-same-counter-set": a
// device allocated on another node uses the counters too.
TEST(AllocatorPartitionableTest, DevicesOnDifferentNodesConsumeSameCounterSet)
{
    Fixture f;
    f.gates = partitionable(true);
    f.claims = { claim(claim0,
        { firstAvailable(req0,
            { subRequest(subReq0, classA, 1, { memoryAtLeast("6Gi") }),
                subRequest(subReq1, classA, 1, { memoryAtLeast("2Gi") }) }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { counters(slice1, pool1, 3, { counterSet(counterSet1, { { "memory", "8Gi" } }) }),
        slice(slice2, node1, pool1, driverA, { mem(device1, "6Gi"), mem(device2, "2Gi") }, 3),
        slice(slice3, node2, pool1, driverA,
            { consuming(device(device3), { { counterSet1, { { "memory", "6Gi" } } } }) }, 3) };
    f.allocated = { "driver-a/pool-1/device-3" };
    expectAllocated(f, { { "req-0/subReq-1 driver-a/pool-1/device-2" } });
}

// upstream: "partitionable-devices-validation-error-on-non-targeting-slice"
TEST(AllocatorPartitionableTest, ValidationErrorOnNonTargetingSlice)
{
    Fixture f;
    f.gates = partitionable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { counters(slice1, pool1, 3, { counterSet(counterSet1, { { "memory", "8Gi" } }) }),
        slice(slice2, node1, pool1, driverA, { mem(device1, "6Gi") }, 3),
        slice(slice3, node2, pool1, driverA,
            { consuming(device(device3), { { counterSet2, { { "memory", "6Gi" } } } }) }, 3) };
    expectError(f, "invalid resource pools were encountered");
}

// upstream: "different-resourceslices-in-pool-can-target-different-nodes"
TEST(AllocatorPoolTest, SlicesOfOnePoolTargetDifferentNodes)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node2, pool1, driverA, { device(device1) }, 2),
        slice(slice2, node1, pool1, driverA, { device(device2) }, 2) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-2" } });
}

// upstream: "invalid-pool-is-ok-if-devices-can-be-allocated-from-other"
TEST(AllocatorPoolTest, InvalidPoolIsOkIfAnotherPoolFits)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }, 2),
        slice(slice2, node1, pool1, driverA, { device(device1) }, 2),
        slice(slice3, node1, pool2, driverA, { device(device2) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-2/device-2" } });
}

// upstream: "invalid-pool-is-error-if-no-other-device-can-be-allocated"
TEST(AllocatorPoolTest, InvalidPoolIsErrorIfNothingElseFits)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }, 2),
        slice(slice2, node1, pool1, driverA, { device(device1) }, 2),
        slice(slice3, node1, pool2, driverA, { device(device2) }) };
    f.allocated = { "driver-a/pool-2/device-2" };
    expectError(f, "invalid resource pools were encountered");
}

// upstream: "no-allocation-from-incomplete-pools"
TEST(AllocatorPoolTest, NoAllocationFromIncompletePools)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }, 2) };
    expectUnfit(f);
}

// upstream: "allocation-mode-all-with-multi-host-resource-pool"
TEST(AllocatorPoolTest, AllocationModeAllWithMultiHostPool)
{
    Fixture f;
    f.claims = { claim(claim0, { allRequest(req0, classA) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }, 2),
        slice(slice2, node2, pool1, driverA, { device(device2) }, 2) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } });
}

// upstream: "multi-host-resource-pool-with-stale-slice-for-current-node"
TEST(AllocatorPoolTest, MultiHostPoolWithStaleSliceForCurrentNode)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }, 2, 1),
        slice(slice2, node2, pool1, driverA, { device(device2) }, 2, 2) };
    expectUnfit(f);
}

// upstream: "multi-host-resource-pool-complete-update-from-node-1-to-node-2" and the reverse
TEST(AllocatorPoolTest, MultiHostPoolCompleteUpdate)
{
    for (const bool fromNode1 : { true, false }) {
        SCOPED_TRACE(fromNode1 ? "from node-1 to node-2" : "from node-2 to node-1");
        const std::string first = fromNode1 ? node1 : node2, second = fromNode1 ? node2 : node1;
        Fixture f;
        f.claims = { simpleClaim(claim0, req0, classA) };
        f.classes = { deviceClass(classA, driverA) };
        f.slices = { slice(slice1, first, pool1, driverA, { device(device1) }, 2, 1),
            slice(slice1, first, pool1, driverA, { device(device2) }, 2, 1),
            slice(slice2, second, pool1, driverA, { device(device1) }, 2, 2),
            slice(slice2, second, pool1, driverA, { device(device2) }, 2, 2) };
        expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } });
    }
}

// upstream: "multi-host-resource-pool-incomplete-update-from-node-1-to-node-2"
TEST(AllocatorPoolTest, MultiHostPoolIncompleteUpdateFromNode1)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }, 2, 1),
        slice(slice1, node1, pool1, driverA, { device(device2) }, 2, 1),
        slice(slice2, node2, pool1, driverA, { device(device1) }, 2, 2) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } });
}

// upstream: "multi-host-resource-pool-incomplete-update-from-node-2-to-node-1"
TEST(AllocatorPoolTest, MultiHostPoolIncompleteUpdateFromNode2)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node2, pool1, driverA, { device(device1) }, 2, 1),
        slice(slice1, node2, pool1, driverA, { device(device2) }, 2, 1),
        slice(slice2, node1, pool1, driverA, { device(device1) }, 2, 2) };
    expectUnfit(f);
}

} // namespace
} // namespace dra::alloc::test
