// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/schema.h"

#include <filesystem>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/resource_versions.h"
#include "tests/support/upstream.h"

using dra::model::schemaAt;
using dra::model::schemaFor;
using dra::model::SchemaNode;
using Type = SchemaNode::Type;

namespace {

using dra::test::kV1;
using dra::test::kV1beta1;
using dra::test::kV1beta2;

const SchemaNode *at(std::string_view apiVersion, std::string_view kind, std::string_view path)
{
    return schemaAt(schemaFor(apiVersion, kind), path);
}

std::vector<std::string> keysOf(const SchemaNode *node)
{
    return node ? node->listMapKeys : std::vector<std::string> { "<no node>" };
}

// Walks a fully populated upstream object along the schema: every field must be declared
// (unless its object keeps unknown fields) and every scalar must have a matching type.
void expectCovered(const nlohmann::json &value, const SchemaNode *node, const std::string &path)
{
    ASSERT_NE(node, nullptr) << path;
    if (node->type == Type::Any)
        return;
    switch (value.type()) {
    case nlohmann::json::value_t::object:
        if (node->type == Type::Map) {
            for (const auto &[key, child] : value.items())
                expectCovered(child, node->values, path + "." + key);
            return;
        }
        ASSERT_EQ(node->type, Type::Object) << path;
        for (const auto &[key, child] : value.items()) {
            const SchemaNode *property = node->property(key);
            if (!property) {
                EXPECT_TRUE(node->preserveUnknown) << "field not in schema: " << path << "." << key;
                continue;
            }
            expectCovered(child, property, path + "." + key);
        }
        return;
    case nlohmann::json::value_t::array:
        ASSERT_EQ(node->type, Type::Array) << path;
        for (const auto &element : value)
            expectCovered(element, node->items, path + "[]");
        return;
    case nlohmann::json::value_t::string:
        EXPECT_TRUE(node->type == Type::String || node->type == Type::Quantity
            || node->type == Type::IntOrString)
            << path;
        return;
    case nlohmann::json::value_t::boolean:
        EXPECT_EQ(node->type, Type::Boolean) << path;
        return;
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
        EXPECT_TRUE(node->type == Type::Integer || node->type == Type::Number
            || node->type == Type::IntOrString)
            << path;
        return;
    default:
        return;
    }
}

void expectDescribed(
    const SchemaNode *node, const std::string &path, std::set<const SchemaNode *> &seen)
{
    if (!node || !seen.insert(node).second)
        return;
    for (const auto &[name, child] : node->properties) {
        EXPECT_FALSE(child->description.empty()) << path << "." << name;
        expectDescribed(child, path + "." + name, seen);
    }
    expectDescribed(node->items, path + "[]", seen);
    expectDescribed(node->values, path + ".*", seen);
}

} // namespace

TEST(SchemaTest, ServesEveryDraKindInEachVersion)
{
    for (const std::string_view version : { kV1, kV1beta2, kV1beta1 }) {
        for (const char *kind : { "DeviceClass", "ResourceSlice", "ResourceClaim",
                 "ResourceClaimTemplate", "DeviceClassList", "ResourceClaimList" }) {
            EXPECT_NE(schemaFor(version, kind), nullptr) << version << " " << kind;
        }
    }
    EXPECT_NE(schemaFor(kV1, "DeviceTaintRule"), nullptr);
    EXPECT_NE(schemaFor(kV1beta2, "DeviceTaintRule"), nullptr);
    EXPECT_EQ(schemaFor(kV1beta1, "DeviceTaintRule"), nullptr); // never existed in v1beta1
    for (const char *kind : { "Node", "Pod", "Namespace", "Event", "PodList" })
        EXPECT_NE(schemaFor("v1", kind), nullptr) << kind;
    EXPECT_EQ(schemaFor("v1", "DeviceClass"), nullptr);
    EXPECT_EQ(schemaFor("resource.k8s.io/v1alpha3", "DeviceTaintRule"), nullptr);
    EXPECT_EQ(schemaFor(kV1, "Pod"), nullptr);
}

TEST(SchemaTest, KindsKnowTheirScope)
{
    int namespacedDra = 0;
    for (const auto &kind : dra::model::schemaKinds()) {
        ASSERT_NE(kind.root, nullptr);
        if (kind.apiVersion == kV1 && !kind.kind.ends_with("List"))
            namespacedDra += kind.namespaced;
        if (kind.kind == "ResourceSlice" || kind.kind == "Node") {
            EXPECT_FALSE(kind.namespaced);
        }
    }
    EXPECT_EQ(namespacedDra, 2); // ResourceClaim and ResourceClaimTemplate
}

