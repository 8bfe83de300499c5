// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Admin access, constraints and prioritized lists (firstAvailable), transcribed from
// Kubernetes' TestAllocator cases; each test names the upstream case.
#include <gtest/gtest.h>

#include "tests/core/alloc/alloc_fixtures.h"

namespace dra::alloc::test {
namespace {

const std::string intAttribute = "driver-a/numa";
const std::string boolAttribute = "driver-a/boolAttribute";
const std::string stringAttribute = "driver-a/stringAttribute";
const std::string versionAttribute = "driver-a/driverVersion";

release::FeatureGates adminAccessOn()
{
    release::FeatureGates g;
    g.adminAccess = true;
    return g;
}

release::FeatureGates prioritizedListOn()
{
    release::FeatureGates g;
    g.prioritizedList = true;
    return g;
}

json attrs(json values)
{
    return values;
}

// upstream: "all-devices-some-allocated-admin-access"
TEST(AllocatorAdminAccessTest, AllDevicesSomeAllocated)
{
    Fixture f;
    f.gates = adminAccessOn();
    f.claims = { withExactly(withExactly(simpleClaim(claim0, req0, classA), "adminAccess", true),
        "allocationMode", "All") };
    f.allocated = { "driver-a/pool-1/device-1" };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }) };
    expectAllocated(
        f, { { "req-0 driver-a/pool-1/device-1 admin", "req-0 driver-a/pool-1/device-2 admin" } });
}

// upstream: "all-devices-some-allocating-admin-access"
TEST(AllocatorAdminAccessTest, AllDevicesSomeAllocating)
{
    Fixture f;
    f.gates = adminAccessOn();
    json c = claim(claim0, { request(req0, classA, 1), request(req1, classA, 1) });
    c["spec"]["devices"]["requests"][0]["exactly"]["adminAccess"] = true;
    c["spec"]["devices"]["requests"][1]["exactly"]["adminAccess"] = true;
    c["spec"]["devices"]["requests"][1]["exactly"]["allocationMode"] = "All";
    f.claims = { c };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }) };
    expectUnfit(f);
}

// upstream: "count-devices-some-allocated-admin-access"
TEST(AllocatorAdminAccessTest, CountDevicesSomeAllocated)
{
    Fixture f;
    f.gates = adminAccessOn();
    f.claims = { withExactly(
        withExactly(simpleClaim(claim0, req0, classA), "adminAccess", true), "count", 2) };
    f.allocated = { "driver-a/pool-1/device-1" };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }) };
    expectAllocated(
        f, { { "req-0 driver-a/pool-1/device-1 admin", "req-0 driver-a/pool-1/device-2 admin" } });
}

// upstream: "separate-claims-share-device-admin-access"
TEST(AllocatorAdminAccessTest, SeparateClaimsShareDevice)
{
    Fixture f;
    f.gates = adminAccessOn();
    f.claims = { withExactly(simpleClaim(claim0, req0, classA), "adminAccess", true),
        withExactly(simpleClaim(claim1, req0, classA), "adminAccess", true) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 admin" }, { "req-0 driver-a/pool-1/device-1 admin" } });
}

// upstream: "admin-access-claims-device-allocating-for-non-admin-access"
TEST(AllocatorAdminAccessTest, ClaimsDeviceAllocatingForNonAdminAccess)
{
    Fixture f;
    f.gates = adminAccessOn();
    f.claims = { simpleClaim(claim0, req0, classA),
        withExactly(simpleClaim(claim1, req0, classA), "adminAccess", true) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }) };
    expectAllocated(
        f, { { "req-0 driver-a/pool-1/device-1" }, { "req-0 driver-a/pool-1/device-1 admin" } });
}

