// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/schema.h"

namespace dra::server {

// One step of a field path, in the managedFields (FieldsV1) spelling: "f:name" (a field or a map
// key), "k:{\"name\":\"gpu\"}" (an item of a list keyed by its map keys), "v:\"x\"" (an item of
// a set), "i:3" (an item of a list without keys).
using PathElement = std::string;
using FieldPath = std::vector<PathElement>;

// A set of field paths, as server-side apply tracks ownership: a tree whose nodes are members
// (owned themselves) and/or hold owned children. Plain value.
class FieldSet final
{
public:
    bool empty() const { return !m_member && m_children.empty(); }
    void insert(const FieldPath &path);
    bool contains(const FieldPath &path) const;

    FieldSet unionWith(const FieldSet &other) const;
    FieldSet intersection(const FieldSet &other) const;
    FieldSet difference(const FieldSet &other) const;

    // The set below one top-level element ("f:status") / the set without it.
    FieldSet only(const PathElement &element) const;
    FieldSet without(const PathElement &element) const;

    // Every member path, depth first in key order.
    void forEach(const std::function<void(const FieldPath &)> &visit) const;

    // The FieldsV1 JSON of managedFields ({"f:spec":{"f:x":{}}}, "." marking a member with
    // children) and back; an unreadable document gives an empty set.
    nlohmann::json toJson() const;
    static FieldSet fromJson(const nlohmann::json &fieldsV1);

private:
    void forEachFrom(FieldPath &prefix, const std::function<void(const FieldPath &)> &visit) const;

    bool m_member = false;
    std::map<PathElement, FieldSet> m_children;
};

// A path as structured-merge-diff prints it in conflicts: `.metadata.labels.team`,
// `.spec.devices.requests[name="gpu"].count`, `.metadata.finalizers[="x"]`.
std::string displayPath(const FieldPath &path);

// The fields `value` sets, walked with `schema` (may be null: then nested objects are walked
// as maps and lists are atomic): scalars, atomic lists and untyped values are members; items of
// keyed and set lists are members with their fields below; struct fields and map entries are
// walked into. `value` is a whole object: apiVersion, kind and the metadata the server owns
// (name, namespace, uid, resourceVersion, generation, timestamps, managedFields) are left out.
FieldSet fieldSetOf(const nlohmann::json &object, const model::SchemaNode *schema);

// How the fields of two versions of an object differ.
struct FieldChanges
{
    FieldSet added, modified, removed;
};
FieldChanges compareFields(
    const nlohmann::json &before, const nlohmann::json &after, const model::SchemaNode *schema);

// The value at `path` in `object`, or nullptr when absent.
const nlohmann::json *valueAt(
    const nlohmann::json &object, const FieldPath &path, const model::SchemaNode *schema);

// Removes every member path of `set` from `object` (fields erased, keyed and set items
// dropped); maps and objects left empty by a removal are dropped too.
void removeFields(nlohmann::json &object, const FieldSet &set, const model::SchemaNode *schema);

} // namespace dra::server
