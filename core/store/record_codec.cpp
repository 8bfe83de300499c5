// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/record_codec.h"

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"
#include "core/model/qualified_name.h"

namespace dra::store {

namespace {

nlohmann::json attributeJson(const model::DeviceAttribute &attribute)
{
    using Type = model::DeviceAttribute::Type;
    switch (attribute.type) {
    case Type::Int: return {{"int", attribute.intValue}};
    case Type::Bool: return {{"bool", attribute.boolValue}};
    case Type::String: return {{"string", attribute.stringValue}};
    case Type::Version: return {{"version", attribute.stringValue}};
    case Type::Ints: return {{"ints", attribute.intValues}};
    case Type::Bools: return {{"bools", attribute.boolValues}};
    case Type::Strings: return {{"strings", attribute.stringValues}};
    case Type::Versions: return {{"versions", attribute.stringValues}};
    }
    return nlohmann::json::object();
}

std::vector<DeviceRow> deviceRows(const model::ResourceSlice &slice)
{
    std::vector<DeviceRow> rows;
    rows.reserve(slice.devices.size());
    for (const model::Device &device : slice.devices) {
        nlohmann::json attributes = nlohmann::json::object();
        for (const auto &[name, value] : device.attributes)
            attributes[model::QualifiedName::resolve(name, slice.driver).toString()] = attributeJson(value);
        nlohmann::json capacity = nlohmann::json::object();
        for (const auto &[name, value] : device.capacity)
            capacity[model::QualifiedName::resolve(name, slice.driver).toString()] = value.value.toString();
        rows.push_back({device.name, slice.driver, slice.pool.name,
                        device.nodeName.empty() ? slice.nodeName : device.nodeName,
                        common::compactJson(attributes), common::compactJson(capacity)});
    }
    return rows;
}

} // namespace

ObjectRecord toRecord(const model::Object &object)
{
    ObjectRecord record;
    record.key = object.key();
    record.apiVersion = object.apiVersion;
    record.uid = object.meta.uid;
    record.resourceVersion = object.meta.resourceVersion;
    record.creationTimestamp = object.meta.creationTimestamp;
    record.generation = object.meta.generation;
    if (object.raw)
        record.json = common::compactJson(*object.raw);
    if (const auto *slice = object.as<model::ResourceSlice>())
        record.devices = deviceRows(*slice);
    return record;
}

Result<model::Object> fromRecord(const ObjectRecord &record)
{
    Result<nlohmann::json> json = common::parseJson(record.json, common::qs(record.key.display()));
    if (!json)
        return fail(json.error());
    return model::decodeObject(std::move(*json));
}

} // namespace dra::store