// upstream: "admin-access-disabled"
TEST(AllocatorAdminAccessTest, Disabled)
{
    Fixture f;
    f.claims = { withExactly(simpleClaim(claim0, req0, classA), "adminAccess", true) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(
        f, "claim claim-0, request req-0: admin access is requested, but the feature is disabled");
}

// upstream: "admin-access-enabled": allocated devices remain available for admin access.
TEST(AllocatorAdminAccessTest, Enabled)
{
    Fixture f;
    f.gates = adminAccessOn();
    f.claims = { withExactly(simpleClaim(claim0, req0, classA), "adminAccess", true) };
    f.allocated = { "driver-a/pool-1/device-1", "driver-a/pool-1/device-2" };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1 admin" } });
}

// upstream: "with-constraint"
TEST(AllocatorConstraintTest, WithConstraint)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1), request(req1, classA, 1) },
        { matchAttribute(intAttribute), matchAttribute(versionAttribute),
            matchAttribute(stringAttribute), matchAttribute(boolAttribute) }) };
    f.classes = { deviceClass(classA, driverA) };
    const json attributes
        = { { "driverVersion", { { "version", "1.0.0" } } }, { "numa", { { "int", 1 } } },
              { "stringAttribute", { { "string", "stringAttributeValue" } } },
              { "boolAttribute", { { "bool", true } } } };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device1, {}, attributes), device(device2, {}, attributes) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-2" } });
}

// upstream: "with-constraint-non-existent-attribute"
TEST(AllocatorConstraintTest, NonExistentAttribute)
{
    Fixture f;
    f.claims = { simpleClaim(
        claim0, req0, classA, { matchAttribute("driver-a/NonExistentAttribute") }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectUnfit(f);
}

// upstream: "with-constraint-not-matching-int-attribute", "...-string-...", "...-bool-...",
// "...-version-..."
TEST(AllocatorConstraintTest, NotMatchingAttributeOfEachType)
{
    const std::vector<std::pair<std::string, std::pair<json, json>>> cases = {
        { intAttribute, { { { "numa", { { "int", 1 } } } }, { { "numa", { { "int", 2 } } } } } },
        { stringAttribute,
            { { { "stringAttribute", { { "string", "stringAttributeValue" } } } },
                { { "stringAttribute", { { "string", "stringAttributeValue2" } } } } } },
        { boolAttribute,
            { { { "boolAttribute", { { "bool", true } } } },
                { { "boolAttribute", { { "bool", false } } } } } },
        { versionAttribute,
            { { { "driverVersion", { { "version", "1.0.0" } } } },
                { { "driverVersion", { { "version", "2.0.0" } } } } } },
    };
    for (const auto &[attribute, values] : cases) {
        SCOPED_TRACE(attribute);
        Fixture f;
        f.claims = { claim(claim0, { request(req0, classA, 2) }, { matchAttribute(attribute) }) };
        f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
        f.slices = { slice(slice1, node1, pool1, driverA,
            { device(device1, {}, values.first), device(device2, {}, values.second) }) };
        expectUnfit(f);
    }
}

// upstream: "with-constraint-not-matching-int-attribute-all-devices"
TEST(AllocatorConstraintTest, NotMatchingIntAttributeAllDevices)
{
    Fixture f;
    f.claims = { withExactly(
        claim(claim0, { request(req0, classA, 0) }, { matchAttribute(intAttribute) }),
        "allocationMode", "All") };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device1, {}, attrs({ { "numa", { { "int", 1 } } } })),
            device(device2, {}, attrs({ { "numa", { { "int", 2 } } } })) }) };
    expectError(f,
        "claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim "
        "constraint would not be satisfied");
}

// upstream: "with-constraint-for-request"
TEST(AllocatorConstraintTest, ForRequest)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1), request(req1, classA, 1) },
        { matchAttribute(versionAttribute, { req0 }) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device1, {}, attrs({ { "driverVersion", { { "version", "1.0.0" } } } })),
            device(device2, {}, attrs({ { "driverVersion", { { "version", "2.0.0" } } } })) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-2" } });
}

