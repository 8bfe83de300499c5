// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Small hand-made inventories for the Snapshot, lint and free-capacity tests.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/inventory/snapshot_builder.h"
#include "core/model/object.h"
#include "core/sandbox/presets.h"
#include "core/model/record_codec.h"

namespace dra::test {

using nlohmann::json;

// The records a cache would hold for the items of `list`, slices with their device rows.
inline std::vector<model::ObjectRecord> recordsOf(const json &list)
{
    std::vector<model::ObjectRecord> records;
    int64_t rev = 0;
    for (const json &item : list["items"]) {
        Result<model::Object> object = model::decodeObject(item);
        EXPECT_TRUE(object.has_value()) << object.error().message.toStdString();
        if (!object)
            continue;
        records.push_back(model::toRecord(*object));
        records.back().rev = ++rev;
    }
    return records;
}

inline inventory::SnapshotPtr snapshotOf(const json &list, const std::string &cluster = "test")
{
    inventory::SnapshotSource source;
    source.cluster = cluster;
    source.objects = recordsOf(list);
    source.rev = int64_t(source.objects.size());
    return inventory::buildSnapshot(std::move(source));
}

inline json presetList(const std::string &preset, int nodes = 0)
{
    Result<json> list = sandbox::generateInventory({ preset, nodes, 1 });
    EXPECT_TRUE(list.has_value());
    return list ? *list : json { { "items", json::array() } };
}

// A preset's snapshot, built once per test program: snapshots are immutable, so tests share them.
inline const inventory::SnapshotPtr &sharedPresetSnapshot(const std::string &preset, int nodes = 1)
{
    static std::map<std::pair<std::string, int>, inventory::SnapshotPtr> built;
    inventory::SnapshotPtr &snapshot = built[{ preset, nodes }];
    if (!snapshot)
        snapshot = snapshotOf(presetList(preset, nodes));
    return snapshot;
}

inline json listOf(std::vector<json> items)
{
    return { { "apiVersion", "v1" }, { "kind", "List" }, { "items", std::move(items) } };
}

inline json nodeObject(const std::string &name)
{
    return { { "apiVersion", "v1" }, { "kind", "Node" },
        { "metadata", { { "name", name }, { "uid", "uid-" + name } } },
        { "status", { { "conditions", { { { "type", "Ready" }, { "status", "True" } } } } } } };
}

inline json podObject(const std::string &ns, const std::string &name, const std::string &uid = {})
{
    return { { "apiVersion", "v1" }, { "kind", "Pod" },
        { "metadata",
            { { "namespace", ns }, { "name", name },
                { "uid", uid.empty() ? "uid-" + name : uid } } },
        { "spec",
            { { "nodeName", "n1" },
                { "containers", { { { "name", "main" }, { "image", "x" } } } } } } };
}

inline json deviceClass(const std::string &name, const std::string &expression)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "DeviceClass" },
        { "metadata", { { "name", name } } },
        { "spec", { { "selectors", { { { "cel", { { "expression", expression } } } } } } } } };
}

// A GPU device of gpu.example.com with the given extra attributes / capacity / counters.
inline json gpuDevice(
    const std::string &name, json attributes = json::object(), json extra = json::object())
{
    attributes["type"] = { { "string", "gpu" } };
    if (!attributes.contains("productName"))
        attributes["productName"] = { { "string", "Example GPU" } };
    json device = { { "name", name }, { "attributes", attributes },
        { "capacity", { { "memory", { { "value", "80Gi" } } } } } };
    device.update(extra);
    return device;
}

// A node-local slice of driver gpu.example.com.
inline json sliceObject(const std::string &name, const std::string &node, std::vector<json> devices,
    int64_t generation = 1, int64_t sliceCount = 1, const std::string &pool = {},
    json extraSpec = json::object())
{
    json spec = { { "driver", "gpu.example.com" }, { "nodeName", node },
        { "pool",
            { { "name", pool.empty() ? node : pool }, { "generation", generation },
                { "resourceSliceCount", sliceCount } } },
        { "devices", std::move(devices) } };
    spec.update(extraSpec);
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceSlice" },
        { "metadata", { { "name", name } } }, { "spec", std::move(spec) } };
}

// A claim of one request "gpu" of class `className`, allocated `devices` (driver
// gpu.example.com, pool `pool`) and reserved for `pods`.
inline json claimObject(const std::string &ns, const std::string &name, const std::string &pool,
    std::vector<std::string> devices, std::vector<std::string> pods,
    const std::string &className = "gpu.example.com")
{
    json claim = {
        { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata", { { "namespace", ns }, { "name", name }, { "uid", "uid-" + name } } },
        { "spec",
            { { "devices",
                { { "requests",
                    { { { "name", "gpu" },
                        { "exactly",
                            { { "deviceClassName", className },
                                { "count", std::max<size_t>(1, devices.size()) } } } } } } } } } }
    };
    if (!devices.empty()) {
        json results = json::array();
        for (const std::string &device : devices)
            results.push_back({ { "request", "gpu" }, { "driver", "gpu.example.com" },
                { "pool", pool }, { "device", device } });
        claim["status"]["allocation"] = { { "devices", { { "results", results } } } };
        json reserved = json::array();
        for (const std::string &pod : pods)
            reserved.push_back(
                { { "resource", "pods" }, { "name", pod }, { "uid", "uid-" + pod } });
        if (!pods.empty())
            claim["status"]["reservedFor"] = reserved;
    }
    return claim;
}

// counters: {"name": "80Gi"} -> {"name": {"value": "80Gi"}}
inline json counters(const std::vector<std::pair<std::string, std::string>> &values)
{
    json out = json::object();
    for (const auto &[name, value] : values)
        out[name] = { { "value", value } };
    return out;
}

} // namespace dra::test