TEST(SchemaTest, V1beta2SharesTheV1Nodes)
{
    for (const char *kind : { "DeviceClass", "ResourceSlice", "ResourceClaim",
             "ResourceClaimTemplate", "DeviceTaintRule" })
        EXPECT_EQ(schemaFor(kV1beta2, kind), schemaFor(kV1, kind)) << kind;
    EXPECT_EQ(schemaFor(kV1beta1, "DeviceClass"), schemaFor(kV1, "DeviceClass"));
    EXPECT_EQ(at(kV1beta1, "ResourceClaim", "status"), at(kV1, "ResourceClaim", "status"));
}

TEST(SchemaTest, V1beta1WrapsDeviceFieldsInBasic)
{
    EXPECT_EQ(at(kV1beta1, "ResourceSlice", "spec.devices.basic.attributes")->type, Type::Map);
    EXPECT_EQ(at(kV1beta1, "ResourceSlice", "spec.devices.attributes"), nullptr);
    EXPECT_EQ(at(kV1, "ResourceSlice", "spec.devices.attributes")->type, Type::Map);
    EXPECT_EQ(at(kV1, "ResourceSlice", "spec.devices.basic"), nullptr);
}

TEST(SchemaTest, V1beta1RequestsAreFlat)
{
    EXPECT_EQ(
        at(kV1beta1, "ResourceClaim", "spec.devices.requests.deviceClassName")->type, Type::String);
    EXPECT_EQ(at(kV1beta1, "ResourceClaim", "spec.devices.requests.exactly"), nullptr);
    EXPECT_EQ(at(kV1, "ResourceClaim", "spec.devices.requests.exactly.deviceClassName")->type,
        Type::String);
    EXPECT_EQ(at(kV1, "ResourceClaim", "spec.devices.requests.deviceClassName"), nullptr);
    EXPECT_EQ(
        at(kV1, "ResourceClaimTemplate", "spec.spec.devices.requests.firstAvailable.count")->type,
        Type::Integer);
}

TEST(SchemaTest, ListMapKeysForApplyAndMerge)
{
    using Keys = std::vector<std::string>;
    EXPECT_EQ(keysOf(at(kV1, "ResourceClaim", "status.reservedFor")), Keys { "uid" });
    EXPECT_EQ(keysOf(at(kV1, "ResourceClaim", "status.devices")),
        (Keys { "driver", "device", "pool", "shareID" }));
    EXPECT_EQ(keysOf(at(kV1, "ResourceClaim", "status.devices.conditions")), Keys { "type" });
    EXPECT_EQ(keysOf(at(kV1, "DeviceTaintRule", "status.conditions")), Keys { "type" });
    EXPECT_EQ(keysOf(at(kV1, "DeviceClass", "metadata.ownerReferences")), Keys { "uid" });
    EXPECT_EQ(keysOf(at("v1", "Pod", "spec.containers")), Keys { "name" });
    EXPECT_EQ(
        keysOf(at("v1", "Pod", "spec.containers.ports")), (Keys { "containerPort", "protocol" }));
    EXPECT_EQ(keysOf(at("v1", "Pod", "spec.resourceClaims")), Keys { "name" });
    EXPECT_EQ(keysOf(at("v1", "Node", "status.conditions")), Keys { "type" });
    EXPECT_EQ(at(kV1, "ResourceClaim", "status.reservedFor")->listType, SchemaNode::ListType::Map);
    EXPECT_EQ(at(kV1, "ResourceSlice", "metadata.finalizers")->listType, SchemaNode::ListType::Set);
    EXPECT_EQ(at(kV1, "ResourceSlice", "spec.devices")->listType, SchemaNode::ListType::Atomic);
}

TEST(SchemaTest, TypesAndFormatsOfDraFields)
{
    EXPECT_EQ(at(kV1, "ResourceSlice", "spec.devices.capacity.memory.value")->type, Type::Quantity);
    EXPECT_EQ(
        at(kV1, "ResourceSlice", "spec.sharedCounters.counters.cores.value")->type, Type::Quantity);
    const SchemaNode *generation = at(kV1, "ResourceSlice", "spec.pool.generation");
    EXPECT_EQ(generation->type, Type::Integer);
    EXPECT_EQ(generation->format, "int64");
    EXPECT_EQ(
        at(kV1, "ResourceSlice", "spec.devices.attributes.model.version")->type, Type::String);
    EXPECT_EQ(
        at(kV1, "ResourceSlice", "spec.devices.attributes.model.ints")->items->type, Type::Integer);
    EXPECT_EQ(
        at(kV1, "ResourceClaim", "status.allocation.allocationTimestamp")->format, "date-time");
    EXPECT_TRUE(at(kV1, "DeviceClass", "spec.config.opaque.parameters")->preserveUnknown);
    EXPECT_EQ(at(kV1, "ResourceSlice", "metadata.labels.app")->type, Type::String);
    EXPECT_EQ(at(kV1, "ResourceSlice", "spec.devices.taints.effect")->enumValues,
        (std::vector<std::string> { "None", "NoSchedule", "NoExecute" }));
    const SchemaNode *pool = at(kV1, "ResourceSlice", "spec.pool");
    EXPECT_EQ(
        pool->required, (std::vector<std::string> { "name", "generation", "resourceSliceCount" }));
    EXPECT_EQ(at("v1", "Node", "status.allocatable.cpu")->type, Type::Quantity);
    EXPECT_TRUE(at("v1", "Pod", "spec")->preserveUnknown);
}

