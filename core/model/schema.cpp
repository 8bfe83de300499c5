// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/schema.h"

#include "core/model/schema_builder.h"

namespace dra::model {

namespace schema_detail {

const SchemaNode *SchemaBuilder::add(SchemaNode node)
{
    return &m_nodes.emplace_back(std::move(node));
}

const SchemaNode *SchemaBuilder::string(std::string description, std::string format)
{
    return add({ .type = SchemaNode::Type::String,
        .description = std::move(description),
        .format = std::move(format) });
}

const SchemaNode *SchemaBuilder::enumeration(
    std::string description, std::vector<std::string> values)
{
    return add({ .type = SchemaNode::Type::String,
        .description = std::move(description),
        .enumValues = std::move(values) });
}

const SchemaNode *SchemaBuilder::int64(std::string description)
{
    return add({ .type = SchemaNode::Type::Integer,
        .description = std::move(description),
        .format = "int64" });
}

const SchemaNode *SchemaBuilder::int32(std::string description)
{
    return add({ .type = SchemaNode::Type::Integer,
        .description = std::move(description),
        .format = "int32" });
}

const SchemaNode *SchemaBuilder::number(std::string description)
{
    return add({ .type = SchemaNode::Type::Number,
        .description = std::move(description),
        .format = "double" });
}

const SchemaNode *SchemaBuilder::boolean(std::string description)
{
    return add({ .type = SchemaNode::Type::Boolean, .description = std::move(description) });
}

const SchemaNode *SchemaBuilder::quantity(std::string description)
{
    return add({ .type = SchemaNode::Type::Quantity, .description = std::move(description) });
}

const SchemaNode *SchemaBuilder::intOrString(std::string description)
{
    return add({ .type = SchemaNode::Type::IntOrString, .description = std::move(description) });
}

const SchemaNode *SchemaBuilder::time(std::string description)
{
    return string(std::move(description), "date-time");
}

const SchemaNode *SchemaBuilder::any(std::string description)
{
    return add({ .type = SchemaNode::Type::Any,
        .description = std::move(description),
        .preserveUnknown = true });
}

const SchemaNode *SchemaBuilder::object(
    std::string description, std::vector<Field> fields, std::vector<std::string> required)
{
    return add({ .type = SchemaNode::Type::Object,
        .description = std::move(description),
        .properties = std::move(fields),
        .required = std::move(required) });
}

const SchemaNode *SchemaBuilder::partialObject(
    std::string description, std::vector<Field> fields, std::vector<std::string> required)
{
    return add({ .type = SchemaNode::Type::Object,
        .description = std::move(description),
        .properties = std::move(fields),
        .required = std::move(required),
        .preserveUnknown = true });
}

const SchemaNode *SchemaBuilder::list(std::string description, const SchemaNode *items)
{
    return add(
        { .type = SchemaNode::Type::Array, .description = std::move(description), .items = items });
}

const SchemaNode *SchemaBuilder::set(std::string description, const SchemaNode *items)
{
    return add({ .type = SchemaNode::Type::Array,
        .description = std::move(description),
        .items = items,
        .listType = SchemaNode::ListType::Set });
}

const SchemaNode *SchemaBuilder::mapList(
    std::string description, const SchemaNode *items, std::vector<std::string> keys)
{
    return add({ .type = SchemaNode::Type::Array,
        .description = std::move(description),
        .items = items,
        .listType = SchemaNode::ListType::Map,
        .listMapKeys = std::move(keys) });
}

const SchemaNode *SchemaBuilder::map(std::string description, const SchemaNode *values)
{
    return add(
        { .type = SchemaNode::Type::Map, .description = std::move(description), .values = values });
}

const SchemaNode *SchemaBuilder::stringMap(std::string description)
{
    return map(std::move(description), string({}));
}

const SchemaNode *SchemaBuilder::stringList(std::string description)
{
    return list(std::move(description), string({}));
}

const SchemaNode *SchemaBuilder::field(const SchemaNode *shared, std::string description)
{
    SchemaNode copy = *shared;
    copy.description = std::move(description);
    return add(std::move(copy));
}

const SchemaNode *kindRoot(SchemaBuilder &b, const CommonNodes &common, std::string description,
    std::vector<Field> fields, std::vector<std::string> required)
{
    std::vector<Field> all {
        { "apiVersion",
            b.string("Versioned schema of this representation, e.g. resource.k8s.io/v1.") },
        { "kind", b.string("Type of the object, e.g. ResourceClaim.") },
        { "metadata", common.objectMeta },
    };
    all.insert(
        all.end(), std::make_move_iterator(fields.begin()), std::make_move_iterator(fields.end()));
    return b.object(std::move(description), std::move(all), std::move(required));
}

} // namespace schema_detail

namespace {

using namespace schema_detail;

// Kind names must outlive the table: they live in this fixed pool of strings.
struct OwnedKind
{
    std::string apiVersion;
    std::string kind;
};

// The whole table, built on first use (a function-local static: thread-safe initialisation).
class SchemaTable final : public KindSink
{
public:
    SchemaTable()
    {
        m_common = buildCommonNodes(m_builder);
        addResourceKinds(m_builder, m_common, *this);
        addCoreKinds(m_builder, m_common, *this);
        addWorkloadKinds(m_builder, m_common, *this);
        addRbacKinds(m_builder, m_common, *this);
        addSetupKinds(m_builder, m_common, *this);
        addPoolStatusKinds(m_builder, m_common, *this);
        m_kinds.reserve(m_names.size());
        for (std::size_t i = 0; i < m_names.size(); ++i)
            m_kinds.push_back(
                { m_names[i].apiVersion, m_names[i].kind, m_namespaced[i], m_roots[i] });
    }