// upstream: "with-constraint-for-request-retry"
TEST(AllocatorConstraintTest, ForRequestRetry)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1), request(req1, classA, 1) },
        { matchAttribute(versionAttribute, { req0 }), matchAttribute(stringAttribute) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device1, {},
              attrs({ { "driverVersion", { { "version", "1.0.0" } } },
                  { "stringAttribute", { { "string", "a" } } } })),
            device(device2, {},
                attrs({ { "driverVersion", { { "version", "2.0.0" } } },
                    { "stringAttribute", { { "string", "b" } } } })),
            device(device3, {},
                attrs({ { "driverVersion", { { "version", "3.0.0" } } },
                    { "stringAttribute", { { "string", "b" } } } })) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-2", "req-1 driver-a/pool-1/device-3" } });
}

// upstream: "with-distinct-constraints"
TEST(AllocatorConstraintTest, DistinctConstraints)
{
    Fixture f;
    f.gates.consumableCapacity = true;
    f.claims = { claim(claim0,
        { request(req0, classA, 1), request(req1, classA, 1), request(req2, classA, 1),
            request(req3, classA, 1) },
        { distinctAttribute(boolAttribute, { req0, req1 }),
            distinctAttribute(versionAttribute, { req0, req1, req2 }),
            distinctAttribute(intAttribute, { req0, req1, req2, req3 }) }) };
    f.classes = { deviceClass(classA, driverA) };
    auto d = [](const std::string &name, const std::string &version, int numa, bool b) {
        return multiAllocatable(device(name, {},
            attrs({ { "driverVersion", { { "version", version } } },
                { "numa", { { "int", numa } } }, { "boolAttribute", { { "bool", b } } } })));
    };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { d(device1, "1.0.0", 0, true), d(device2, "1.0.1", 1, false), d(device3, "1.0.2", 2, true),
            d(device4, "1.0.0", 3, true) }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1 share", "req-1 driver-a/pool-1/device-2 share",
            "req-2 driver-a/pool-1/device-3 share", "req-3 driver-a/pool-1/device-4 share" } });
}

