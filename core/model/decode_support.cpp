// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/decode_support.h"

namespace dra::model::detail {

void throwAt(std::string_view field, std::string reason)
{
    throw DecodeError { std::string(field), std::move(reason) };
}

std::string typeName(const json &value)
{
    switch (value.type()) {
    case json::value_t::string:
        return "string";
    case json::value_t::boolean:
        return "bool";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
        return "integer";
    case json::value_t::number_float:
        return "number";
    case json::value_t::array:
        return "list";
    case json::value_t::object:
        return "map";
    case json::value_t::null:
        return "null";
    default:
        return "value";
    }
}

std::string getString(const json &object, std::string_view key)
{
    const json *value = field(object, key);
    if (!value)
        return {};
    if (!value->is_string())
        throwAt(key, "expected a string, got " + typeName(*value));
    return value->get_ref<const std::string &>();
}

int64_t getInt(const json &object, std::string_view key, int64_t fallback)
{
    const json *value = field(object, key);
    if (!value)
        return fallback;
    if (value->is_number_integer())
        return value->get<int64_t>();
    if (value->is_number_unsigned()) {
        const uint64_t u = value->get<uint64_t>();
        if (u > uint64_t(INT64_MAX))
            throwAt(key, "integer " + std::to_string(u) + " does not fit in 64 bits");
        return int64_t(u);
    }
    throwAt(key, "expected an integer, got " + typeName(*value));
}

bool getBool(const json &object, std::string_view key)
{
    const json *value = field(object, key);
    if (!value)
        return false;
    if (!value->is_boolean())
        throwAt(key, "expected true or false, got " + typeName(*value));
    return value->get<bool>();
}

Quantity toQuantity(const json &value, std::string_view key)
{
    std::string text;
    if (value.is_string())
        text = value.get_ref<const std::string &>();
    else if (value.is_number_integer() || value.is_number_unsigned())
        text = value.dump(); // quantities written as bare YAML/JSON numbers
    else
        throwAt(key, "expected a quantity, got " + typeName(value));
    Result<Quantity> parsed = Quantity::parse(text);
    if (!parsed)
        throwAt(key, "invalid quantity \"" + text + "\": " + parsed.error().message.toStdString());
    return *std::move(parsed);
}

StringPairs getStringMap(const json &object, std::string_view key)
{
    StringPairs pairs;
    forEachMember(object, key, [&](const std::string &name, const json &value) {
        if (!value.is_string())
            throwAt("", "expected a string, got " + typeName(value));
        pairs.emplace_back(name, value.get_ref<const std::string &>());
    });
    return pairs;
}

std::vector<std::string> getStrings(const json &object, std::string_view key)
{
    std::vector<std::string> out;
    forEach(object, key, [&](const json &item) {
        if (!item.is_string())
            throwAt("", "expected a string, got " + typeName(item));
        out.push_back(item.get_ref<const std::string &>());
    });
    return out;
}

json getRaw(const json &object, std::string_view key)
{
    const json *value = field(object, key);
    return value ? *value : json();
}

ObjectMeta decodeMeta(const json &object)
{
    ObjectMeta meta;
    const json *metadata = field(object, "metadata");
    if (!metadata)
        return meta;
    within("metadata", [&] {
        if (!metadata->is_object())
            throwAt("", "expected a map, got " + typeName(*metadata));
        meta.name = getString(*metadata, "name");
        meta.ns = getString(*metadata, "namespace");
        meta.uid = getString(*metadata, "uid");
        meta.resourceVersion = getString(*metadata, "resourceVersion");
        meta.generation = getInt(*metadata, "generation");
        meta.creationTimestamp = getString(*metadata, "creationTimestamp");
        meta.deletionTimestamp = getString(*metadata, "deletionTimestamp");
        meta.labels = getStringMap(*metadata, "labels");
        meta.annotations = getStringMap(*metadata, "annotations");
        forEach(*metadata, "ownerReferences", [&](const json &ref) {
            meta.ownerReferences.push_back({ getString(ref, "apiVersion"), getString(ref, "kind"),
                getString(ref, "name"), getString(ref, "uid"), getBool(ref, "controller") });
        });
    });
    return meta;
}

} // namespace dra::model::detail
