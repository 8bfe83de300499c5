// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Consumable capacity and devices allowing multiple allocations, transcribed from Kubernetes'
// TestAllocator cases; each test names the upstream case.
#include <gtest/gtest.h>

#include "tests/core/alloc/alloc_fixtures.h"

namespace dra::alloc::test {
namespace {

release::FeatureGates consumable()
{
    release::FeatureGates g;
    g.consumableCapacity = true;
    return g;
}

json capacityAll(const std::string &name, const std::string &cls, const std::string &amount)
{
    json r = allRequest(name, cls);
    r["exactly"]["capacity"] = { { "requests", { { capacity0, amount } } } };
    return r;
}

// upstream: "consumable-capacity-disabled-feature"
TEST(AllocatorCapacityTest, DisabledFeature)
{
    Fixture f;
    f.gates.deviceBindingConditions = true;
    f.claims = { claim(claim0, { capacityReq(req0, classA, "1") }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(f,
        "claim claim-0, request req-0: has capacity requests, but the DRAConsumableCapacity "
        "feature is disabled");
}

// upstream: "consumable-capacity-disabled-feature-with-prioritized-list"
TEST(AllocatorCapacityTest, DisabledFeatureWithPrioritizedList)
{
    Fixture f;
    f.gates.prioritizedList = true;
    json s0 = subRequest(subReq0, classA, 1), s1 = subRequest(subReq1, classA, 1);
    s0["capacity"] = s1["capacity"] = { { "requests", { { capacity0, "1" } } } };
    f.claims = { claim(claim0, { firstAvailable(req0, { s0, s1 }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(f,
        "claim claim-0, subrequest subReq-0: has capacity requests, but the DRAConsumableCapacity "
        "feature is disabled");
}

// upstream: "consumable-capacity-multi-allocatable-device-with-missing-capacity-request"
TEST(AllocatorCapacityTest, MissingCapacityRequest)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityReq(req0, classA, "1") }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { multiAllocatable(device(device1, { { capacity1, "1" } })) }) };
    expectUnfit(f);
}

// upstream:
// "consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-request"
TEST(AllocatorCapacityTest, AllocationModeAllWithMissingCapacityRequest)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityAll(req0, classA, "1") }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { multiAllocatable(device(device1, { { capacity1, "1" } })) }) };
    expectUnfit(f);
}

// upstream:
// "consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request"
TEST(AllocatorCapacityTest, SharedDeviceWithoutCapacity)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }),
        claim(claim1, { request(req0, classA, 1) }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA, { multiAllocatable(device(device1)) }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share" }, { "req-0 driver-a/pool-1/device-1 share" } });
    EXPECT_NE(f.last.claims[0].devices[0].shareID, f.last.claims[1].devices[0].shareID);
}

// upstream: "consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request"
TEST(AllocatorCapacityTest, WithoutPolicyWithoutRequestTakesWholeCapacity)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }),
        claim(claim1, { request(req0, classA, 1) }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { multiAllocatable(device(device1, { { capacity0, "1" } })),
            multiAllocatable(device(device2, { { capacity0, "1" } })) }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share capacity-0=1" },
            { "req-0 driver-a/pool-1/device-2 share capacity-0=1" } });
}

// upstream:
// "consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block"
TEST(AllocatorCapacityTest, WithoutPolicyWithoutRequestBlocks)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }),
        claim(claim1, { request(req0, classA, 1) }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { multiAllocatable(device(device1, { { capacity0, "2" } })) }) };
    expectUnfit(f);
}

// upstream: "consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request"
TEST(AllocatorCapacityTest, WithoutPolicyWithRequest)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityReq(req0, classA, "1") }),
        claim(claim1, { capacityReq(req0, classA, "1") }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { multiAllocatable(device(device1, { { capacity0, "2" } })) }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share capacity-0=1" },
            { "req-0 driver-a/pool-1/device-1 share capacity-0=1" } });
}

