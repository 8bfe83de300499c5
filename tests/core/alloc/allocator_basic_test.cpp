// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Table tests transcribed from Kubernetes' allocator tests (TestAllocator in
// dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go).
// Each test names the upstream case it comes from.
#include <gtest/gtest.h>

#include "tests/core/alloc/alloc_fixtures.h"

namespace dra::alloc::test {
namespace {

const std::string localNode1 = localNode(node1);

// upstream: "simple"
TEST(AllocatorBasicTest, Simple)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } }, { localNode1 });
}

// upstream: "other-node"
TEST(AllocatorBasicTest, OtherNode)
{
    Fixture f;
    f.node = node2;
    f.region = region2;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverB, { device(device1) }),
        slice(slice2, node2, pool2, driverA, { device(device1) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-2/device-1" } }, { localNode(node2) });
}

// upstream: "small-and-large"
TEST(AllocatorBasicTest, SmallAndLarge)
{
    Fixture f;
    f.claims = { claim(claim0,
        { request(req0, classA, 1, { memoryAtLeast("1Gi") }),
            request(req1, classA, 1, { memoryAtLeast("2Gi") }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device1, { { "memory", "1Gi" } }), device(device2, { { "memory", "2Gi" } }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-2" } });
}

// upstream: "small-and-large-backtrack-requests": the large device first goes to the small
// request, and that choice must be undone.
TEST(AllocatorBasicTest, SmallAndLargeBacktrackRequests)
{
    Fixture f;
    f.claims = { claim(claim0,
        { request(req0, classA, 1, { memoryAtLeast("1Gi") }),
            request(req1, classA, 1, { memoryAtLeast("2Gi") }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device2, { { "memory", "2Gi" } }), device(device1, { { "memory", "1Gi" } }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-2" } });
    EXPECT_GT(f.last.steps, 4);
}

// upstream: "small-and-large-backtrack-claims"
TEST(AllocatorBasicTest, SmallAndLargeBacktrackClaims)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1, { memoryAtLeast("1Gi") }) }),
        claim(claim1, { request(req1, classA, 1, { memoryAtLeast("2Gi") }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device2, { { "memory", "2Gi" } }), device(device1, { { "memory", "1Gi" } }) }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1" }, { "req-1 driver-a/pool-1/device-2" } },
        { localNode1, localNode1 });
}

// upstream: "devices-split-across-different-slices"
TEST(AllocatorBasicTest, DevicesSplitAcrossDifferentSlices)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 2) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }),
        slice(slice2, node1, pool2, driverA, { device(device1) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1", "req-0 driver-a/pool-2/device-1" } });
}

// upstream: "obsolete-slice": the newer generation is incomplete, so nothing is allocated.
TEST(AllocatorBasicTest, ObsoleteSlice)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice("slice-1-obsolete", node1, pool1, driverA, { device(device1) }, 2, 1),
        slice("slice-1-obsolete", node1, pool1, driverA, { device(device2) }, 2, 2) };
    expectUnfit(f);
}

// upstream: "duplicate-slice"
TEST(AllocatorBasicTest, DuplicateSlice)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }, 2),
        slice(slice1 + "-2", node1, pool1, driverA, { device(device1) }, 2) };
    expectError(f, "invalid resource pools were encountered");
    EXPECT_NE(f.last.error.find("duplicate device name device-1"), std::string::npos)
        << f.last.error;
}

// upstream: "no-slices"
TEST(AllocatorBasicTest, NoSlices)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    expectUnfit(f);
}

// upstream: "not-enough-suitable-devices"
TEST(AllocatorBasicTest, NotEnoughSuitableDevices)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA), simpleClaim(claim0, req1, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectUnfit(f);
}

// upstream: "no-classes"
TEST(AllocatorBasicTest, NoClasses)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(f, "could not retrieve device class class-a");
    EXPECT_TRUE(f.last.claimLevelError);
}

// upstream: "unknown-class"
TEST(AllocatorBasicTest, UnknownClass)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, "unknown-class") };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(f, "could not retrieve device class unknown-class");
}

// upstream: "empty-class"
TEST(AllocatorBasicTest, EmptyClass)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, "") };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(
        f, "claim claim-0, request req-0: missing device class name (unsupported request type?)");
}

// upstream: "no-claims-to-allocate"
TEST(AllocatorBasicTest, NoClaimsToAllocate)
{
    Fixture f;
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectAllocated(f, {});
}

// upstream: "all-devices-single"
TEST(AllocatorBasicTest, AllDevicesSingle)
{
    Fixture f;
    f.claims = { claim(claim0, { allRequest(req0, classA) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } }, { localNode1 });
}

