// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Internal to core/model: terse, path-aware field readers for the object decoders.
// A wrong type throws DecodeError, which each enclosing level prefixes with its own field
// name on the way out; decodeObject() turns it into an Error. Nothing here escapes the module.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/model/object_meta.h"
#include "core/model/quantity.h"

namespace dra::model::detail {

using nlohmann::json;

struct DecodeError
{
    std::string path; // "spec.devices[2].capacity"
    std::string reason; // "expected a string, got number"
};

[[noreturn]] void throwAt(std::string_view field, std::string reason);

// Prefixes `segment` to the path of an error thrown by `body`.
template <typename F> void within(std::string_view segment, F &&body)
{
    try {
        body();
    } catch (DecodeError &e) {
        if (segment.empty())
            throw;
        std::string path(segment);
        if (!e.path.empty() && e.path.front() != '[')
            path += '.';
        path += e.path;
        e.path = std::move(path);
        throw;
    }
}

// nullptr when `key` is absent or null.
inline const json *field(const json &object, std::string_view key)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string typeName(const json &value);
std::string getString(const json &object, std::string_view key);
int64_t getInt(const json &object, std::string_view key, int64_t fallback = 0);
bool getBool(const json &object, std::string_view key);
Quantity toQuantity(const json &value, std::string_view key);
StringPairs getStringMap(const json &object, std::string_view key);
std::vector<std::string> getStrings(const json &object, std::string_view key);
// The field as-is (for parts the console does not model), null when absent.
json getRaw(const json &object, std::string_view key);

// Calls `each(item)` for every element of the array `key`; errors get "key[i]" prefixed.
template <typename F> void forEach(const json &object, std::string_view key, F &&each)
{
    const json *array = field(object, key);
    if (!array)
        return;
    if (!array->is_array())
        throwAt(key, "expected a list, got " + typeName(*array));
    size_t index = 0;
    for (const json &item : *array) {
        within(std::string(key) + '[' + std::to_string(index) + ']', [&] { each(item); });
        ++index;
    }
}

// Calls `each(name, value)` for every member of the object `key`; errors get "key.name" prefixed.
template <typename F> void forEachMember(const json &object, std::string_view key, F &&each)
{
    const json *map = field(object, key);
    if (!map)
        return;
    if (!map->is_object())
        throwAt(key, "expected a map, got " + typeName(*map));
    for (auto it = map->begin(); it != map->end(); ++it)
        within(std::string(key) + '.' + it.key(), [&] { each(it.key(), it.value()); });
}

ObjectMeta decodeMeta(const json &object);

} // namespace dra::model::detail