// upstream: "consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request"
TEST(AllocatorCapacityTest, WithPolicyWithoutRequestUsesDefault)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }),
        claim(claim1, { request(req0, classA, 1) }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withRangePolicy(multiAllocatable(device(device1)), capacity0, "4") }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share capacity-0=2" },
            { "req-0 driver-a/pool-1/device-1 share capacity-0=2" } });
}

// upstream: "consumable-capacity-multi-allocatable-device-with-zero-request-policy"
TEST(AllocatorCapacityTest, ZeroRequestPolicy)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { request(req0, classA, 1) }),
        claim(claim1, { request(req0, classA, 1) }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withValidValues(multiAllocatable(device(device1)), capacity0, "1", "0") }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share capacity-0=0" },
            { "req-0 driver-a/pool-1/device-1 share capacity-0=0" } });
}

// upstream: "consumable-capacity-multi-allocatable-device-violates-zero-request-policy"
TEST(AllocatorCapacityTest, ViolatesZeroRequestPolicy)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityReq(req0, classA, "1") }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withValidValues(multiAllocatable(device(device1)), capacity0, "1", "0") }) };
    expectUnfit(f);
}

// upstream: "consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request"
TEST(AllocatorCapacityTest, RangePolicyRoundsUpToMinimum)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityReq(req0, classA, "1") }),
        claim(claim1, { capacityReq(req0, classA, "1") }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withRangePolicy(multiAllocatable(device(device1)), capacity0, "4") }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share capacity-0=2" },
            { "req-0 driver-a/pool-1/device-1 share capacity-0=2" } });
}

// upstream: "consumable-capacity-multi-allocatable-device-with-range-policy-step"
TEST(AllocatorCapacityTest, RangePolicyRoundsUpToStep)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityReq(req0, classA, "3") }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withRangePolicy(multiAllocatable(device(device1)), capacity0, "4") }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1 share capacity-0=4" } });
}

// upstream: "consumable-capacity-multi-allocatable-device-with-valid-values-policy" and
// "...-round-up"
TEST(AllocatorCapacityTest, ValidValuesPolicy)
{
    Fixture exact;
    exact.gates = consumable();
    exact.claims = { claim(claim0, { capacityReq(req0, classA, "2") }) };
    exact.classes = { deviceClassMulti(classA, driverA, true) };
    exact.slices = { slice(slice1, node1, pool1, driverA,
        { withValidValues(multiAllocatable(device(device1)), capacity0, "4", "1", { "2" }) }) };
    expectAllocated(exact, { { "req-0 driver-a/pool-1/device-1 share capacity-0=2" } });

    Fixture roundUp = exact;
    roundUp.slices = { slice(slice1, node1, pool1, driverA,
        { withValidValues(multiAllocatable(device(device1)), capacity0, "3", "1", { "3" }) }) };
    expectAllocated(roundUp, { { "req-0 driver-a/pool-1/device-1 share capacity-0=3" } });
}

// upstream:
// "consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request"
TEST(AllocatorCapacityTest, ExceededCapacity)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityReq(req0, classA, "1") }),
        claim(claim1, { capacityReq(req0, classA, "2") }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withRangePolicy(multiAllocatable(device(device1)), capacity0, "2") }) };
    expectUnfit(f);
}

// upstream: "consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy"
TEST(AllocatorCapacityTest, RequestOverPolicyMaximum)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityReq(req0, classA, "6") }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withRangePolicy(multiAllocatable(device(device1)), capacity0, "10") }) };
    expectUnfit(f);
}

