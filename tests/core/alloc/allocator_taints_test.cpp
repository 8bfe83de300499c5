// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Device taints and tolerations, binding conditions, transcribed from Kubernetes' TestAllocator
// cases; each test names the upstream case.
#include <gtest/gtest.h>

#include "tests/core/alloc/alloc_fixtures.h"

namespace dra::alloc::test {
namespace {

const json taintNone = taint("taint-key", "taint-value", "None");
const json taintNoSchedule = taint("taint-key", "taint-value", "NoSchedule");
const json taintNoExecute = taint("taint-key", "taint-value-2", "NoExecute");
const json tolerationNoSchedule
    = { { "operator", "Exists" }, { "key", "taint-key" }, { "effect", "NoSchedule" } };
const json tolerationNoExecute = { { "operator", "Equal" }, { "key", "taint-key" },
    { "value", "taint-value-2" }, { "effect", "NoExecute" } };

release::FeatureGates taintsOn(bool prioritizedList = false, bool adminAccess = false)
{
    release::FeatureGates g;
    g.deviceTaints = true;
    g.prioritizedList = prioritizedList;
    g.adminAccess = adminAccess;
    return g;
}

json tolerating(json claim, std::vector<json> tolerations)
{
    return withExactly(std::move(claim), "tolerations", tolerations);
}

// upstream: "tainted-two-devices"
TEST(AllocatorTaintTest, TwoDevices)
{
    Fixture f;
    f.gates = taintsOn();
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withTaints(device(device1), { taintNoSchedule }),
            withTaints(device(device2), { taintNoExecute }) }) };
    expectUnfit(f);
}

// upstream: "tainted-one-device-two-taints"
TEST(AllocatorTaintTest, OneDeviceTwoTaints)
{
    Fixture f;
    f.gates = taintsOn();
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withTaints(device(device1), { taintNoSchedule, taintNoExecute }) }) };
    expectUnfit(f);
}

