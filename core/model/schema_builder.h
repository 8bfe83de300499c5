// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

// Internal to the schema table (schema*.cpp): the arena and the small vocabulary the kind
// definitions are written in. Not for use outside core/model/schema*.

#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "core/model/schema.h"

namespace dra::model::schema_detail {

using Field = std::pair<std::string, const SchemaNode *>;

// Owns every node; a deque keeps node addresses stable while the table grows.
class SchemaBuilder final
{
public:
    const SchemaNode *string(std::string description, std::string format = {});
    const SchemaNode *enumeration(std::string description, std::vector<std::string> values);
    const SchemaNode *int64(std::string description);
    const SchemaNode *int32(std::string description);
    const SchemaNode *number(std::string description);
    const SchemaNode *boolean(std::string description);
    const SchemaNode *quantity(std::string description);
    const SchemaNode *intOrString(std::string description);
    const SchemaNode *time(std::string description);
    // A RawExtension or free-form value: anything goes, nothing is pruned.
    const SchemaNode *any(std::string description);
    const SchemaNode *object(
        std::string description, std::vector<Field> fields, std::vector<std::string> required = {});
    // An object of which we model only some fields; the others are kept untyped.
    const SchemaNode *partialObject(
        std::string description, std::vector<Field> fields, std::vector<std::string> required = {});
    const SchemaNode *list(std::string description, const SchemaNode *items);
    const SchemaNode *set(std::string description, const SchemaNode *items);
    const SchemaNode *mapList(
        std::string description, const SchemaNode *items, std::vector<std::string> keys);
    const SchemaNode *map(std::string description, const SchemaNode *values);
    const SchemaNode *stringMap(std::string description);
    const SchemaNode *stringList(std::string description);
    // A field whose type is a shared node: a copy that carries the field's own description.
    const SchemaNode *field(const SchemaNode *shared, std::string description);

private:
    const SchemaNode *add(SchemaNode node);
    std::deque<SchemaNode> m_nodes;
};

// Nodes shared by the resource.k8s.io and core kinds.
struct CommonNodes
{
    const SchemaNode *objectMeta = nullptr;
    const SchemaNode *listMeta = nullptr;
    const SchemaNode *nodeSelector = nullptr; // core/v1 NodeSelector
    const SchemaNode *condition = nullptr; // metav1.Condition
    const SchemaNode *podSpec = nullptr; // core/v1 PodSpec, also in workloads' pod templates
};

// Kinds are appended with their "<Kind>List" twin.
class KindSink
{
public:
    virtual ~KindSink() = default;
    virtual void addKind(
        std::string_view apiVersion, std::string_view kind, bool namespaced, const SchemaNode *root)
        = 0;
};

CommonNodes buildCommonNodes(SchemaBuilder &b);
void addCoreKinds(SchemaBuilder &b, const CommonNodes &common, KindSink &sink);
void addResourceKinds(SchemaBuilder &b, const CommonNodes &common, KindSink &sink);
void addWorkloadKinds(SchemaBuilder &b, const CommonNodes &common, KindSink &sink);
void addRbacKinds(SchemaBuilder &b, const CommonNodes &common, KindSink &sink);
void addSetupKinds(SchemaBuilder &b, const CommonNodes &common, KindSink &sink);
void addPoolStatusKinds(SchemaBuilder &b, const CommonNodes &common, KindSink &sink);

// A metav1.LabelSelector: matchLabels and matchExpressions.
const SchemaNode *labelSelector(SchemaBuilder &b, std::string description);

// The root of a kind: apiVersion, kind, metadata and the given top-level fields.
const SchemaNode *kindRoot(SchemaBuilder &b, const CommonNodes &common, std::string description,
    std::vector<Field> fields, std::vector<std::string> required = {});

} // namespace dra::model::schema_detail