// upstream: "consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining",
// "...-next-device" and "...-with-no-available-consumable-capacity"
TEST(AllocatorCapacityTest, AllocatedCapacityCounts)
{
    Fixture remaining;
    remaining.gates = consumable();
    remaining.claims = { claim(claim0, { capacityReq(req0, classA, "2") }) };
    remaining.allocatedCapacity = { { "driver-a/pool-1/device-1", { { capacity0, "2" } } } };
    remaining.classes = { deviceClassMulti(classA, driverA, true) };
    remaining.slices = { slice(slice1, node1, pool1, driverA,
        { withRangePolicy(multiAllocatable(device(device1)), capacity0, "4") }) };
    expectAllocated(remaining, { { "req-0 driver-a/pool-1/device-1 share capacity-0=2" } });

    Fixture next = remaining;
    next.slices = { slice(slice1, node1, pool1, driverA,
        { withRangePolicy(multiAllocatable(device(device1)), capacity0, "2"),
            withRangePolicy(multiAllocatable(device(device2)), capacity0, "2") }) };
    expectAllocated(next, { { "req-0 driver-a/pool-1/device-2 share capacity-0=2" } });

    Fixture none = remaining;
    none.slices = { slice(slice1, node1, pool1, driverA,
        { withRangePolicy(multiAllocatable(device(device1)), capacity0, "2") }) };
    expectUnfit(none);
}

// upstream: "consumable-capacity-with-multi-allocatable-device-backtrack"
TEST(AllocatorCapacityTest, SharedDeviceBacktrack)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityReq(req0, classA, "2"), capacityReq(req1, classA, "2") },
                     { matchAttribute("driver-a/stringAttribute") }),
        claim(claim1, { capacityReq(req0, classA, "2") }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withRangePolicy(
              multiAllocatable(device(device2, {},
                  { { "stringAttribute", { { "string", "stringAttributeValue1" } } } })),
              capacity0, "2"),
            withRangePolicy(
                multiAllocatable(device(device1, {},
                    { { "stringAttribute", { { "string", "stringAttributeValue2" } } } })),
                capacity0, "4") }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share capacity-0=2",
              "req-1 driver-a/pool-1/device-1 share capacity-0=2" },
            { "req-0 driver-a/pool-1/device-2 share capacity-0=2" } });
}

// upstream: "consumable-capacity-multi-allocatable-device-with-subrequest"
TEST(AllocatorCapacityTest, Subrequest)
{
    Fixture f;
    f.gates = consumable();
    f.gates.prioritizedList = true;
    json s0 = subRequest(subReq0, classA, 1), s1 = subRequest(subReq1, classA, 1);
    s0["capacity"] = { { "requests", { { capacity0, "4" } } } };
    s1["capacity"] = { { "requests", { { capacity0, "2" } } } };
    f.claims
        = { claim(claim0, { firstAvailable(req0, { s0, s1, subRequest(subReq1, classA, 1) }) }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withRangePolicy(multiAllocatable(device(device1)), capacity0, "2") }) };
    expectAllocated(f, { { "req-0/subReq-1 driver-a/pool-1/device-1 share capacity-0=2" } });
}

// upstream:
// "consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity" and
// "...-filter-out-insufficient-capacity"
TEST(AllocatorCapacityTest, AllocationModeAllFiltersByCapacity)
{
    for (const bool secondHasCapacity : { false, true }) {
        SCOPED_TRACE(secondHasCapacity ? "insufficient capacity" : "no capacity");
        Fixture f;
        f.gates = consumable();
        f.claims = { claim(claim0, { capacityAll(req0, classA, "2") }) };
        f.classes = { deviceClassMulti(classA, driverA, true) };
        json second = secondHasCapacity ? device(device2, { { capacity0, "1" } }) : device(device2);
        f.slices = { slice(slice1, node1, pool1, driverA,
            { multiAllocatable(device(device1, { { capacity0, "2" } })),
                multiAllocatable(second) }) };
        expectAllocated(f, { { "req-0 driver-a/pool-1/device-1 share capacity-0=2" } });
    }
}

// upstream:
// "consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient"
TEST(AllocatorCapacityTest, AllocationModeAllAllocatingSufficient)
{
    Fixture f;
    f.gates = consumable();
    f.claims
        = { claim(claim0, { capacityReq(req0, classA, "1"), capacityAll(req1, classA, "1") }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { multiAllocatable(device(device1, { { capacity0, "2" } })),
            multiAllocatable(device(device2, { { capacity0, "1" } })) }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share capacity-0=1",
            "req-1 driver-a/pool-1/device-1 share capacity-0=1",
            "req-1 driver-a/pool-1/device-2 share capacity-0=1" } });
}

