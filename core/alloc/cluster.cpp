// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/cluster.h"

#include <algorithm>

namespace dra::alloc {

namespace {

std::string idKey(std::string_view driver, std::string_view pool, std::string_view device)
{
    std::string key;
    key.reserve(driver.size() + pool.size() + device.size() + 2);
    key.append(driver).push_back('\0');
    key.append(pool).push_back('\0');
    key.append(device);
    return key;
}

const std::vector<int> kNoSlices;

} // namespace

Cluster::~Cluster() = default;

std::string objectRef(std::string_view ns, std::string_view name)
{
    if (ns.empty())
        return std::string(name);
    std::string out(ns);
    out += '/';
    out += name;
    return out;
}

Result<Cluster> Cluster::build(std::vector<model::Object> objects)
{
    std::vector<std::shared_ptr<const model::Object>> shared;
    shared.reserve(objects.size());
    for (model::Object &object : objects)
        shared.push_back(std::make_shared<const model::Object>(std::move(object)));
    return build(std::move(shared));
}

Result<Cluster> Cluster::build(std::vector<std::shared_ptr<const model::Object>> objects)
{
    Cluster cluster;
    cluster.m_objects = std::move(objects);

    std::unordered_map<std::string, int> poolIndex;
    for (const std::shared_ptr<const model::Object> &shared : cluster.m_objects) {
        const model::Object &object = *shared;
        switch (object.kind) {
        case model::Kind::Node:
            if (!cluster.m_nodeIndex.contains(object.meta.name)) {
                cluster.m_nodeIndex.emplace(object.meta.name, int(cluster.m_nodes.size()));
                cluster.m_nodes.push_back({ object.meta.name, object.meta.labels, true });
            }
            break;
        case model::Kind::DeviceClass:
            if (const auto *spec = object.as<model::DeviceClass>();
                spec && !cluster.m_classIndex.contains(object.meta.name)) {
                cluster.m_classIndex.emplace(object.meta.name, int(cluster.m_classes.size()));
                cluster.m_classes.push_back({ object.meta.name, spec });
            }
            break;
        case model::Kind::DeviceTaintRule:
            cluster.m_taintRules.push_back(&object);
            break;
        case model::Kind::ResourceClaim:
            if (const auto *claim = object.as<model::ResourceClaim>(); claim && claim->allocation)
                cluster.m_allocatedClaims.push_back(&object);
            break;
        case model::Kind::ResourceSlice: {
            const auto *spec = object.as<model::ResourceSlice>();
            if (!spec)
                break;
            const std::string poolKey = spec->driver + '\0' + spec->pool.name;
            auto [it, added] = poolIndex.emplace(poolKey, int(cluster.m_pools.size()));
            if (added)
                cluster.m_pools.push_back({ spec->driver, spec->pool.name, {} });
            const int sliceIndex = int(cluster.m_slices.size());
            cluster.m_pools[size_t(it->second)].slices.push_back(sliceIndex);
            Slice slice { object.meta.name, spec, it->second, int(cluster.m_devices.size()),
                int(spec->devices.size()) };
            for (const model::Device &device : spec->devices) {
                const auto [id, fresh] = cluster.m_ids.emplace(
                    idKey(spec->driver, spec->pool.name, device.name), int(cluster.m_idCount));
                if (fresh)
                    ++cluster.m_idCount;
                cluster.m_devices.push_back({ &device, sliceIndex, id->second });
            }
            if (!spec->nodeName.empty() && spec->sharedCounters.empty())
                cluster.m_slicesByNode[spec->nodeName].push_back(sliceIndex);
            else
                cluster.m_floating.push_back(sliceIndex);
            cluster.m_slices.push_back(std::move(slice));
            break;
        }
        default:
            break;
        }
    }
    // Slices may name nodes the inventory has no Node object for; the allocator can still
    // place claims there, so they are nodes too, just without labels.
    for (const Slice &slice : cluster.m_slices) {
        std::vector<std::string> names;
        if (!slice.spec->nodeName.empty())
            names.push_back(slice.spec->nodeName);
        if (slice.spec->perDeviceNodeSelection)
            for (const model::Device &device : slice.spec->devices)
                if (!device.nodeName.empty())
                    names.push_back(device.nodeName);
        for (std::string &name : names)
            if (!cluster.m_nodeIndex.contains(name)) {
                cluster.m_nodeIndex.emplace(name, int(cluster.m_nodes.size()));
                cluster.m_nodes.push_back({ std::move(name), {}, false });
            }
    }
    std::sort(cluster.m_nodes.begin(), cluster.m_nodes.end(),
        [](const NodeInfo &a, const NodeInfo &b) { return a.name < b.name; });
    for (size_t i = 0; i < cluster.m_nodes.size(); ++i)
        cluster.m_nodeIndex[cluster.m_nodes[i].name] = int(i);
    return cluster;
}

int Cluster::findNode(std::string_view name) const
{
    const auto it = m_nodeIndex.find(std::string(name));
    return it == m_nodeIndex.end() ? -1 : it->second;
}

const Cluster::Class *Cluster::findClass(std::string_view name) const
{
    const auto it = m_classIndex.find(std::string(name));
    return it == m_classIndex.end() ? nullptr : &m_classes[size_t(it->second)];
}

int Cluster::deviceId(std::string_view driver, std::string_view pool, std::string_view device) const
{
    const auto it = m_ids.find(idKey(driver, pool, device));
    return it == m_ids.end() ? -1 : it->second;
}

const std::vector<int> &Cluster::slicesOnNode(std::string_view node) const
{
    const auto it = m_slicesByNode.find(std::string(node));
    return it == m_slicesByNode.end() ? kNoSlices : it->second;
}

std::vector<const model::Object *> Cluster::objectsOf(model::Kind kind) const
{
    std::vector<const model::Object *> out;
    for (const std::shared_ptr<const model::Object> &object : m_objects)
        if (object->kind == kind)
            out.push_back(object.get());
    return out;
}

const model::Object *Cluster::findObject(
    model::Kind kind, std::string_view ns, std::string_view name) const
{
    for (const std::shared_ptr<const model::Object> &object : m_objects)
        if (object->kind == kind && object->meta.ns == ns && object->meta.name == name)
            return object.get();
    return nullptr;
}

} // namespace dra::alloc