// upstream: "all-devices-many"
TEST(AllocatorBasicTest, AllDevicesMany)
{
    Fixture f;
    f.claims = { claim(claim0, { allRequest(req0, classA) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }),
        slice(slice1, node1, pool2, driverA, { device(device1) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1", "req-0 driver-a/pool-2/device-1" } });
}

// upstream: "all-devices-of-the-incomplete-pool"
TEST(AllocatorBasicTest, AllDevicesOfTheIncompletePool)
{
    Fixture f;
    f.claims = { claim(claim0, { allRequest(req0, classA) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }, 2) };
    expectError(f,
        "claim claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is "
        "currently being updated");
}

// upstream: "all-devices-plus-another"
TEST(AllocatorBasicTest, AllDevicesPlusAnother)
{
    Fixture f;
    f.claims = { claim(claim0, { allRequest(req0, classA) }),
        claim(claim1, { request(req0, classB, 1) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }),
        slice(slice1, node1, pool1, driverB, { device(device1) }) };
    expectAllocated(
        f, { { "req-0 driver-a/pool-1/device-1" }, { "req-0 driver-b/pool-1/device-1" } });
}

// upstream: "all-devices-plus-another-reversed"
TEST(AllocatorBasicTest, AllDevicesPlusAnotherReversed)
{
    Fixture f;
    f.claims = { claim(claim1, { request(req0, classB, 1) }),
        claim(claim0, { allRequest(req0, classA) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }),
        slice(slice1, node1, pool1, driverB, { device(device1) }) };
    expectAllocated(
        f, { { "req-0 driver-b/pool-1/device-1" }, { "req-0 driver-a/pool-1/device-1" } });
}

// upstream: "all-devices-many-plus-another"
TEST(AllocatorBasicTest, AllDevicesManyPlusAnother)
{
    Fixture f;
    f.claims = { claim(claim0, { allRequest(req0, classA) }),
        claim(claim1, { request(req0, classB, 1) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }),
        slice(slice1, node1, pool1, driverB, { device(device1) }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1", "req-0 driver-a/pool-1/device-2" },
            { "req-0 driver-b/pool-1/device-1" } });
}

// upstream: "all-devices-no-solution"
TEST(AllocatorBasicTest, AllDevicesNoSolution)
{
    Fixture f;
    f.claims = { claim(claim1, { request(req0, classA, 1) }),
        claim(claim0, { allRequest(req0, classA) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectUnfit(f);
}

// upstream: "all-devices-no-solution-reversed"
TEST(AllocatorBasicTest, AllDevicesNoSolutionReversed)
{
    Fixture f;
    f.claims = { claim(claim0, { allRequest(req0, classA) }),
        claim(claim1, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectUnfit(f);
}

// upstream: "all-devices-slice-without-devices"
TEST(AllocatorBasicTest, AllDevicesSliceWithoutDevices)
{
    Fixture f;
    f.claims = { claim(claim0, { allRequest(req0, classA) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, {}) };
    expectUnfit(f);
}

// upstream: "all-devices-some-allocated"
TEST(AllocatorBasicTest, AllDevicesSomeAllocated)
{
    Fixture f;
    f.claims = { claim(claim0, { allRequest(req0, classA) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }) };
    f.allocated = { "driver-a/pool-1/device-1" };
    expectUnfit(f);
}

// upstream: "network-attached-device"
TEST(AllocatorBasicTest, NetworkAttachedDevice)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(
        slice1, nodeLabelSelector("region", region1), pool1, driverA, { device(device1) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } }, { "labels: region In region-1" });
}

// upstream: "unsuccessful-allocation-network-attached-device"
TEST(AllocatorBasicTest, UnsuccessfulAllocationNetworkAttachedDevice)
{
    Fixture f;
    f.node = node2;
    f.region = region2;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(
        slice1, nodeLabelSelector("region", region1), pool1, driverA, { device(device1) }) };
    expectUnfit(f);
}

// upstream: "many-network-attached-devices": the node selector is the union of the slices'.
TEST(AllocatorBasicTest, ManyNetworkAttachedDevices)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 4) }) };
    f.classes = { deviceClass(classA, driverA) };
    json local = { { "nodeSelectorTerms",
        json::array({ { { "matchFields",
            json::array({ { { "key", "metadata.name" }, { "operator", "In" },
                { "values", { node1 } } } }) } } }) } };
    f.slices = { slice(slice1, nodeLabelSelector("region", region1), pool1, driverA,
                     { device(device1) }),
        slice(slice1, allNodes, pool2, driverA, { device(device1) }),
        slice(slice1, nodeLabelSelector("planet", "earth"), pool3, driverA, { device(device1) }),
        slice(slice1, local, pool4, driverA, { device(device1) }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1", "req-0 driver-a/pool-2/device-1",
            "req-0 driver-a/pool-3/device-1", "req-0 driver-a/pool-4/device-1" } },
        { "fields: metadata.name In node-1; labels: planet In earth, region In region-1" });
}