// upstream: "consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient"
TEST(AllocatorCapacityTest, AllocationModeAllInUseSufficient)
{
    Fixture f;
    f.gates = consumable();
    f.allocatedCapacity = { { "driver-a/pool-1/device-1", { { capacity0, "1" } } } };
    f.claims = { claim(claim0, { capacityAll(req0, classA, "1") }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { multiAllocatable(device(device1, { { capacity0, "2" } })),
            multiAllocatable(device(device2, { { capacity0, "1" } })) }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share capacity-0=1",
            "req-0 driver-a/pool-1/device-2 share capacity-0=1" } });
}

// upstream:
// "consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient"
TEST(AllocatorCapacityTest, AllocationModeAllAllocatingInsufficient)
{
    Fixture f;
    f.gates = consumable();
    f.claims
        = { claim(claim0, { capacityReq(req0, classA, "1"), capacityAll(req1, classA, "1") }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { multiAllocatable(device(device1, { { capacity0, "1" } })),
            multiAllocatable(device(device2, { { capacity0, "1" } })) }) };
    expectUnfit(f);
}

// upstream: "consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient"
TEST(AllocatorCapacityTest, AllocationModeAllInUseInsufficient)
{
    Fixture f;
    f.gates = consumable();
    f.allocatedCapacity = { { "driver-a/pool-1/device-1", { { capacity0, "1" } } } };
    f.claims = { claim(claim0, { capacityAll(req0, classA, "1") }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { multiAllocatable(device(device1, { { capacity0, "1" } })),
            multiAllocatable(device(device2, { { capacity0, "1" } })) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-2 share capacity-0=1" } });
}

// upstream: "consumable-capacity-dedicated-device-with-consumable-capacity-request"
TEST(AllocatorCapacityTest, DedicatedDeviceWithCapacityRequest)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityReq(req0, classA, "1") }) };
    f.classes = { deviceClassMulti(classA, driverA, false) };
    f.slices
        = { slice(slice1, node1, pool1, driverA, { device(device1, { { capacity0, "1" } }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } });
}

// upstream: "consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request"
TEST(AllocatorCapacityTest, DedicatedDeviceTakenOnce)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityReq(req0, classA, "1") }),
        claim(claim1, { capacityReq(req0, classA, "1") }) };
    f.classes = { deviceClassMulti(classA, driverA, false) };
    f.slices = { slice(
        slice1, node1, pool1, driverA, { withRangePolicy(device(device1), capacity0, "2") }) };
    expectUnfit(f);
}

// upstream: "allow-multiple-allocations-exclude-multi-allocatable-device-by-class-selector"
TEST(AllocatorCapacityTest, ClassExcludesShareableDevices)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityReq(req0, classA, "1") }) };
    f.classes = { deviceClassMulti(classA, driverA, false) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { multiAllocatable(device(device1, { { capacity0, "1" } })) }) };
    expectUnfit(f);
}

// upstream:
// "allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated"
TEST(AllocatorCapacityTest, ShareableDeviceAlreadyDedicated)
{
    Fixture f;
    f.gates = consumable();
    f.allocated = { "driver-a/pool-1/device-1" };
    f.claims = { claim(claim0, { capacityReq(req0, classA, "1") }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withRangePolicy(multiAllocatable(device(device1)), capacity0, "2") }) };
    expectUnfit(f);
}