TEST(SchemaTest, SchemaAtWalksLikeKubectlExplain)
{
    const SchemaNode *slice = schemaFor(kV1, "ResourceSlice");
    EXPECT_EQ(schemaAt(slice, ""), slice);
    EXPECT_EQ(schemaAt(slice, "spec.devices.name"), schemaAt(slice, "spec.devices[].name"));
    EXPECT_EQ(schemaAt(slice, "spec.devices[3].name"), schemaAt(slice, "spec.devices[*].name"));
    EXPECT_EQ(schemaAt(slice, "spec.devices[]")->type, Type::Object);
    EXPECT_EQ(schemaAt(slice, "spec.devices")->type, Type::Array);
    EXPECT_EQ(schemaAt(slice, "spec.nope"), nullptr);
    EXPECT_EQ(schemaAt(slice, "spec.driver.more"), nullptr);
    EXPECT_EQ(schemaAt(slice, "spec.pool[]"), nullptr);
    EXPECT_EQ(schemaAt(nullptr, "spec"), nullptr);
    EXPECT_EQ(schemaAt(slice, "metadata"), dra::model::objectMetaSchema());
}

TEST(SchemaTest, PropertiesKeepApiOrder)
{
    const SchemaNode *root = schemaFor(kV1, "ResourceClaim");
    ASSERT_GE(root->properties.size(), 5u);
    EXPECT_EQ(root->properties[0].first, "apiVersion");
    EXPECT_EQ(root->properties[1].first, "kind");
    EXPECT_EQ(root->properties[2].first, "metadata");
    EXPECT_EQ(root->properties[3].first, "spec");
    EXPECT_EQ(root->properties[4].first, "status");
}

TEST(SchemaTest, EveryFieldHasADescription)
{
    std::set<const SchemaNode *> seen;
    for (const auto &kind : dra::model::schemaKinds()) {
        EXPECT_FALSE(kind.root->description.empty()) << kind.kind;
        expectDescribed(kind.root, std::string(kind.kind), seen);
    }
}

TEST(SchemaTest, CoversEveryFieldOfTheUpstreamFixtures)
{
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    int checked = 0;
    for (const auto &entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".json")
            continue;
        const nlohmann::json object = nlohmann::json::parse(dra::test::readFile(entry.path()));
        const SchemaNode *root
            = schemaFor(object.value("apiVersion", ""), object.value("kind", ""));
        if (!root)
            continue; // 1.31's v1alpha3 kinds, Status: not served
        SCOPED_TRACE(entry.path().filename().string());
        expectCovered(object, root, object.value("kind", ""));
        ++checked;
    }
    // 5 v1 + 5 v1beta2 + 4 v1beta1 + Node + Pod + v1alpha3 ResourcePoolStatusRequest
    EXPECT_EQ(checked, 17);
}

TEST(SchemaTest, ConcurrentFirstUseSeesOneTable)
{
    std::vector<const SchemaNode *> seen(4);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < seen.size(); ++i)
        threads.emplace_back([&seen, i] { seen[i] = schemaFor(kV1, "ResourceClaim"); });
    for (auto &thread : threads)
        thread.join();
    for (const SchemaNode *node : seen)
        EXPECT_EQ(node, seen.front());
}

// `kubectl explain resourceslice.spec.devices.attributes` lists the list-typed values of
// KEP-5491 beside the scalars, each with what it holds.
TEST(SchemaTest, DeviceAttributesOfferListTypes)
{
    const SchemaNode *v1 = at(kV1, "ResourceSlice", "spec.devices.attributes");
    const SchemaNode *v1beta1 = at(kV1beta1, "ResourceSlice", "spec.devices.basic.attributes");
    for (const SchemaNode *attributes : { v1, v1beta1 }) {
        ASSERT_NE(attributes, nullptr);
        ASSERT_EQ(attributes->type, Type::Map);
        const SchemaNode *value = attributes->values;
        ASSERT_NE(value, nullptr);
        for (const char *field :
            { "int", "bool", "string", "version", "ints", "bools", "strings", "versions" }) {
            const SchemaNode *node = value->property(field);
            ASSERT_NE(node, nullptr) << field;
            EXPECT_FALSE(node->description.empty()) << field;
        }
        EXPECT_EQ(value->property("ints")->type, Type::Array);
        EXPECT_EQ(value->property("ints")->items->type, Type::Integer);
        EXPECT_EQ(value->property("bools")->items->type, Type::Boolean);
        EXPECT_EQ(value->property("versions")->items->type, Type::String);
        EXPECT_NE(value->property("strings")->description.find("48"), std::string::npos);
    }
}