// upstream: "local-and-network-attached-devices": one node-local device binds the claim to the
// node.
TEST(AllocatorBasicTest, LocalAndNetworkAttachedDevices)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 2) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, nodeLabelSelector("region", region1), pool1, driverA,
                     { device(device1) }),
        slice(slice1, node1, pool2, driverA, { device(device1) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1", "req-0 driver-a/pool-2/device-1" } },
        { localNode1 });
}

// upstream: "several-different-drivers"
TEST(AllocatorBasicTest, SeveralDifferentDrivers)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA), simpleClaim(claim0, req0, classB) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }),
        slice(slice1, node1, pool1, driverB, { device(device1) }) };
    expectAllocated(
        f, { { "req-0 driver-a/pool-1/device-1" }, { "req-0 driver-b/pool-1/device-1" } });
}

// upstream: "already-allocated-devices"
TEST(AllocatorBasicTest, AlreadyAllocatedDevices)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    f.allocated = { "driver-a/pool-1/device-1", "driver-a/pool-1/device-2" };
    expectUnfit(f);
}

// upstream: "unknown-selector"
TEST(AllocatorBasicTest, UnknownSelector)
{
    Fixture f;
    json c = simpleClaim(claim0, req0, classA);
    c["spec"]["devices"]["requests"][0]["exactly"]["selectors"] = json::array({ json::object() });
    f.claims = { c };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(f, "CEL expression empty (unsupported selector type?)");
}

// upstream: "unknown-allocation-mode"
TEST(AllocatorBasicTest, UnknownAllocationMode)
{
    Fixture f;
    f.claims = { withExactly(simpleClaim(claim0, req0, classA), "allocationMode", "future-mode") };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(f, "unsupported count mode future-mode");
}

// upstream: "unknown-constraint"
TEST(AllocatorBasicTest, UnknownConstraint)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA, { json::object() }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(f, "empty constraint (unsupported constraint type?)");
}

// upstream: "invalid-CEL-one-device"
TEST(AllocatorBasicTest, InvalidCelOneDevice)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1, { "noSuchVar" }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(f, "undeclared reference");
    EXPECT_NE(f.last.error.find("claim claim-0: selector #0: CEL compile error"), std::string::npos)
        << f.last.error;
}

// upstream: "invalid-CEL-one-device-class"
TEST(AllocatorBasicTest, InvalidCelOneDeviceClass)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA) };
    json cls = deviceClass(classA, driverA);
    cls["spec"]["selectors"][0]["cel"]["expression"] = "noSuchVar";
    f.classes = { cls };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(f, "undeclared reference");
    EXPECT_NE(f.last.error.find("class class-a: selector #0: CEL compile error"), std::string::npos)
        << f.last.error;
}

// upstream: "invalid-CEL-all-devices"
TEST(AllocatorBasicTest, InvalidCelAllDevices)
{
    Fixture f;
    json c = claim(claim0, { request(req0, classA, 1, { "noSuchVar" }) });
    f.claims = { withExactly(c, "allocationMode", "All") };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(f, "undeclared reference");
}

// upstream: "too-many-devices-single-request"
TEST(AllocatorBasicTest, TooManyDevicesSingleRequest)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 500) }) };
    f.classes = { deviceClass(classA, driverA) };
    expectError(f, "exceeds the claim limit");
}

// upstream: "many-devices-okay": 32 is allowed (there are no devices, so nothing is allocated).
TEST(AllocatorBasicTest, ManyDevicesOkay)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, kAllocationResultsMaxSize) }) };
    f.classes = { deviceClass(classA, driverA) };
    expectUnfit(f);
}

// upstream: "too-many-devices-total"
TEST(AllocatorBasicTest, TooManyDevicesTotal)
{
    Fixture f;
    f.claims = { claim(
        claim0, { request(req0, classA, kAllocationResultsMaxSize), request(req1, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { sliceWithDevices(slice1, node1, pool1, driverA, kAllocationResultsMaxSize + 1) };
    expectError(f, "exceeds the claim limit");
}

// upstream: "max-number-devices"
TEST(AllocatorBasicTest, MaxNumberDevices)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, kAllocationResultsMaxSize) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { sliceWithDevices(slice1, node1, pool1, driverA, kAllocationResultsMaxSize) };
    std::vector<std::string> expected;
    for (int i = 0; i < kAllocationResultsMaxSize; ++i)
        expected.push_back("req-0 driver-a/pool-1/device-" + std::to_string(i));
    expectAllocated(f, { expected });
}

} // namespace
} // namespace dra::alloc::test
