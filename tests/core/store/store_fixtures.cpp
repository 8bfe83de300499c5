// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "tests/core/store/store_fixtures.h"

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"

namespace dra::store::test {

common::ObjectKey sliceKey(const std::string &name)
{
    return { kResourceGroup, "ResourceSlice", "", name };
}

common::ObjectKey claimKey(const std::string &ns, const std::string &name)
{
    return { kResourceGroup, "ResourceClaim", ns, name };
}

namespace {

nlohmann::json metadata(const model::ObjectRecord &record, const std::string &label)
{
    nlohmann::json meta = { { "name", record.key.name }, { "uid", record.uid },
        { "resourceVersion", record.resourceVersion }, { "generation", record.generation },
        { "creationTimestamp", record.creationTimestamp } };
    if (!record.key.ns.empty())
        meta["namespace"] = record.key.ns;
    if (!label.empty())
        meta["labels"] = { { "example.com/revision", label } };
    return meta;
}

} // namespace

model::ObjectRecord makeSlice(const std::string &name, const std::string &node, int deviceCount,
    const std::string &resourceVersion, const std::string &label)
{
    model::ObjectRecord record;
    record.key = sliceKey(name);
    record.apiVersion = "resource.k8s.io/v1beta1";
    record.uid = "uid-" + name;
    record.resourceVersion = resourceVersion;
    record.creationTimestamp = "2026-01-01T00:00:00Z";
    record.generation = 1;
    const std::string pool = node.empty() ? "fabric" : node;
    nlohmann::json devices = nlohmann::json::array();
    for (int i = 0; i < deviceCount; ++i) {
        model::DeviceRow row;
        row.name = "gpu-" + std::to_string(i);
        row.driver = "gpu.example.com";
        row.pool = pool;
        row.node = node;
        const nlohmann::json attributes = { { "gpu.example.com/index", { { "int", i } } },
            { "gpu.example.com/model", { { "string", "A100" } } } };
        const nlohmann::json capacity = { { "gpu.example.com/memory", "80Gi" } };
        row.attributesJson = common::compactJson(attributes);
        row.capacityJson = common::compactJson(capacity);
        devices.push_back({ { "name", row.name },
            { "basic",
                { { "attributes", attributes },
                    { "capacity",
                        { { "gpu.example.com/memory", { { "value", "80Gi" } } } } } } } });
        record.devices.push_back(std::move(row));
    }
    nlohmann::json spec = { { "driver", "gpu.example.com" },
        { "pool", { { "name", pool }, { "generation", 1 }, { "resourceSliceCount", 1 } } },
        { "devices", devices } };
    if (node.empty())
        spec["allNodes"] = true;
    else
        spec["nodeName"] = node;
    const nlohmann::json object = { { "apiVersion", record.apiVersion },
        { "kind", "ResourceSlice" }, { "metadata", metadata(record, label) }, { "spec", spec } };
    record.json = common::compactJson(object);
    return record;
}

model::ObjectRecord makeClaim(const std::string &ns, const std::string &name,
    const std::string &resourceVersion, const std::string &label)
{
    model::ObjectRecord record;
    record.key = claimKey(ns, name);
    record.apiVersion = "resource.k8s.io/v1beta1";
    record.uid = "uid-" + ns + "-" + name;
    record.resourceVersion = resourceVersion;
    record.creationTimestamp = "2026-01-01T00:00:00Z";
    record.generation = 1;
    nlohmann::json request = { { "name", "gpu" }, { "deviceClassName", "gpu.example.com" } };
    nlohmann::json object = { { "apiVersion", record.apiVersion }, { "kind", "ResourceClaim" },
        { "metadata", metadata(record, label) } };
    object["spec"]["devices"]["requests"] = nlohmann::json::array({ request });
    record.json = common::compactJson(object);
    return record;
}

model::Change added(model::ObjectRecord object)
{
    return model::Change { model::ChangeType::Added, std::move(object) };
}

model::Change modified(model::ObjectRecord object)
{
    return model::Change { model::ChangeType::Modified, std::move(object) };
}

model::Change deletedKey(const common::ObjectKey &key)
{
    model::ObjectRecord record;
    record.key = key;
    return model::Change { model::ChangeType::Deleted, std::move(record) };
}

std::string crashSliceName(int index, int slice)
{
    return "b" + std::to_string(index) + "-s" + std::to_string(slice);
}

int crashSliceDevices(int slice)
{
    return slice % 4 + 1;
}

model::WatchBatch crashBatch(int index)
{
    model::WatchBatch batch { .cluster = kCrashCluster };
    const std::string version = std::to_string(index);
    for (int j = 0; j < kCrashSlices; ++j)
        batch.changes.push_back(added(makeSlice(crashSliceName(index, j),
            "node-" + std::to_string(j % 16), crashSliceDevices(j), version)));
    if (index >= 2)
        batch.changes.push_back(modified(makeSlice(
            crashSliceName(index - 1, 0), "node-0", crashSliceDevices(0), version, version)));
    if (index >= 3)
        batch.changes.push_back(deletedKey(sliceKey(crashSliceName(index - 2, 1))));
    batch.listVersions.emplace_back(kResourceGroup, "ResourceSlice", version);
    return batch;
}

} // namespace dra::store::test
