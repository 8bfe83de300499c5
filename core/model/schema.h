// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dra::model {

// One node of the schema tree of the kinds we serve: the single source for OpenAPI v3 documents,
// `kubectl explain`, validation, YAML typing and strategic-merge / apply list keys. Nodes are
// built once and never change, so pointers to them may be kept and shared across threads.
struct SchemaNode
{
    enum class Type {
        Object,
        Array,
        String,
        Integer,
        Number,
        Boolean,
        Map,
        Quantity,
        IntOrString,
        Any
    };
    // How an Array merges under server-side apply (x-kubernetes-list-type).
    enum class ListType { Atomic, Set, Map };

    Type type = Type::Any;
    std::string description; // one line, our words
    std::vector<std::pair<std::string, const SchemaNode *>> properties; // Object, in API order
    const SchemaNode *items = nullptr; // Array element
    const SchemaNode *values = nullptr; // Map value
    std::vector<std::string> required; // Object
    ListType listType = ListType::Atomic; // Array
    std::vector<std::string> listMapKeys; // ListType::Map keys; the first is the patch merge key
    std::vector<std::string> enumValues; // known values of an enum-like String
    std::string format; // "int64", "int32", "double", "date-time", ...
    bool preserveUnknown = false; // fields not listed here are kept, not pruned

    // The schema of property `name`, or nullptr when the object does not declare it.
    const SchemaNode *property(std::string_view name) const;
    // True for Types whose YAML scalars keep their exact text (String, Quantity).
    bool keepsScalarText() const { return type == Type::String || type == Type::Quantity; }
};

// The schema of `key` under `schema`: an Object's property, a Map's value schema; nullptr when
// `schema` is null or declares no such child. Patches, field sets and managed fields walk with it.
const SchemaNode *childSchema(const SchemaNode *schema, std::string_view key);

// An Array merged by key under server-side apply (x-kubernetes-list-type: map, with keys).
bool isKeyedList(const SchemaNode *schema);

// An Array merged as a set of scalars (x-kubernetes-list-type: set).
bool isSetList(const SchemaNode *schema);

// A kind of the table: its apiVersion ("v1", "resource.k8s.io/v1beta1"), kind, scope and root.
struct SchemaKind
{
    std::string_view apiVersion;
    std::string_view kind;
    bool namespaced = false;
    const SchemaNode *root = nullptr;
};

// Every kind in the table, lists ("DeviceClassList") included, in a stable order. Thread-safe.
std::span<const SchemaKind> schemaKinds();

// The root schema of `kind` in `apiVersion`, or nullptr when we do not serve it. Thread-safe,
// allocation-free after the first call builds the table.
const SchemaNode *schemaFor(std::string_view apiVersion, std::string_view kind);

// The metav1.ObjectMeta schema shared by every kind.
const SchemaNode *objectMetaSchema();

// Walks `path` from `root` the way `kubectl explain` does: dot-separated field names, arrays are
// stepped through implicitly (an explicit `[]`, `[*]` or `[3]` suffix is accepted too), and any
// segment below a Map selects its value schema ("metadata.labels.app"). Returns nullptr when a
// segment is unknown; an empty path returns `root`.
const SchemaNode *schemaAt(const SchemaNode *root, std::string_view path);

} // namespace dra::model