// upstream: "tainted-two-devices-tolerated": only the second device's taint is tolerated.
TEST(AllocatorTaintTest, TwoDevicesTolerated)
{
    Fixture f;
    f.gates = taintsOn();
    f.claims = { tolerating(simpleClaim(claim0, req0, classA), { tolerationNoExecute }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withTaints(device(device1), { taintNoSchedule }),
            withTaints(device(device2), { taintNoExecute }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-2 tolerations=1" } });
}

// upstream: "tainted-two-devices-prioritized-list-tolerated"
TEST(AllocatorTaintTest, TwoDevicesPrioritizedListTolerated)
{
    Fixture f;
    f.gates = taintsOn(true);
    json tolerant = subRequest(subReq1, classA, 1);
    tolerant["tolerations"] = json::array({ tolerationNoExecute });
    f.claims
        = { claim(claim0, { firstAvailable(req0, { subRequest(subReq0, classA, 1), tolerant }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withTaints(device(device1), { taintNoSchedule }),
            withTaints(device(device2), { taintNoExecute }) }) };
    expectAllocated(f, { { "req-0/subReq-1 driver-a/pool-1/device-2 tolerations=1" } });
}

// upstream: "tainted-no-effect"
TEST(AllocatorTaintTest, NoEffect)
{
    Fixture f;
    f.gates = taintsOn();
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices
        = { slice(slice1, node1, pool1, driverA, { withTaints(device(device1), { taintNone }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } });
}

// upstream: "tainted-one-device-two-taints-both-tolerated"
TEST(AllocatorTaintTest, OneDeviceTwoTaintsBothTolerated)
{
    Fixture f;
    f.gates = taintsOn();
    f.claims = { tolerating(
        simpleClaim(claim0, req0, classA), { tolerationNoSchedule, tolerationNoExecute }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withTaints(device(device1), { taintNoSchedule, taintNoExecute }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1 tolerations=2" } });
}

// upstream: "tainted-disabled"
TEST(AllocatorTaintTest, Disabled)
{
    Fixture f;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { withTaints(device(device1), { taintNoSchedule, taintNoExecute }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } });
}

// upstream: "tainted-prioritized-list"
TEST(AllocatorTaintTest, PrioritizedList)
{
    Fixture f;
    f.gates = taintsOn(true);
    f.claims = { claim(claim0,
        { firstAvailable(
            req0, { subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1) }) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(
        slice1, node1, pool1, driverA, { withTaints(device(device1), { taintNoSchedule }) }) };
    expectUnfit(f);
}

// upstream: "tainted-prioritized-list-disabled"
TEST(AllocatorTaintTest, PrioritizedListDisabled)
{
    Fixture f;
    f.gates.prioritizedList = true;
    f.claims = { claim(claim0,
        { firstAvailable(
            req0, { subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1) }) }) };
    f.classes = { deviceClass(classA, driverA), deviceClass(classB, driverB) };
    f.slices = { slice(
        slice1, node1, pool1, driverA, { withTaints(device(device1), { taintNoSchedule }) }) };
    expectAllocated(f, { { "req-0/subReq-1 driver-a/pool-1/device-1" } });
}

// upstream: "tainted-admin-access": admin access does not bypass taints.
TEST(AllocatorTaintTest, AdminAccess)
{
    Fixture f;
    f.gates = taintsOn(false, true);
    f.claims = { withExactly(simpleClaim(claim0, req0, classA), "adminAccess", true) };
    f.allocated = { "driver-a/pool-1/device-1", "driver-a/pool-1/device-2" };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(
        slice1, node1, pool1, driverA, { withTaints(device(device1), { taintNoSchedule }) }) };
    expectUnfit(f);
}

// upstream: "tainted-admin-access-disabled"
TEST(AllocatorTaintTest, AdminAccessDisabled)
{
    Fixture f;
    f.gates.adminAccess = true;
    f.claims = { withExactly(simpleClaim(claim0, req0, classA), "adminAccess", true) };
    f.allocated = { "driver-a/pool-1/device-1", "driver-a/pool-1/device-2" };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(
        slice1, node1, pool1, driverA, { withTaints(device(device1), { taintNoSchedule }) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1 admin" } });
}

// upstream: "tainted-all-devices-single" and "tainted-all-devices-single-disabled"
TEST(AllocatorTaintTest, AllDevicesSingle)
{
    for (const bool enabled : { true, false }) {
        SCOPED_TRACE(enabled ? "DRADeviceTaints on" : "DRADeviceTaints off");
        Fixture f;
        f.gates.deviceTaints = enabled;
        f.claims = { claim(claim0, { allRequest(req0, classA) }) };
        f.classes = { deviceClass(classA, driverA) };
        f.slices = { slice(
            slice1, node1, pool1, driverA, { withTaints(device(device1), { taintNoSchedule }) }) };
        if (enabled)
            expectUnfit(f);
        else
            expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } });
    }
}

// DeviceTaintRules add taints to the devices they select, when DRADeviceTaintRules is on.
TEST(AllocatorTaintTest, TaintRuleTaintsSelectedDevices)
{
    for (const bool rulesEnabled : { true, false }) {
        SCOPED_TRACE(rulesEnabled ? "DRADeviceTaintRules on" : "DRADeviceTaintRules off");
        Fixture f;
        f.gates.deviceTaints = true;
        f.gates.deviceTaintRules = rulesEnabled;
        f.claims = { simpleClaim(claim0, req0, classA) };
        f.classes = { deviceClass(classA, driverA) };
        f.slices = { slice(slice1, node1, pool1, driverA, { device(device1), device(device2) }) };
        f.extra = { { { "apiVersion", "resource.k8s.io/v1alpha3" }, { "kind", "DeviceTaintRule" },
            { "metadata", { { "name", "maintenance" } } },
            { "spec",
                { { "deviceSelector",
                      { { "driver", driverA }, { "pool", pool1 }, { "device", device1 } } },
                    { "taint", { { "key", "maintenance" }, { "effect", "NoSchedule" } } } } } } };
        expectAllocated(f,
            { { rulesEnabled ? "req-0 driver-a/pool-1/device-2"
                             : "req-0 driver-a/pool-1/device-1" } });
    }
}

release::FeatureGates bindingOn()
{
    release::FeatureGates g;
    g.deviceBindingConditions = true;
    g.resourceClaimDeviceStatus = true;
    return g;
}

json bound(json device, const std::string &condition, const std::string &failure)
{
    device["bindingConditions"] = json::array({ condition });
    device["bindingFailureConditions"] = json::array({ failure });
    return device;
}

// upstream: "device-binding-conditions"
TEST(AllocatorBindingConditionsTest, DeviceBindingConditions)
{
    Fixture f;
    f.gates = bindingOn();
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(
        slice1, node1, pool1, driverA, { bound(device(device1), "IsPrepare", "BindingFailed") }) };
    expectAllocated(
        f, { { "req-0 driver-a/pool-1/device-1 binding=IsPrepare" } }, { localNode(node1) });
}

// upstream: "binding-conditions-with-and-without"
TEST(AllocatorBindingConditionsTest, WithAndWithout)
{
    Fixture f;
    f.gates = bindingOn();
    f.claims = { claim(claim0, { request(req0, classA, 1), request(req1, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device1), bound(device(device2), "IsPrepare", "BindingFailed") }) };
    expectAllocated(f,
        { { "req-0 driver-a/pool-1/device-1",
            "req-1 driver-a/pool-1/device-2 binding=IsPrepare" } });
}

// upstream: "binding-conditions-without-feature-gate"
TEST(AllocatorBindingConditionsTest, WithoutFeatureGate)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(
        slice1, node1, pool1, driverA, { bound(device(device1), "IsPrepare", "BindingFailed") }) };
    expectUnfit(f);
}

// upstream: "node-restriction": a device that binds to the node pins the claim to it.
TEST(AllocatorBindingConditionsTest, NodeRestriction)
{
    Fixture f;
    f.gates = bindingOn();
    json d = device(device1);
    d["bindsToNode"] = true;
    f.claims = { simpleClaim(claim0, req0, classA) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, nodeLabelSelector("planet", "earth"), pool1, driverA, { d }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1" } }, { localNode(node1) });
}

// upstream: "partitionable-devices-with-binding-conditions-and-taints" and "...-tolerated"
TEST(AllocatorBindingConditionsTest, PartitionableWithTaints)
{
    for (const bool tolerated : { false, true }) {
        SCOPED_TRACE(tolerated ? "tolerated" : "not tolerated");
        Fixture f;
        f.gates = bindingOn();
        f.gates.partitionableDevices = true;
        f.gates.deviceTaints = true;
        json c = claim(claim0, { request(req0, classA, 2) });
        if (tolerated)
            c = tolerating(
                c, { { { "operator", "Exists" }, { "key", "key1" }, { "effect", "NoSchedule" } } });
        f.claims = { c };
        f.classes = { deviceClass(classA, driverA) };
        json d1 = withTaints(
            bound(consuming(device(device1), { { counterSet1, { { "memory", "4Gi" } } } }, true),
                "IsPrepare", "BindingFailed"),
            { taint("key1", "value1", "NoSchedule") });
        json d2 = consuming(device(device2), { { counterSet1, { { "memory", "4Gi" } } } }, true);
        f.slices = { slice(slice1, node1, pool1, driverA, { d1, d2 }, 2),
            counterSlice(slice2, node1, pool1, driverA,
                { counterSet(counterSet1, { { "memory", "8Gi" } }) }, 2) };
        if (tolerated)
            expectAllocated(f,
                { { "req-0 driver-a/pool-1/device-1 tolerations=1 binding=IsPrepare",
                    "req-0 driver-a/pool-1/device-2 tolerations=1" } });
        else
            expectUnfit(f);
    }
}

} // namespace
} // namespace dra::alloc::test
