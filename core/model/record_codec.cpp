// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/record_codec.h"

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"
#include "core/model/qualified_name.h"

namespace dra::model {

namespace {

// Appends `text` as a JSON string literal.
void appendString(std::string &out, std::string_view text)
{
    out += nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

template <typename T, typename F>
void appendList(std::string &out, const std::vector<T> &values, F &&appendOne)
{
    out += '[';
    for (size_t i = 0; i < values.size(); ++i) {
        if (i)
            out += ',';
        appendOne(values[i]);
    }
    out += ']';
}

// {"int":1} / {"string":"H100"} / ..., the v1 wire form of one attribute value.
void appendAttribute(std::string &out, const model::DeviceAttribute &attribute)
{
    using Type = model::DeviceAttribute::Type;
    const auto appendText = [&out](const std::string &value) { appendString(out, value); };
    switch (attribute.type) {
    case Type::Int:
        out += "{\"int\":" + std::to_string(attribute.intValue) + '}';
        return;
    case Type::Bool:
        out += attribute.boolValue ? "{\"bool\":true}" : "{\"bool\":false}";
        return;
    case Type::String:
        out += "{\"string\":";
        appendString(out, attribute.stringValue);
        break;
    case Type::Version:
        out += "{\"version\":";
        appendString(out, attribute.stringValue);
        break;
    case Type::Ints:
        out += "{\"ints\":";
        appendList(
            out, attribute.intValues, [&out](int64_t value) { out += std::to_string(value); });
        break;
    case Type::Bools:
        out += "{\"bools\":";
        appendList(
            out, attribute.boolValues, [&out](bool value) { out += value ? "true" : "false"; });
        break;
    case Type::Strings:
        out += "{\"strings\":";
        appendList(out, attribute.stringValues, appendText);
        break;
    case Type::Versions:
        out += "{\"versions\":";
        appendList(out, attribute.stringValues, appendText);
        break;
    }
    out += '}';
}

// Built as text rather than through nlohmann objects: this runs for every device of every
// slice on bulk loads, where the intermediate objects cost more than the rest of the row.
std::vector<DeviceRow> deviceRows(const model::ResourceSlice &slice)
{
    std::vector<DeviceRow> rows;
    rows.reserve(slice.devices.size());
    for (const model::Device &device : slice.devices) {
        std::string attributes = "{";
        for (const auto &[name, value] : device.attributes) {
            if (attributes.size() > 1)
                attributes += ',';
            appendString(attributes, model::QualifiedName::resolve(name, slice.driver).toString());
            attributes += ':';
            appendAttribute(attributes, value);
        }
        attributes += '}';
        std::string capacity = "{";
        for (const auto &[name, value] : device.capacity) {
            if (capacity.size() > 1)
                capacity += ',';
            appendString(capacity, model::QualifiedName::resolve(name, slice.driver).toString());
            capacity += ':';
            appendString(capacity, value.value.toString());
        }
        capacity += '}';
        rows.push_back({ device.name, slice.driver, slice.pool.name,
            device.nodeName.empty() ? slice.nodeName : device.nodeName, std::move(attributes),
            std::move(capacity) });
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

namespace {

// Parses and decodes the row; with KeepRaw::AsText, `text` (the row's text, which may be
// record.json itself: it is read first) becomes the object's raw JSON.
Result<model::Object> decodeRow(const ObjectRecord &record, KeepRaw keep, std::string &&text)
{
    Result<nlohmann::json> json = common::parseJson(record.json, common::qs(record.key.display()));
    if (!json)
        return fail(json.error());
    Result<model::Object> object = model::decodeObject(std::move(*json));
    if (object && keep == KeepRaw::AsText)
        object->raw = model::RawJson::fromText(std::move(text)); // the parse tree is freed here
    return object;
}

} // namespace

Result<model::Object> fromRecord(const ObjectRecord &record, KeepRaw keep)
{
    return decodeRow(
        record, keep, keep == KeepRaw::AsText ? std::string(record.json) : std::string());
}

Result<model::Object> fromRecord(ObjectRecord &&record, KeepRaw keep)
{
    return decodeRow(record, keep, std::move(record.json));
}

} // namespace dra::model
