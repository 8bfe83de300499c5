// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Builders for allocator table tests, named after the objects of Kubernetes' allocator tests
// (staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting) so a
// case reads like the upstream one it transcribes.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/alloc/allocator.h"

namespace dra::alloc::test {

using nlohmann::json;

inline const std::string node1 = "node-1", node2 = "node-2", region1 = "region-1",
                         region2 = "region-2";
inline const std::string classA = "class-a", classB = "class-b", driverA = "driver-a",
                         driverB = "driver-b";
inline const std::string pool1 = "pool-1", pool2 = "pool-2", pool3 = "pool-3", pool4 = "pool-4";
inline const std::string req0 = "req-0", req1 = "req-1", req2 = "req-2", req3 = "req-3";
inline const std::string subReq0 = "subReq-0", subReq1 = "subReq-1";
inline const std::string claim0 = "claim-0", claim1 = "claim-1";
inline const std::string slice1 = "slice-1", slice2 = "slice-2", slice3 = "slice-3",
                         slice4 = "slice-4";
inline const std::string device0 = "device-0", device1 = "device-1", device2 = "device-2",
                         device3 = "device-3", device4 = "device-4";
inline const std::string counterSet1 = "counter-set-1", counterSet2 = "counter-set-2";
inline const std::string capacity0 = "capacity-0", capacity1 = "capacity-1";

// Node selections of a slice besides a node name.
inline const std::string allNodes = "<all nodes>", perDevice = "<per device>";

inline json nodeObject(const std::string &name, const std::string &region)
{
    return { { "apiVersion", "v1" }, { "kind", "Node" },
        { "metadata",
            { { "name", name }, { "labels", { { "region", region }, { "planet", "earth" } } } } } };
}

inline json celSelector(const std::string &expression)
{
    return { { "cel", { { "expression", expression } } } };
}

// A DeviceClass selecting the devices of one driver.
inline json deviceClass(const std::string &name, const std::string &driver)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "DeviceClass" },
        { "metadata", { { "name", name } } },
        { "spec",
            { { "selectors",
                json::array({ celSelector("device.driver == \"" + driver + "\"") }) } } } };
}

inline json deviceClassMulti(const std::string &name, const std::string &driver, bool multi)
{
    json cls = deviceClass(name, driver);
    cls["spec"]["selectors"][0] = celSelector("device.driver == \"" + driver
        + "\" && device.allowMultipleAllocations == " + (multi ? "true" : "false"));
    return cls;
}

// An `exactly` request for `count` devices of a class, optionally with selectors.
inline json request(const std::string &name, const std::string &cls, int64_t count,
    std::vector<std::string> selectors = {})
{
    json exactly
        = { { "deviceClassName", cls }, { "allocationMode", "ExactCount" }, { "count", count } };
    for (const std::string &s : selectors)
        exactly["selectors"].push_back(celSelector(s));
    return { { "name", name }, { "exactly", exactly } };
}

// request().withCapacityRequest(amount): asks for `amount` of capacity-0.
inline json capacityReq(const std::string &name, const std::string &cls, const std::string &amount)
{
    json r = request(name, cls, 1);
    r["exactly"]["capacity"] = { { "requests", { { "capacity-0", amount } } } };
    return r;
}

inline json allRequest(const std::string &name, const std::string &cls)
{
    return { { "name", name },
        { "exactly", { { "deviceClassName", cls }, { "allocationMode", "All" } } } };
}

inline json subRequest(const std::string &name, const std::string &cls, int64_t count,
    std::vector<std::string> selectors = {})
{
    json sub = { { "name", name }, { "deviceClassName", cls }, { "allocationMode", "ExactCount" },
        { "count", count } };
    for (const std::string &s : selectors)
        sub["selectors"].push_back(celSelector(s));
    return sub;
}

inline json firstAvailable(const std::string &name, std::vector<json> subRequests)
{
    return { { "name", name }, { "firstAvailable", subRequests } };
}

inline std::string memoryAtLeast(const std::string &amount)
{
    return "device.capacity[\"driver-a\"].memory.compareTo(quantity(\"" + amount + "\")) >= 0";
}

inline json matchAttribute(const std::string &attribute, std::vector<std::string> requests = {})
{
    json c = { { "matchAttribute", attribute } };
    if (!requests.empty())
        c["requests"] = requests;
    return c;
}

inline json distinctAttribute(const std::string &attribute, std::vector<std::string> requests = {})
{
    json c = { { "distinctAttribute", attribute } };
    if (!requests.empty())
        c["requests"] = requests;
    return c;
}

inline json claim(
    const std::string &name, std::vector<json> requests, std::vector<json> constraints = {})
{
    json devices = { { "requests", requests } };
    if (!constraints.empty())
        devices["constraints"] = constraints;
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata", { { "name", name } } }, { "spec", { { "devices", devices } } } };
}

// claimWithRequest(name, req, class): one request for one device.
inline json simpleClaim(const std::string &name, const std::string &req, const std::string &cls,
    std::vector<json> constraints = {})
{
    return claim(name, { request(req, cls, 1) }, std::move(constraints));
}

// Sets a field of every `exactly` request of a claim (adminAccess, tolerations, capacity, ...).
inline json withExactly(json claim, const std::string &field, const json &value)
{
    for (json &request : claim["spec"]["devices"]["requests"])
        if (request.contains("exactly"))
            request["exactly"][field] = value;
    return claim;
}

inline json capacityRequest(const std::string &amount)
{
    return { { "requests", { { capacity0, amount } } } };
}