    void addKind(std::string_view apiVersion, std::string_view kind, bool namespaced,
        const SchemaNode *root) override
    {
        append(apiVersion, kind, namespaced, root);
        const std::string listKind = std::string(kind) + "List";
        const SchemaNode *listRoot
            = m_builder.object("A list of " + std::string(kind) + " objects.",
                { { "apiVersion", m_builder.string("Versioned schema of this list.") },
                    { "kind", m_builder.string("Type of the list, e.g. " + listKind + ".") },
                    { "metadata", m_common.listMeta },
                    { "items", m_builder.list("The objects of the list.", root) } },
                { "items" });
        append(apiVersion, listKind, namespaced, listRoot);
    }

    std::span<const SchemaKind> kinds() const { return m_kinds; }
    const SchemaNode *objectMeta() const { return m_common.objectMeta; }

private:
    void append(
        std::string_view apiVersion, std::string_view kind, bool namespaced, const SchemaNode *root)
    {
        m_names.push_back({ std::string(apiVersion), std::string(kind) });
        m_namespaced.push_back(namespaced);
        m_roots.push_back(root);
    }

    SchemaBuilder m_builder;
    CommonNodes m_common;
    std::deque<OwnedKind> m_names; // stable addresses for the string_views in m_kinds
    std::vector<bool> m_namespaced;
    std::vector<const SchemaNode *> m_roots;
    std::vector<SchemaKind> m_kinds;
};

const SchemaTable &table()
{
    static const SchemaTable instance;
    return instance;
}

} // namespace

const SchemaNode *SchemaNode::property(std::string_view name) const
{
    for (const auto &[key, node] : properties) {
        if (key == name)
            return node;
    }
    return nullptr;
}

const SchemaNode *childSchema(const SchemaNode *schema, std::string_view key)
{
    if (!schema)
        return nullptr;
    if (schema->type == SchemaNode::Type::Object)
        return schema->property(key);
    if (schema->type == SchemaNode::Type::Map)
        return schema->values;
    return nullptr;
}

bool isKeyedList(const SchemaNode *schema)
{
    return schema && schema->type == SchemaNode::Type::Array
        && schema->listType == SchemaNode::ListType::Map && !schema->listMapKeys.empty();
}

bool isSetList(const SchemaNode *schema)
{
    return schema && schema->type == SchemaNode::Type::Array
        && schema->listType == SchemaNode::ListType::Set;
}

std::span<const SchemaKind> schemaKinds()
{
    return table().kinds();
}

const SchemaNode *schemaFor(std::string_view apiVersion, std::string_view kind)
{
    for (const SchemaKind &entry : table().kinds()) {
        if (entry.kind == kind && entry.apiVersion == apiVersion)
            return entry.root;
    }
    return nullptr;
}

const SchemaNode *objectMetaSchema()
{
    return table().objectMeta();
}

const SchemaNode *schemaAt(const SchemaNode *root, std::string_view path)
{
    const SchemaNode *node = root;
    while (node && !path.empty()) {
        const std::size_t dot = path.find('.');
        std::string_view segment = path.substr(0, dot);
        path = dot == std::string_view::npos ? std::string_view {} : path.substr(dot + 1);

        // "devices[]", "devices[*]" and "devices[0]" name the field and then its elements.
        bool intoItems = false;
        if (const std::size_t bracket = segment.find('['); bracket != std::string_view::npos) {
            if (segment.back() != ']')
                return nullptr;
            segment = segment.substr(0, bracket);
            intoItems = true;
        }
        if (node->type == SchemaNode::Type::Array)
            node = node->items;
        if (!node)
            return nullptr;
        if (!segment.empty()) {
            if (node->type == SchemaNode::Type::Map)
                node = node->values;
            else
                node = node->property(segment);
        }
        if (node && intoItems) {
            if (node->type != SchemaNode::Type::Array)
                return nullptr;
            node = node->items;
        }
    }
    return node;
}

} // namespace dra::model
