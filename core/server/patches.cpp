// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/patches.h"

#include <algorithm>

#include "core/common/json_text.h"

namespace dra::server {

namespace {

using common::Error;
using common::qs;
using model::SchemaNode;
using nlohmann::json;

constexpr std::string_view kDeleteFromPrimitiveList = "$deleteFromPrimitiveList/";
constexpr std::string_view kSetElementOrder = "$setElementOrder/";

std::string mediaType(std::string_view contentType)
{
    std::string type(contentType.substr(0, contentType.find(';')));
    while (!type.empty() && (type.back() == ' ' || type.back() == '\t'))
        type.pop_back();
    std::transform(type.begin(), type.end(), type.begin(),
        [](unsigned char c) { return char(std::tolower(c)); });
    return type;
}

// Applies the order a `$setElementOrder` directive gives: listed elements first, in that order,
// then the rest as they were.
json ordered(const json &list, const json &order, const SchemaNode *schema)
{
    if (!list.is_array() || !order.is_array())
        return list;
    const std::string key = isKeyedList(schema) ? schema->listMapKeys.front() : std::string();
    json out = json::array();
    std::vector<bool> taken(list.size(), false);
    for (const json &wanted : order) {
        for (size_t i = 0; i < list.size(); ++i) {
            if (taken[i])
                continue;
            const bool match = key.empty()
                ? list[i] == wanted
                : (wanted.is_object() && list[i].is_object() && wanted.contains(key)
                    && list[i].value(key, json()) == wanted[key]);
            if (match) {
                out.push_back(list[i]);
                taken[i] = true;
                break;
            }
        }
    }
    for (size_t i = 0; i < list.size(); ++i) {
        if (!taken[i])
            out.push_back(list[i]);
    }
    return out;
}

Result<json> strategic(const json &target, const json &patch, const SchemaNode *schema);

Result<json> mergeKeyedList(const json &target, const json &patch, const SchemaNode *schema)
{
    const std::string &key = schema->listMapKeys.front();
    json out = target.is_array() ? target : json::array();
    for (const json &item : patch) {
        if (!item.is_object() || !item.contains(key)) {
            // A list directive (`{"$patch": "replace"}`) replaces the whole list.
            if (item.is_object() && item.value("$patch", "") == "replace") {
                json replaced = json::array();
                for (const json &other : patch) {
                    if (!(other.is_object() && other.contains("$patch")))
                        replaced.push_back(other);
                }
                return replaced;
            }
            return dra::fail(Error::Code::Parse,
                QStringLiteral("map: %1 does not contain declared merge key: %2")
                    .arg(qs(common::compactJson(item)), qs(key)));
        }
        auto it = std::find_if(out.begin(), out.end(), [&](const json &existing) {
            return existing.is_object() && existing.contains(key) && existing[key] == item[key];
        });
        const std::string directive = item.value("$patch", "");
        if (directive == "delete") {
            if (it != out.end())
                out.erase(it);
            continue;
        }
        if (it == out.end()) {
            Result<json> added = strategic(json::object(), item, schema->items);
            if (!added)
                return added;
            out.push_back(std::move(*added));
            continue;
        }
        Result<json> merged = strategic(*it, item, schema->items);
        if (!merged)
            return merged;
        *it = std::move(*merged);
    }
    return out;
}

Result<json> strategic(const json &target, const json &patch, const SchemaNode *schema)
{
    if (!patch.is_object())
        return patch;
    json out = target.is_object() ? target : json::object();

    const std::string directive = patch.value("$patch", "");
    if (directive == "replace") {
        json replaced = patch;
        replaced.erase("$patch");
        return replaced;
    }
    if (directive == "delete")
        return json(nullptr);
    if (!directive.empty() && directive != "merge")
        return dra::fail(Error::Code::Parse,
            QStringLiteral("unknown patch type: %1 in map: %2")
                .arg(qs(directive), qs(common::compactJson(patch))));

    if (const auto retain = patch.find("$retainKeys"); retain != patch.end()) {
        if (!retain->is_array())
            return dra::fail(Error::Code::Parse, QStringLiteral("$retainKeys must be a list"));
        for (auto it = out.begin(); it != out.end();) {
            if (std::find(retain->begin(), retain->end(), json(it.key())) == retain->end())
                it = out.erase(it);
            else
                ++it;
        }
    }
    for (const auto &[key, value] : patch.items()) {
        if (key.starts_with(kDeleteFromPrimitiveList)) {
            const std::string field = key.substr(kDeleteFromPrimitiveList.size());
            if (out.contains(field) && out[field].is_array() && value.is_array()) {
                json &list = out[field];
                for (const json &gone : value)
                    list.erase(std::remove(list.begin(), list.end(), gone), list.end());
            }
            continue;
        }
        if (key.starts_with("$"))
            continue;
        if (value.is_null()) {
            out.erase(key);
            continue;
        }
        const SchemaNode *child = childSchema(schema, key);
        if (value.is_object()) {
            Result<json> merged = strategic(out.value(key, json::object()), value, child);
            if (!merged)
                return merged;
            if (merged->is_null())
                out.erase(key);
            else
                out[key] = std::move(*merged);
            continue;
        }
        if (value.is_array() && isKeyedList(child)) {
            Result<json> merged = mergeKeyedList(out.value(key, json::array()), value, child);
            if (!merged)
                return merged;
            out[key] = std::move(*merged);
            continue;
        }
        if (value.is_array() && isSetList(child)) {
            json merged = out.value(key, json::array());
            if (!merged.is_array())
                merged = json::array();
            for (const json &item : value) {
                if (std::find(merged.begin(), merged.end(), item) == merged.end())
                    merged.push_back(item);
            }
            out[key] = std::move(merged);
            continue;
        }
        out[key] = value;
    }
    // Orders last, once the lists hold everything they will.
    for (const auto &[key, value] : patch.items()) {
        if (key.starts_with(kSetElementOrder)) {
            const std::string field = key.substr(kSetElementOrder.size());
            if (out.contains(field))
                out[field] = ordered(out[field], value, childSchema(schema, field));
        }
    }
    return out;
}

} // namespace

std::optional<PatchType> patchTypeOf(std::string_view contentType)
{
    const std::string type = mediaType(contentType);
    if (type == "application/json-patch+json")
        return PatchType::Json;
    if (type == "application/merge-patch+json")
        return PatchType::Merge;
    if (type == "application/strategic-merge-patch+json")
        return PatchType::Strategic;
    if (type == "application/apply-patch+yaml" || type == "application/apply-patch+cbor")
        return type == "application/apply-patch+yaml" ? std::optional(PatchType::Apply)
                                                      : std::nullopt;
    return std::nullopt;
}

Result<json> applyMergePatch(const json &target, const json &patch)
{
    if (!patch.is_object())
        return dra::fail(Error::Code::Parse,
            QStringLiteral("a merge patch must be a JSON object, not %1")
                .arg(QString::fromLatin1(patch.type_name())));
    json out = target;
    out.merge_patch(patch);
    return out;
}

Result<json> applyJsonPatch(const json &target, const json &patch)
{
    if (!patch.is_array())
        return dra::fail(
            Error::Code::Parse, QStringLiteral("a JSON patch must be a list of operations"));
    static const std::vector<std::string> ops
        = { "add", "remove", "replace", "move", "copy", "test" };
    for (size_t i = 0; i < patch.size(); ++i) {
        const json &op = patch[i];
        if (!op.is_object() || !op.contains("op") || !op["op"].is_string()
            || std::find(ops.begin(), ops.end(), op["op"].get<std::string>()) == ops.end()
            || !op.contains("path") || !op["path"].is_string())
            return dra::fail(Error::Code::Parse,
                QStringLiteral("JSON patch operation %1 is malformed: %2")
                    .arg(i)
                    .arg(qs(common::compactJson(op))));
    }
    try {
        return target.patch(patch);
    } catch (const json::exception &error) {
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("the JSON patch cannot be applied: %1")
                .arg(QString::fromUtf8(error.what())));
    }
}

Result<json> applyStrategicPatch(const json &target, const json &patch, const SchemaNode *schema)
{
    if (!patch.is_object())
        return dra::fail(Error::Code::Parse,
            QStringLiteral("a strategic merge patch must be a JSON object, not %1")
                .arg(QString::fromLatin1(patch.type_name())));
    return strategic(target, patch, schema);
}

} // namespace dra::server