// A device; `capacity` maps names to quantities, `attributes` names to typed values
// ({"int": 1}, {"string": "a"}, ...).
inline json device(const std::string &name, std::map<std::string, std::string> capacity = {},
    json attributes = json::object())
{
    json d = { { "name", name } };
    for (const auto &[k, v] : capacity)
        d["capacity"][k] = { { "value", v } };
    if (!attributes.empty())
        d["attributes"] = attributes;
    return d;
}

// A device consuming counters of counter sets: {set: {counter: amount}}. With `fromCounters`
// its capacity repeats the counters, as the upstream helper does.
inline json consuming(json device,
    std::map<std::string, std::map<std::string, std::string>> counters, bool fromCounters = false)
{
    for (const auto &[set, values] : counters) {
        json c = { { "counterSet", set }, { "counters", json::object() } };
        for (const auto &[k, v] : values) {
            c["counters"][k] = { { "value", v } };
            if (fromCounters)
                device["capacity"][k] = { { "value", v } };
        }
        device["consumesCounters"].push_back(c);
    }
    return device;
}

inline json counterSet(const std::string &name, std::map<std::string, std::string> counters)
{
    json set = { { "name", name }, { "counters", json::object() } };
    for (const auto &[k, v] : counters)
        set["counters"][k] = { { "value", v } };
    return set;
}

inline json taint(const std::string &key, const std::string &value, const std::string &effect)
{
    return { { "key", key }, { "value", value }, { "effect", effect } };
}

inline json withTaints(json device, std::vector<json> taints)
{
    for (json &t : taints)
        device["taints"].push_back(t);
    return device;
}

inline json multiAllocatable(json device)
{
    device["allowMultipleAllocations"] = true;
    return device;
}

// withCapacityRequestPolicyRange: default 2, valid range min 2, step 2, max 4.
inline json withRangePolicy(json device, const std::string &name, const std::string &value)
{
    device["capacity"][name] = { { "value", value },
        { "requestPolicy",
            { { "default", "2" },
                { "validRange", { { "min", "2" }, { "step", "2" }, { "max", "4" } } } } } };
    return device;
}

// withCapacityRequestPolicyValidValues: the default is the smallest valid value.
inline json withValidValues(json device, const std::string &name, const std::string &value,
    const std::string &defaultValue, std::vector<std::string> more = {})
{
    json values = json::array({ defaultValue });
    for (const std::string &v : more)
        values.push_back(v);
    device["capacity"][name] = { { "value", value },
        { "requestPolicy", { { "default", defaultValue }, { "validValues", values } } } };
    return device;
}

inline json nodeLabelSelector(const std::string &key, const std::string &value)
{
    return { { "nodeSelectorTerms",
        json::array({ { { "matchExpressions",
            json::array(
                { { { "key", key }, { "operator", "In" }, { "values", { value } } } }) } } }) } };
}

// A slice of `pool` ({name, resourceSliceCount, generation}); `nodes` is a node name, allNodes,
// perDevice or a node selector.
inline json slice(const std::string &name, const json &nodes, const std::string &pool,
    const std::string &driver, std::vector<json> devices, int64_t sliceCount = 1,
    int64_t generation = 1)
{
    json spec = { { "driver", driver },
        { "pool",
            { { "name", pool }, { "resourceSliceCount", sliceCount },
                { "generation", generation } } } };
    if (nodes.is_string() && nodes == allNodes)
        spec["allNodes"] = true;
    else if (nodes.is_string() && nodes == perDevice)
        spec["perDeviceNodeSelection"] = true;
    else if (nodes.is_string())
        spec["nodeName"] = nodes;
    else
        spec["nodeSelector"] = nodes;
    if (!devices.empty())
        spec["devices"] = devices;
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceSlice" },
        { "metadata", { { "name", name } } }, { "spec", spec } };
}

inline json counterSlice(const std::string &name, const json &nodes, const std::string &pool,
    const std::string &driver, std::vector<json> sets, int64_t sliceCount = 1)
{
    json s = slice(name, nodes, pool, driver, {}, sliceCount);
    s["spec"]["sharedCounters"] = sets;
    return s;
}

// sliceWithMultipleDevices: devices device-0 .. device-<count-1>.
inline json sliceWithDevices(const std::string &name, const json &nodes, const std::string &pool,
    const std::string &driver, int count)
{
    std::vector<json> devices;
    for (int i = 0; i < count; ++i)
        devices.push_back(device("device-" + std::to_string(i)));
    return slice(name, nodes, pool, driver, devices);
}

// One allocation test: the inventory, the claims and the state, then run() on one node.
struct Fixture
{
    release::FeatureGates gates; // all off, like Kubernetes' Features{}
    std::vector<json> classes, slices, claims, extra;
    std::vector<std::string> allocated; // "driver/pool/device"
    std::vector<std::pair<std::string, std::map<std::string, std::string>>>
        allocatedCapacity; // shared use
    std::string node = node1;
    std::string region = region1;

    NodeAllocation run();
    // After run(): each claim's results as "request driver/pool/device[ admin][ share][
    // name=amount...]", sorted, like upstream's ConsistOf.
    std::vector<std::vector<std::string>> results() const;
    // After run(): each claim's node selector, compactly ("fields: metadata.name In node-1").
    std::vector<std::string> nodeSelectors() const;

    NodeAllocation last;
};

// The claims were allocated with exactly these results (per claim, order within a claim
// ignored) and, when given, these node selectors.
void expectAllocated(Fixture &f, std::vector<std::vector<std::string>> expected,
    std::vector<std::string> selectors = {});
// The claims simply do not fit: no allocation, no error.
void expectUnfit(Fixture &f);
// Kubernetes' allocator returns an error containing `text`.
void expectError(Fixture &f, const std::string &text);

// "metadata.name In node-1" for a selector built by localNodeSelector(node).
std::string localNode(const std::string &name);

} // namespace dra::alloc::test
