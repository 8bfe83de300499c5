// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/field_set.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "core/common/json_text.h"

namespace dra::server {

namespace {

using model::SchemaNode;
using nlohmann::json;

// Metadata the server owns: never part of what a manager sets.
const std::set<std::string> &serverOwnedMetadata()
{
    static const std::set<std::string> names
        = { "name", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp",
              "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields", "selfLink" };
    return names;
}

bool isStructField(const SchemaNode *schema, const std::string &key)
{
    return schema && schema->type == SchemaNode::Type::Object && schema->property(key);
}

// Objects are walked field by field unless the schema says the value is opaque.
bool isWalkedObject(const json &value, const SchemaNode *schema)
{
    return value.is_object()
        && (!schema || schema->type == SchemaNode::Type::Object
            || schema->type == SchemaNode::Type::Map);
}

PathElement keyElement(const json &item, const SchemaNode *list)
{
    json keys = json::object();
    for (const std::string &key : list->listMapKeys) {
        if (item.is_object() && item.contains(key))
            keys[key] = item[key];
    }
    return "k:" + common::compactJson(keys);
}

PathElement itemElement(const json &item, const SchemaNode *list)
{
    if (isKeyedList(list))
        return keyElement(item, list);
    return "v:" + common::compactJson(item);
}

void walk(const json &value, const SchemaNode *schema, FieldPath &path, FieldSet &set)
{
    if (isWalkedObject(value, schema)) {
        for (const auto &[key, child] : value.items()) {
            path.push_back("f:" + key);
            walk(child, childSchema(schema, key), path, set);
            // Map entries are owned themselves; struct fields only through what they hold.
            if (!isStructField(schema, key))
                set.insert(path);
            path.pop_back();
        }
        return;
    }
    if (value.is_array() && (isKeyedList(schema) || isSetList(schema))) {
        for (const json &item : value) {
            path.push_back(itemElement(item, schema));
            if (isKeyedList(schema))
                walk(item, schema->items, path, set);
            set.insert(path);
            path.pop_back();
        }
        return;
    }
    set.insert(path); // a scalar, an atomic list or an opaque value
}

// The item of `list` that `element` names, or end().
json::const_iterator findItem(
    const json &list, const PathElement &element, const SchemaNode *schema)
{
    if (!list.is_array())
        return list.end();
    for (auto it = list.begin(); it != list.end(); ++it) {
        if (itemElement(*it, schema) == element)
            return it;
    }
    if (element.starts_with("i:")) {
        size_t index = 0;
        const auto [end, ec]
            = std::from_chars(element.data() + 2, element.data() + element.size(), index);
        if (ec == std::errc() && end == element.data() + element.size() && index < list.size())
            return list.begin() + long(index);
    }
    return list.end();
}

const SchemaNode *stepSchema(const SchemaNode *schema, const PathElement &element)
{
    if (element.starts_with("f:"))
        return childSchema(schema, element.substr(2));
    return schema && schema->type == SchemaNode::Type::Array ? schema->items : nullptr;
}

std::string displayElement(const PathElement &element)
{
    const std::string rest = element.size() > 2 ? element.substr(2) : std::string();
    if (element.starts_with("f:"))
        return "." + rest;
    if (element.starts_with("v:"))
        return "[=" + rest + "]";
    if (element.starts_with("i:"))
        return "[" + rest + "]";
    if (element.starts_with("k:")) {
        const json keys = json::parse(rest, nullptr, false);
        if (!keys.is_object())
            return "[" + rest + "]";
        std::string text;
        for (const auto &[key, value] : keys.items())
            text += (text.empty() ? "" : ",") + key + "=" + common::compactJson(value);
        return "[" + text + "]";
    }
    return element;
}

const SchemaNode *schemaOfPath(const SchemaNode *schema, const FieldPath &path)
{
    for (const PathElement &element : path)
        schema = stepSchema(schema, element);
    return schema;
}

// Erases the last element of `path` from `object`; drops objects a removal left empty.
void removePath(json &object, const FieldPath &path, const SchemaNode *schema)
{
    std::vector<json *> chain { &object };
    for (size_t i = 0; i + 1 < path.size(); ++i) {
        json &node = *chain.back();
        const PathElement &element = path[i];
        if (element.starts_with("f:")) {
            const std::string key = element.substr(2);
            if (!node.is_object() || !node.contains(key))
                return;
            chain.push_back(&node[key]);
        } else {
            const auto it = findItem(node, element, schema);
            if (it == node.end())
                return;
            chain.push_back(&node[size_t(it - node.begin())]);
        }
        schema = stepSchema(schema, element);
    }
    json &parent = *chain.back();
    const PathElement &last = path.back();
    if (last.starts_with("f:")) {
        if (!parent.is_object())
            return;
        parent.erase(last.substr(2));
    } else {
        const auto it = findItem(parent, last, schema);
        if (it == parent.end())
            return;
        parent.erase(size_t(it - parent.begin()));
    }
    // Walk back up, dropping objects that are now empty (an emptied `labels`).
    for (size_t depth = chain.size() - 1; depth > 0; --depth) {
        json &node = *chain[depth];
        if (!node.is_object() || !node.empty())
            break;
        json &holder = *chain[depth - 1];
        const PathElement &element = path[depth - 1];
        if (!element.starts_with("f:") || !holder.is_object())
            break;
        holder.erase(element.substr(2));
    }
}

} // namespace

void FieldSet::insert(const FieldPath &path)
{
    FieldSet *node = this;
    for (const PathElement &element : path)
        node = &node->m_children[element];
    node->m_member = true;
}

bool FieldSet::contains(const FieldPath &path) const
{
    const FieldSet *node = this;
    for (const PathElement &element : path) {
        const auto it = node->m_children.find(element);
        if (it == node->m_children.end())
            return false;
        node = &it->second;
    }
    return node->m_member;
}

FieldSet FieldSet::unionWith(const FieldSet &other) const
{
    FieldSet result = *this;
    result.m_member = m_member || other.m_member;
    for (const auto &[element, child] : other.m_children) {
        const auto it = result.m_children.find(element);
        result.m_children[element]
            = it == result.m_children.end() ? child : it->second.unionWith(child);
    }
    return result;
}

FieldSet FieldSet::intersection(const FieldSet &other) const
{
    FieldSet result;
    result.m_member = m_member && other.m_member;
    for (const auto &[element, child] : m_children) {
        const auto it = other.m_children.find(element);
        if (it == other.m_children.end())
            continue;
        FieldSet common = child.intersection(it->second);
        if (!common.empty())
            result.m_children.emplace(element, std::move(common));
    }
    return result;
}

FieldSet FieldSet::difference(const FieldSet &other) const
{
    FieldSet result;
    result.m_member = m_member && !other.m_member;
    for (const auto &[element, child] : m_children) {
        const auto it = other.m_children.find(element);
        FieldSet rest = it == other.m_children.end() ? child : child.difference(it->second);
        if (!rest.empty())
            result.m_children.emplace(element, std::move(rest));
    }
    return result;
}

FieldSet FieldSet::only(const PathElement &element) const
{
    FieldSet result;
    if (const auto it = m_children.find(element); it != m_children.end())
        result.m_children.emplace(element, it->second);
    return result;
}

FieldSet FieldSet::without(const PathElement &element) const
{
    FieldSet result = *this;
    result.m_children.erase(element);
    return result;
}

void FieldSet::forEach(const std::function<void(const FieldPath &)> &visit) const
{
    FieldPath prefix;
    forEachFrom(prefix, visit);
}

void FieldSet::forEachFrom(
    FieldPath &prefix, const std::function<void(const FieldPath &)> &visit) const
{
    if (m_member)
        visit(prefix);
    for (const auto &[element, child] : m_children) {
        prefix.push_back(element);
        child.forEachFrom(prefix, visit);
        prefix.pop_back();
    }
}

json FieldSet::toJson() const
{
    json out = json::object();
    if (m_member && !m_children.empty())
        out["."] = json::object();
    for (const auto &[element, child] : m_children)
        out[element] = child.toJson();
    return out;
}

FieldSet FieldSet::fromJson(const json &fieldsV1)
{
    FieldSet set;
    if (!fieldsV1.is_object())
        return set;
    for (const auto &[element, child] : fieldsV1.items()) {
        if (element == ".") {
            set.m_member = true;
            continue;
        }
        FieldSet sub = fromJson(child);
        if (child.is_object() && child.empty())
            sub.m_member = true;
        if (!sub.empty())
            set.m_children.emplace(element, std::move(sub));
    }
    return set;
}

std::string displayPath(const FieldPath &path)
{
    std::string text;
    for (const PathElement &element : path)
        text += displayElement(element);
    return text;
}

FieldSet fieldSetOf(const json &object, const SchemaNode *schema)
{
    FieldSet set;
    if (!object.is_object())
        return set;
    FieldPath path;
    for (const auto &[key, value] : object.items()) {
        if (key == "apiVersion" || key == "kind")
            continue;
        const SchemaNode *child = childSchema(schema, key);
        path.push_back("f:" + key);
        if (key == "metadata" && value.is_object()) {
            for (const auto &[field, inner] : value.items()) {
                if (serverOwnedMetadata().contains(field))
                    continue;
                path.push_back("f:" + field);
                walk(inner, childSchema(child, field), path, set);
                path.pop_back();
            }
        } else {
            walk(value, child, path, set);
        }
        path.pop_back();
    }
    return set;
}

const json *valueAt(const json &object, const FieldPath &path, const SchemaNode *schema)
{
    const json *node = &object;
    for (const PathElement &element : path) {
        if (element.starts_with("f:")) {
            const std::string key = element.substr(2);
            if (!node->is_object() || !node->contains(key))
                return nullptr;
            node = &(*node)[key];
        } else {
            const auto it = findItem(*node, element, schema);
            if (it == node->end())
                return nullptr;
            node = &*it;
        }
        schema = stepSchema(schema, element);
    }
    return node;
}

FieldChanges compareFields(const json &before, const json &after, const SchemaNode *schema)
{
    const FieldSet old = fieldSetOf(before, schema);
    const FieldSet now = fieldSetOf(after, schema);
    FieldChanges changes { now.difference(old), {}, old.difference(now) };
    const FieldSet both = old.intersection(now);
    // A member whose own value changed; keyed and set items change only through their fields.
    both.forEach([&](const FieldPath &path) {
        if (!path.empty() && (path.back().starts_with("k:") || path.back().starts_with("v:")))
            return;
        const json *a = valueAt(before, path, schema);
        const json *b = valueAt(after, path, schema);
        const SchemaNode *at = schemaOfPath(schema, path);
        if (a && b && *a != *b && !(isWalkedObject(*a, at) && isWalkedObject(*b, at)))
            changes.modified.insert(path);
    });
    return changes;
}

void removeFields(json &object, const FieldSet &set, const SchemaNode *schema)
{
    std::vector<FieldPath> paths;
    set.forEach([&](const FieldPath &path) {
        if (!path.empty())
            paths.push_back(path);
    });
    // Deepest first, so a removal never invalidates the way to one still to come.
    std::stable_sort(paths.begin(), paths.end(),
        [](const FieldPath &a, const FieldPath &b) { return a.size() > b.size(); });
    for (const FieldPath &path : paths)
        removePath(object, path, schema);
}

} // namespace dra::server
