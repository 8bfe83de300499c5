// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/field_manager.h"

#include <algorithm>
#include <map>

#include "core/common/json_text.h"

namespace dra::server {

namespace {

using model::SchemaNode;
using nlohmann::json;

// The fields a write through `context.subresource` may own: the main resource of a kind with a
// status subresource does not own status, and the status subresource owns nothing else.
FieldSet scoped(const FieldSet &set, const FieldManagerContext &context)
{
    if (context.subresource == "status")
        return set.only("f:status");
    if (context.hasStatusSubresource)
        return set.without("f:status");
    return set;
}

FieldSet fieldsOf(const json &object, const FieldManagerContext &context)
{
    return scoped(fieldSetOf(object, context.schema), context);
}

bool sameIdentity(const ManagedEntry &entry, const std::string &manager,
    const std::string &operation, const std::string &subresource)
{
    return entry.manager == manager && entry.operation == operation
        && entry.subresource == subresource;
}

ManagedEntry &entryFor(std::vector<ManagedEntry> &entries, const FieldManagerContext &context,
    const std::string &operation)
{
    for (ManagedEntry &entry : entries) {
        if (sameIdentity(entry, context.manager, operation, context.subresource))
            return entry;
    }
    ManagedEntry &entry = entries.emplace_back();
    entry.manager = context.manager;
    entry.operation = operation;
    entry.subresource = context.subresource;
    return entry;
}

void dropEmpty(std::vector<ManagedEntry> &entries)
{
    std::erase_if(entries, [](const ManagedEntry &entry) { return entry.fields.empty(); });
}

bool sameKeys(const json &a, const json &b, const std::vector<std::string> &keys)
{
    for (const std::string &key : keys) {
        const bool inA = a.is_object() && a.contains(key), inB = b.is_object() && b.contains(key);
        if (inA != inB || (inA && a[key] != b[key]))
            return false;
    }
    return true;
}

// Merges an applied configuration into the live object, field by field where the schema
// makes fields granular.
json mergeApplied(const json &live, const json &config, const SchemaNode *schema)
{
    const bool walked = !schema || schema->type == SchemaNode::Type::Object
        || schema->type == SchemaNode::Type::Map;
    if (config.is_object() && live.is_object() && walked) {
        json out = live;
        for (const auto &[key, value] : config.items()) {
            const auto it = live.find(key);
            out[key]
                = it == live.end() ? value : mergeApplied(*it, value, childSchema(schema, key));
        }
        return out;
    }
    if (config.is_array() && live.is_array() && schema && schema->type == SchemaNode::Type::Array) {
        if (schema->listType == SchemaNode::ListType::Map && !schema->listMapKeys.empty()) {
            json out = json::array();
            std::vector<bool> used(config.size(), false);
            for (const json &item : live) {
                bool merged = false;
                for (size_t i = 0; i < config.size(); ++i) {
                    if (!used[i] && sameKeys(item, config[i], schema->listMapKeys)) {
                        out.push_back(mergeApplied(item, config[i], schema->items));
                        used[i] = merged = true;
                        break;
                    }
                }
                if (!merged)
                    out.push_back(item);
            }
            for (size_t i = 0; i < config.size(); ++i) {
                if (!used[i])
                    out.push_back(config[i]);
            }
            return out;
        }
        if (schema->listType == SchemaNode::ListType::Set) {
            json out = live;
            for (const json &item : config) {
                if (std::find(out.begin(), out.end(), item) == out.end())
                    out.push_back(item);
            }
            return out;
        }
    }
    return config;
}

} // namespace

std::string ManagedEntry::display() const
{
    std::string text = common::compactJson(json(manager));
    if (operation == "Update")
        text += " using " + apiVersion;
    return text;
}

std::vector<ManagedEntry> readManagedFields(const json &object)
{
    std::vector<ManagedEntry> entries;
    const json *list = nullptr;
    if (object.is_object() && object.contains("metadata") && object["metadata"].is_object()
        && object["metadata"].contains("managedFields"))
        list = &object["metadata"]["managedFields"];
    if (!list || !list->is_array())
        return entries;
    for (const json &item : *list) {
        if (!item.is_object())
            continue;
        ManagedEntry entry;
        entry.manager = item.value("manager", "");
        entry.operation = item.value("operation", "");
        entry.apiVersion = item.value("apiVersion", "");
        entry.time = item.value("time", "");
        entry.subresource = item.value("subresource", "");
        entry.fields = FieldSet::fromJson(item.value("fieldsV1", json::object()));
        entries.push_back(std::move(entry));
    }
    return entries;
}

void writeManagedFields(json &object, const std::vector<ManagedEntry> &entries)
{
    json &metadata = object["metadata"];
    if (entries.empty()) {
        metadata.erase("managedFields");
        return;
    }
    json list = json::array();
    for (const ManagedEntry &entry : entries) {
        json item = { { "manager", entry.manager }, { "operation", entry.operation },
            { "apiVersion", entry.apiVersion }, { "time", entry.time },
            { "fieldsType", "FieldsV1" }, { "fieldsV1", entry.fields.toJson() } };
        if (!entry.subresource.empty())
            item["subresource"] = entry.subresource;
        list.push_back(std::move(item));
    }
    metadata["managedFields"] = std::move(list);
}

void trackUpdate(const json *before, json &after, const FieldManagerContext &context)
{
    std::vector<ManagedEntry> entries
        = before ? readManagedFields(*before) : std::vector<ManagedEntry>();
    const json empty = json::object();
    const FieldChanges changes = compareFields(before ? *before : empty, after, context.schema);
    const FieldSet changed = scoped(changes.added.unionWith(changes.modified), context);
    const FieldSet removed = scoped(changes.removed, context);
    for (ManagedEntry &entry : entries) {
        if (!sameIdentity(entry, context.manager, "Update", context.subresource))
            entry.fields = entry.fields.difference(changed).difference(removed);
    }
    ManagedEntry &mine = entryFor(entries, context, "Update");
    mine.fields = mine.fields.unionWith(changed).difference(removed);
    mine.apiVersion = context.apiVersion;
    mine.time = context.now;
    dropEmpty(entries);
    writeManagedFields(after, entries);
}

ApplyOutcome serverSideApply(
    const json *live, const json &config, const FieldManagerContext &context, bool force)
{
    const json liveObject = live ? *live : json::object();
    std::vector<ManagedEntry> entries
        = live ? readManagedFields(*live) : std::vector<ManagedEntry>();
    if (live && entries.empty()) {
        // Fields set before anyone applied belong to this pseudo-manager, so the first apply
        // that changes them conflicts, as upstream.
        ManagedEntry before;
        before.manager = "before-first-apply";
        before.operation = "Update";
        before.apiVersion = context.apiVersion;
        before.time = context.now;
        before.fields = fieldsOf(liveObject, context);
        if (!before.fields.empty())
            entries.push_back(std::move(before));
    }

    const FieldSet applied = fieldsOf(config, context);
    json merged = mergeApplied(liveObject, config, context.schema);

    // Prune what this manager applied before and dropped now, unless another applier owns it.
    FieldSet lastApplied;
    FieldSet otherAppliers;
    for (const ManagedEntry &entry : entries) {
        if (sameIdentity(entry, context.manager, "Apply", context.subresource))
            lastApplied = entry.fields;
        else if (entry.operation == "Apply")
            otherAppliers = otherAppliers.unionWith(entry.fields);
    }
    removeFields(merged, lastApplied.difference(applied).difference(otherAppliers), context.schema);

    const FieldChanges changes = compareFields(liveObject, merged, context.schema);
    const FieldSet changed = scoped(changes.added.unionWith(changes.modified), context);
    const FieldSet removed = scoped(changes.removed, context);
    ApplyOutcome outcome;
    std::map<size_t, FieldSet> contested;
    for (size_t i = 0; i < entries.size(); ++i) {
        const ManagedEntry &entry = entries[i];
        if (sameIdentity(entry, context.manager, "Apply", context.subresource))
            continue;
        const FieldSet conflict = entry.fields.intersection(changed);
        if (conflict.empty())
            continue;
        contested[i] = conflict;
        conflict.forEach([&](const FieldPath &path) {
            outcome.conflicts.push_back({ entry.display(), path });
        });
    }
    if (!outcome.conflicts.empty() && !force)
        return outcome;
    outcome.conflicts.clear();

    for (size_t i = 0; i < entries.size(); ++i) {
        ManagedEntry &entry = entries[i];
        if (sameIdentity(entry, context.manager, "Apply", context.subresource))
            continue;
        if (const auto it = contested.find(i); it != contested.end())
            entry.fields = entry.fields.difference(it->second);
        entry.fields = entry.fields.difference(removed);
    }
    ManagedEntry &mine = entryFor(entries, context, "Apply");
    mine.fields = applied;
    mine.apiVersion = context.apiVersion;
    mine.time = context.now;
    dropEmpty(entries);
    writeManagedFields(merged, entries);
    outcome.object = std::move(merged);
    return outcome;
}

std::string applyConflictMessage(const std::vector<ApplyConflict> &conflicts)
{
    if (conflicts.size() == 1)
        return "Apply failed with 1 conflict: conflict with " + conflicts[0].manager + ": "
            + displayPath(conflicts[0].path);
    std::map<std::string, std::vector<std::string>> byManager;
    for (const ApplyConflict &conflict : conflicts)
        byManager[conflict.manager].push_back(displayPath(conflict.path));
    std::string lines;
    for (const auto &[manager, paths] : byManager) {
        lines += (lines.empty() ? "" : "\n") + std::string("conflicts with ") + manager + ":";
        for (const std::string &path : paths)
            lines += "\n- " + path;
    }
    return "Apply failed with " + std::to_string(conflicts.size()) + " conflicts: " + lines;
}

json applyConflictCauses(const std::vector<ApplyConflict> &conflicts)
{
    json causes = json::array();
    for (const ApplyConflict &conflict : conflicts)
        causes.push_back({ { "reason", "FieldManagerConflict" },
            { "message", "conflict with " + conflict.manager },
            { "field", displayPath(conflict.path) } });
    return causes;
}

} // namespace dra::server