// upstream:
// "allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-multi-allocatable"
TEST(AllocatorCapacityTest, DedicatedDeviceStillShared)
{
    Fixture f;
    f.gates = consumable();
    f.allocatedCapacity = { { "driver-a/pool-1/device-1", { { capacity0, "1" } } } };
    f.claims = { claim(claim0, { capacityReq(req0, classA, "1") }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(
        slice1, node1, pool1, driverA, { withRangePolicy(device(device1), capacity0, "2") }) };
    expectUnfit(f);
}

// upstream: "allow-multiple-allocations-with-partitionable-device"
TEST(AllocatorCapacityTest, ShareablePartitionableDevices)
{
    Fixture f;
    f.gates = consumable();
    f.gates.prioritizedList = true;
    f.gates.partitionableDevices = true;
    f.claims = { claim(claim0,
        { request(req0, classA, 1),
            firstAvailable(req1,
                { subRequest(subReq0, classA, 1, { memoryAtLeast("6Gi") }),
                    subRequest(subReq1, classA, 1, { memoryAtLeast("4Gi") }) }) }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    auto d = [](const std::string &name, const std::string &memory) {
        return multiAllocatable(
            consuming(device(name), { { counterSet1, { { "memory", memory } } } }, true));
    };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { d(device1, "4Gi"), d(device2, "6Gi"), d(device3, "4Gi") }, 2),
        counterSlice(slice2, node1, pool1, driverA,
            { counterSet(counterSet1, { { "memory", "8Gi" } }) }, 2) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share memory=4294967296",
            "req-1/subReq-1 driver-a/pool-1/device-3 share memory=4294967296" } });
}

// upstream: "consumable-capacity-with-partitionable-device-multiple-capacity-pools"
TEST(AllocatorCapacityTest, ShareablePartitionableMultipleCounterSets)
{
    Fixture f;
    f.gates = consumable();
    f.gates.prioritizedList = true;
    f.gates.partitionableDevices = true;
    json s0 = subRequest(subReq0, classA, 1,
        { "device.capacity[\"driver-a\"][\"capacity-0\"].compareTo(quantity(\"4\")) >= 0" });
    json s1 = subRequest(subReq1, classA, 1,
        { "device.capacity[\"driver-a\"][\"capacity-0\"].compareTo(quantity(\"2\")) >= 0" });
    s0["capacity"] = s1["capacity"] = { { "requests", { { capacity0, "1" } } } };
    f.claims = { claim(claim0,
        { capacityReq(req0, classA, "1"), capacityReq(req2, classA, "2"),
            firstAvailable(req1, { s0, s1 }) }) };
    f.classes = { deviceClass(classA, driverA) };
    auto d = [](const std::string &name, const std::string &c0) {
        return withRangePolicy(
            multiAllocatable(consuming(device(name),
                { { counterSet1, { { capacity0, c0 } } }, { counterSet2, { { capacity1, "4" } } } },
                true)),
            capacity1, "4");
    };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { d(device1, "2"), d(device2, "4"), d(device3, "2") }, 2),
        counterSlice(slice2, node1, pool1, driverA,
            { counterSet(counterSet1, { { capacity0, "4" } }),
                counterSet(counterSet2, { { capacity1, "8" } }) },
            2) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share capacity-0=1 capacity-1=2",
            "req-1/subReq-1 driver-a/pool-1/device-1 share capacity-0=1 capacity-1=2",
            "req-2 driver-a/pool-1/device-3 share capacity-0=2 capacity-1=2" } });
}

// upstream: "distinct-constraint-two-multi-allocatable-devices-with-distinct-constraint"
TEST(AllocatorCapacityTest, DistinctConstraintTwoSharedDevices)
{
    Fixture f;
    f.gates = consumable();
    f.claims = { claim(claim0, { capacityReq(req0, classA, "2"), capacityReq(req1, classA, "2") },
        { distinctAttribute("driver-a/stringAttribute") }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
                     { withRangePolicy(multiAllocatable(device(device1, {},
                                           { { "stringAttribute", { { "string", "v1" } } } })),
                         capacity0, "4") },
                     2),
        slice(slice1, node1, pool1, driverA,
            { withRangePolicy(multiAllocatable(device(
                                  device2, {}, { { "stringAttribute", { { "string", "v2" } } } })),
                capacity0, "4") },
            2) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share capacity-0=2",
            "req-1 driver-a/pool-1/device-2 share capacity-0=2" } });
}

} // namespace
} // namespace dra::alloc::test