// upstream: "with-distinct-constraints-attribute-not-set"
TEST(AllocatorConstraintTest, DistinctAttributeNotSet)
{
    Fixture f;
    f.gates.consumableCapacity = true;
    f.claims = { claim(
        claim0, { request(req0, classA, 1) }, { distinctAttribute(boolAttribute, { req0 }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { multiAllocatable(device(device1)) }) };
    expectUnfit(f);
}

// upstream: "with-distinct-constraints-with-subrequests"
TEST(AllocatorConstraintTest, DistinctWithSubrequests)
{
    Fixture f;
    f.gates.consumableCapacity = true;
    f.gates.prioritizedList = true;
    const std::string prefersBool = "device.attributes[\"driver-a\"].boolAttribute";
    auto req = [&](const std::string &name) {
        return firstAvailable(name,
            { subRequest(subReq0, classA, 1, { prefersBool }), subRequest(subReq1, classA, 1) });
    };
    f.claims = { claim(claim0, { req(req0), req(req1), req(req2) },
        { distinctAttribute(boolAttribute, { req0, req1 }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { multiAllocatable(
              device(device1, {}, attrs({ { "boolAttribute", { { "bool", true } } } }))),
            multiAllocatable(
                device(device2, {}, attrs({ { "boolAttribute", { { "bool", false } } } }))) }) };
    expectAllocated(f,
        { { "req-0/subReq-0 driver-a/pool-1/device-1 share",
            "req-1/subReq-1 driver-a/pool-1/device-2 share",
            "req-2/subReq-0 driver-a/pool-1/device-1 share" } });
}

// upstream: "distinct-constraint-one-multi-allocatable-device-with-distinct-constraint"
TEST(AllocatorConstraintTest, DistinctOneSharedDevice)
{
    Fixture f;
    f.gates.consumableCapacity = true;
    f.claims = { claim(claim0, { capacityReq(req0, classA, "1"), capacityReq(req1, classA, "1") },
        { distinctAttribute(stringAttribute) }) };
    f.classes = { deviceClassMulti(classA, driverA, true) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withRangePolicy(multiAllocatable(device(device1, {},
                              attrs({ { "stringAttribute", { { "string", "v" } } } }))),
            capacity0, "2") }) };
    expectUnfit(f);
}

// upstream: "prioritized-list-first-unavailable"
TEST(AllocatorPrioritizedListTest, FirstUnavailable)
{
    Fixture f;
    f.gates = prioritizedListOn();
    f.claims = { claim(claim0,
        { firstAvailable(
            req0, { subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1) }) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectAllocated(f, { { "req-0/subReq-1 driver-a/pool-1/device-1" } }, { localNode(node1) });
}

// upstream: "prioritized-list-non-available"
TEST(AllocatorPrioritizedListTest, NonAvailable)
{
    Fixture f;
    f.gates = prioritizedListOn();
    f.claims = { claim(claim0,
        { firstAvailable(
            req0, { subRequest(subReq0, classB, 2), subRequest(subReq1, classA, 2) }) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }),
        slice(slice2, node1, pool2, driverB, { device(device1) }) };
    expectUnfit(f);
}

// upstream: "prioritized-list-subrequests-with-expressions"
TEST(AllocatorPrioritizedListTest, SubrequestsWithExpressions)
{
    Fixture f;
    f.gates = prioritizedListOn();
    f.claims = { claim(claim0,
        { request(req0, classA, 1, { memoryAtLeast("1Gi") }),
            firstAvailable(req1,
                { subRequest(subReq0, classA, 1, { memoryAtLeast("4Gi") }),
                    subRequest(subReq1, classA, 2, { memoryAtLeast("2Gi") }) }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device1, { { "memory", "2Gi" } }), device(device2, { { "memory", "2Gi" } }),
            device(device3, { { "memory", "1Gi" } }) }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-3", "req-1/subReq-1 driver-a/pool-1/device-1",
            "req-1/subReq-1 driver-a/pool-1/device-2" } });
}

json versioned(const std::string &name, const std::string &memory, const std::string &version)
{
    return device(
        name, { { "memory", memory } }, attrs({ { "driverVersion", { { "version", version } } } }));
}

// upstream: "prioritized-list-subrequests-with-constraints-ref-parent-request"
TEST(AllocatorPrioritizedListTest, SubrequestsWithConstraintsRefParentRequest)
{
    Fixture f;
    f.gates = prioritizedListOn();
    f.claims = { claim(claim0,
        { request(req0, classA, 1, { memoryAtLeast("8Gi") }),
            firstAvailable(req1,
                { subRequest(subReq0, classA, 1, { memoryAtLeast("2Gi") }),
                    subRequest(subReq1, classA, 1, { memoryAtLeast("1Gi") }) }) },
        { matchAttribute(versionAttribute, { req0, req1 }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { versioned(device1, "8Gi", "1.0.0") }),
        slice(slice2, node1, pool2, driverA,
            { versioned(device2, "2Gi", "2.0.0"), versioned(device3, "1Gi", "1.0.0") }) };
    expectAllocated(
        f, { { "req-0 driver-a/pool-1/device-1", "req-1/subReq-1 driver-a/pool-2/device-3" } });
}

// upstream: "prioritized-list-subrequests-with-constraints-ref-sub-request"
TEST(AllocatorPrioritizedListTest, SubrequestsWithConstraintsRefSubRequest)
{
    Fixture f;
    f.gates = prioritizedListOn();
    f.claims = { claim(claim0,
        { request(req0, classA, 1, { memoryAtLeast("8Gi") }),
            firstAvailable(req1,
                { subRequest(subReq0, classA, 1, { memoryAtLeast("2Gi") }),
                    subRequest(subReq1, classA, 1, { memoryAtLeast("1Gi") }) }) },
        { matchAttribute(versionAttribute, { req0, "req-1/subReq-0" }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { versioned(device1, "8Gi", "1.0.0") }),
        slice(slice2, node1, pool2, driverA, { versioned(device2, "2Gi", "2.0.0") }) };
    expectAllocated(
        f, { { "req-0 driver-a/pool-1/device-1", "req-1/subReq-1 driver-a/pool-2/device-2" } });
}

// upstream: "prioritized-list-subrequests-with-allocation-mode-all"
TEST(AllocatorPrioritizedListTest, SubrequestsWithAllocationModeAll)
{
    Fixture f;
    f.gates = prioritizedListOn();
    json all = subRequest(subReq0, classA, 0);
    all["allocationMode"] = "All";
    f.claims = { claim(claim0, { firstAvailable(req0, { all, subRequest(subReq1, classA, 1) }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }) };
    f.allocated = { "driver-a/pool-1/device-1" };
    expectAllocated(f, { { "req-0/subReq-1 driver-a/pool-1/device-2" } });
}

// upstream: "prioritized-list-allocation-mode-all-multiple-requests"
TEST(AllocatorPrioritizedListTest, AllocationModeAllMultipleRequests)
{
    Fixture f;
    f.gates = prioritizedListOn();
    json all = subRequest(subReq0, classA, 0);
    all["allocationMode"] = "All";
    f.claims = { claim(claim0,
        { request(req0, classA, 1),
            firstAvailable(req1, { all, subRequest(subReq1, classA, 1) }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }) };
    expectAllocated(
        f, { { "req-0 driver-a/pool-1/device-1", "req-1/subReq-1 driver-a/pool-1/device-2" } });
}

// upstream: "all-devices-slice-without-devices-prioritized-list"
TEST(AllocatorPrioritizedListTest, AllDevicesSliceWithoutDevices)
{
    Fixture f;
    f.gates = prioritizedListOn();
    json all = subRequest(subReq0, classA, 0);
    all["allocationMode"] = "All";
    f.claims = { claim(claim0, { firstAvailable(req0, { all, subRequest(subReq1, classB, 1) }) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(slice1, node1, pool1, driverA, {}),
        slice(slice2, node1, pool2, driverB, { device(device1) }) };
    expectAllocated(f, { { "req-0/subReq-1 driver-b/pool-2/device-1" } });
}

// upstream: "all-devices-some-allocated-prioritized-list"
TEST(AllocatorPrioritizedListTest, AllDevicesSomeAllocated)
{
    Fixture f;
    f.gates = prioritizedListOn();
    json all = subRequest(subReq0, classA, 0);
    all["allocationMode"] = "All";
    f.claims = { claim(claim0, { firstAvailable(req0, { all, subRequest(subReq1, classB, 1) }) }) };
    f.allocated = { "driver-a/pool-1/device-1" };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }),
        slice(slice2, node1, pool2, driverB, { device(device1) }) };
    expectAllocated(f, { { "req-0/subReq-1 driver-b/pool-2/device-1" } });
}

// upstream: "prioritized-list-disabled"
TEST(AllocatorPrioritizedListTest, Disabled)
{
    Fixture f;
    f.claims = { claim(claim0, { firstAvailable(req0, { subRequest(subReq0, classA, 1) }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectError(f,
        "claim claim-0, request req-0: has subrequests, but the DRAPrioritizedList feature is "
        "disabled");
}

// upstream: "prioritized-list-multi-request"
TEST(AllocatorPrioritizedListTest, MultiRequest)
{
    Fixture f;
    f.gates = prioritizedListOn();
    f.claims = { claim(claim0,
        { request(req1, classA, 1, { memoryAtLeast("8Gi") }),
            firstAvailable(req0,
                { subRequest(subReq0, classA, 1, { memoryAtLeast("8Gi") }),
                    subRequest(subReq1, classA, 1, { memoryAtLeast("4Gi") }) }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1, { { "memory", "8Gi" } }) }),
        slice(slice2, node1, pool2, driverA, { device(device2, { { "memory", "4Gi" } }) }) };
    expectAllocated(
        f, { { "req-0/subReq-1 driver-a/pool-2/device-2", "req-1 driver-a/pool-1/device-1" } });
}

// upstream: "prioritized-list-with-backtracking"
TEST(AllocatorPrioritizedListTest, WithBacktracking)
{
    Fixture f;
    f.gates = prioritizedListOn();
    f.claims = { claim(claim0,
        { firstAvailable(req0,
              { subRequest(subReq0, classA, 1, { memoryAtLeast("8Gi") }),
                  subRequest(subReq1, classA, 1, { memoryAtLeast("4Gi") }) }),
            request(req1, classA, 1, { memoryAtLeast("8Gi") }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1, { { "memory", "8Gi" } }) }),
        slice(slice2, node1, pool2, driverA, { device(device2, { { "memory", "4Gi" } }) }) };
    expectAllocated(
        f, { { "req-0/subReq-1 driver-a/pool-2/device-2", "req-1 driver-a/pool-1/device-1" } });
}

// upstream: "prioritized-list-too-many-in-first-subrequest"
TEST(AllocatorPrioritizedListTest, TooManyInFirstSubrequest)
{
    Fixture f;
    f.gates = prioritizedListOn();
    f.claims = { claim(claim0,
        { firstAvailable(
            req0, { subRequest(subReq0, classB, 500), subRequest(subReq1, classA, 1) }) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1) }) };
    expectAllocated(f, { { "req-0/subReq-1 driver-a/pool-1/device-1" } });
}

// upstream: "prioritized-list-allocation-mode-all"
TEST(AllocatorPrioritizedListTest, AllocationModeAll)
{
    Fixture f;
    f.gates = prioritizedListOn();
    json all = subRequest(subReq0, classA, 0);
    all["allocationMode"] = "All";
    f.claims = { claim(claim0, { firstAvailable(req0, { all, subRequest(subReq1, classA, 1) }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }) };
    f.allocated = { "driver-a/pool-1/device-2" };
    expectAllocated(f, { { "req-0/subReq-1 driver-a/pool-1/device-1" } });
}

// upstream: "prioritized-list-max-allocation-limit-request": the search order is Kubernetes'
// down to the number of placements tried.
TEST(AllocatorPrioritizedListTest, MaxAllocationLimitRequest)
{
    Fixture f;
    f.gates = prioritizedListOn();
    const int max = kAllocationResultsMaxSize;
    f.claims = { claim(claim0,
        { firstAvailable(
              req0, { subRequest(subReq0, classA, max), subRequest(subReq1, classA, max / 2) }),
            firstAvailable(req1,
                { subRequest(subReq0, classA, max), subRequest(subReq1, classA, max / 2) }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { sliceWithDevices(slice1, node1, pool1, driverA, max * 2) };
    std::vector<std::string> expected;
    for (int i = 0; i < max / 2; ++i)
        expected.push_back("req-0/subReq-1 driver-a/pool-1/device-" + std::to_string(i));
    for (int i = max / 2; i < max; ++i)
        expected.push_back("req-1/subReq-1 driver-a/pool-1/device-" + std::to_string(i));
    expectAllocated(f, { expected });
    EXPECT_EQ(f.last.steps, 75);
}

// upstream: "prioritized-list-max-allocation-allocation-mode-all"
TEST(AllocatorPrioritizedListTest, MaxAllocationAllocationModeAll)
{
    Fixture f;
    f.gates = prioritizedListOn();
    json all = subRequest(subReq0, classA, 0);
    all["allocationMode"] = "All";
    f.claims = { claim(claim0,
        { firstAvailable(req0, { all, subRequest(subReq1, classA, 2) }),
            request(req1, classB, 2) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { sliceWithDevices(slice1, node1, pool1, driverA, kAllocationResultsMaxSize - 1),
        sliceWithDevices(slice2, node1, pool2, driverB, 2) };
    expectAllocated(f,
        { { "req-0/subReq-1 driver-a/pool-1/device-0", "req-0/subReq-1 driver-a/pool-1/device-1",
            "req-1 driver-b/pool-2/device-0", "req-1 driver-b/pool-2/device-1" } });
    EXPECT_EQ(f.last.steps, 42);
}

} // namespace
} // namespace dra::alloc::test
