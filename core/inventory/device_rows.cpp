// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/device_rows.h"

#include <map>
#include <tuple>

#include <nlohmann/json.hpp>

#include "core/model/qualified_name.h"

namespace dra::inventory {

namespace {

using DeviceId = std::tuple<std::string, std::string, std::string>; // driver, pool, device

} // namespace

std::vector<DeviceRow> deviceRows(const std::vector<model::Object> &slices,
    const std::vector<model::Object> &claims, const std::string &node)
{
    std::map<DeviceId, std::vector<std::string>> holders;
    for (const model::Object &object : claims) {
        const auto *claim = object.as<model::ResourceClaim>();
        if (!claim || !claim->allocation)
            continue;
        for (const auto &result : claim->allocation->results)
            holders[{ result.driver, result.pool, result.device }].push_back(
                object.meta.ns + "/" + object.meta.name);
    }

    std::vector<DeviceRow> rows;
    for (const model::Object &object : slices) {
        const auto *slice = object.as<model::ResourceSlice>();
        if (!slice)
            continue;
        for (const model::Device &device : slice->devices) {
            const std::string &deviceNode
                = !device.nodeName.empty() ? device.nodeName : slice->nodeName;
            if (!node.empty() && deviceNode != node)
                continue;
            DeviceRow row;
            row.node = deviceNode;
            row.driver = slice->driver;
            row.pool = slice->pool.name;
            row.slice = object.meta.name;
            row.device = device.name;
            const auto text = [&](std::string_view name) {
                const auto *attribute = device.attribute(name, slice->driver);
                return attribute ? attribute->display() : std::string();
            };
            row.type = text("type");
            row.model = text("productName");
            row.uuid = text("uuid");
            row.pcieRoot = text("resource.kubernetes.io/pcieRoot");
            row.numaNode = text("resource.kubernetes.io/numaNode");
            if (row.numaNode.empty())
                row.numaNode = text("numa");
            if (const model::DeviceCapacity *memory = device.capacityOf("memory", slice->driver))
                row.memory = memory->value.toString();
            if (const auto it = holders.find({ slice->driver, slice->pool.name, device.name });
                it != holders.end())
                row.heldBy = it->second;
            row.source = &device;
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

const std::vector<DeviceColumn> &deviceColumns()
{
    static const std::vector<DeviceColumn> columns = {
        { "NODE", 0 },
        { "DRIVER", 0 },
        { "POOL", 1 },
        { "DEVICE", 0 },
        { "TYPE", 0 },
        { "MODEL", 0 },
        { "MEMORY", 0 },
        { "PCIE ROOT", 1 },
        { "NUMA", 1 },
        { "UUID", 1 },
        { "HELD BY", 0 },
    };
    return columns;
}

std::vector<std::string> deviceCells(const DeviceRow &row)
{
    std::string heldBy;
    for (const std::string &claim : row.heldBy)
        heldBy += (heldBy.empty() ? "" : ",") + claim;
    const auto orNone = [](const std::string &s) { return s.empty() ? std::string("<none>") : s; };
    return { orNone(row.node), row.driver, row.pool, row.device, orNone(row.type),
        orNone(row.model), orNone(row.memory), orNone(row.pcieRoot), orNone(row.numaNode),
        orNone(row.uuid), heldBy.empty() ? std::string("<free>") : heldBy };
}

nlohmann::json deviceJson(const DeviceRow &row)
{
    nlohmann::json out = { { "node", row.node }, { "driver", row.driver }, { "pool", row.pool },
        { "slice", row.slice }, { "device", row.device }, { "heldBy", row.heldBy } };
    nlohmann::json attributes = nlohmann::json::object();
    nlohmann::json capacity = nlohmann::json::object();
    if (row.source) {
        for (const auto &[name, attribute] : row.source->attributes) {
            const std::string qualified
                = model::QualifiedName::resolve(name, row.driver).toString();
            switch (attribute.type) {
            case model::DeviceAttribute::Type::Int:
                attributes[qualified] = attribute.intValue;
                break;
            case model::DeviceAttribute::Type::Bool:
                attributes[qualified] = attribute.boolValue;
                break;
            case model::DeviceAttribute::Type::Ints:
                attributes[qualified] = attribute.intValues;
                break;
            case model::DeviceAttribute::Type::Bools:
                attributes[qualified] = attribute.boolValues;
                break;
            case model::DeviceAttribute::Type::Strings:
            case model::DeviceAttribute::Type::Versions:
                attributes[qualified] = attribute.stringValues;
                break;
            default:
                attributes[qualified] = attribute.stringValue;
                break;
            }
        }
        for (const auto &[name, value] : row.source->capacity)
            capacity[model::QualifiedName::resolve(name, row.driver).toString()]
                = value.value.toString();
    }
    out["attributes"] = std::move(attributes);
    out["capacity"] = std::move(capacity);
    return out;
}

} // namespace dra::inventory
