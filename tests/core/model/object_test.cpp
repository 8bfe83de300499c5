// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/object.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/support/upstream.h"

using namespace dra::model;
using nlohmann::json;

namespace {

json parse(const std::string &text)
{
    return json::parse(text);
}

const char *kSliceV1 = R"({
  "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
  "metadata": {"name": "node-1-gpu", "uid": "u1", "resourceVersion": "7", "generation": 2,
               "creationTimestamp": "2026-11-01T00:00:00Z", "labels": {"a": "b"}},
  "spec": {"driver": "gpu.nvidia.com", "nodeName": "node-1",
           "pool": {"name": "node-1", "generation": 3, "resourceSliceCount": 1},
           "futureSliceField": {"kept": true},
           "devices": [{"name": "gpu-0",
                        "attributes": {"productName": {"string": "NVIDIA H100 80GB HBM3"},
                                       "resource.kubernetes.io/numaNode": {"int": 1},
                                       "driverVersion": {"version": "580.126.20"}},
                        "capacity": {"memory": {"value": "80Gi"}}}]}
})";

} // namespace

TEST(ObjectTest, DecodesV1SliceIntoTypedFields)
{
    const auto object = decodeObject(parse(kSliceV1));
    ASSERT_TRUE(object.has_value()) << object.error().message.toStdString();
    EXPECT_EQ(object->kind, Kind::ResourceSlice);
    EXPECT_EQ(object->meta.name, "node-1-gpu");
    EXPECT_EQ(object->meta.generation, 2);
    const auto *slice = object->as<ResourceSlice>();
    ASSERT_NE(slice, nullptr);
    EXPECT_EQ(slice->driver, "gpu.nvidia.com");
    EXPECT_EQ(slice->pool.generation, 3);
    ASSERT_EQ(slice->devices.size(), 1u);
    const Device &gpu = slice->devices[0];
    EXPECT_EQ(gpu.attribute("productName")->stringValue, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(gpu.attribute("resource.kubernetes.io/numaNode")->intValue, 1);
    EXPECT_EQ(gpu.attribute("driverVersion")->type, DeviceAttribute::Type::Version);
    EXPECT_EQ(gpu.capacityOf("memory")->value.toString(), "80Gi");
    EXPECT_EQ(object->key().display(), "ResourceSlice node-1-gpu");
}

// Kubernetes treats a bare name as the driver's domain: lookups with the driver agree.
TEST(ObjectTest, NamesResolveAgainstTheDriverDomain)
{
    const auto object = decodeObject(parse(kSliceV1));
    ASSERT_TRUE(object.has_value());
    const Device &gpu = object->as<ResourceSlice>()->devices[0];
    EXPECT_EQ(gpu.attribute("gpu.nvidia.com/productName"), nullptr)
        << "without the driver, names match as published";
    EXPECT_EQ(gpu.attribute("gpu.nvidia.com/productName", "gpu.nvidia.com"),
        gpu.attribute("productName"));
    EXPECT_EQ(gpu.attribute("productName", "other.example.com"), gpu.attribute("productName"));
    EXPECT_EQ(gpu.attribute("other.example.com/productName", "gpu.nvidia.com"), nullptr);
    EXPECT_EQ(gpu.attribute("numaNode", "resource.kubernetes.io"),
        gpu.attribute("resource.kubernetes.io/numaNode"));
    EXPECT_EQ(gpu.capacityOf("gpu.nvidia.com/memory", "gpu.nvidia.com"), gpu.capacityOf("memory"));
    EXPECT_NE(gpu.capacityOf("memory"), nullptr);
}

TEST(ObjectTest, EncodesBackExactlyWhatCameInIncludingUnknownFields)
{
    const json input = parse(kSliceV1);
    const auto object = decodeObject(input);
    ASSERT_TRUE(object.has_value());
    const auto encoded = encodeObject(*object);
    ASSERT_TRUE(encoded.has_value());
    EXPECT_EQ(*encoded, input);
    EXPECT_TRUE((*encoded)["spec"]["futureSliceField"]["kept"].get<bool>());
}

TEST(ObjectTest, ErrorsNameTheObjectAndTheField)
{
    json bad = parse(kSliceV1);
    bad["spec"]["devices"][0]["capacity"]["memory"]["value"] = "12QB";
    auto result = decodeObject(bad);
    ASSERT_FALSE(result.has_value());
    EXPECT_TRUE(result.error().message.startsWith(
        QStringLiteral("ResourceSlice node-1-gpu: spec.devices[0].capacity.memory.value: invalid "
                       "quantity \"12QB\"")))
        << result.error().message.toStdString();

    bad = parse(kSliceV1);
    bad["spec"]["pool"]["generation"] = "three";
    result = decodeObject(bad);
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().message,
        QStringLiteral(
            "ResourceSlice node-1-gpu: spec.pool.generation: expected an integer, got string"));
}

TEST(ObjectTest, RejectsObjectsItCannotPlace)
{
    EXPECT_FALSE(decodeObject(
        parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x"}})")));
    EXPECT_FALSE(decodeObject(parse(R"({"kind":"DeviceClass","metadata":{"name":"x"}})")));
    EXPECT_FALSE(decodeObject(
        parse(R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{}})")));
    const auto noNamespace = decodeObject(parse(
        R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c"}})"));
    ASSERT_FALSE(noNamespace);
    EXPECT_EQ(noNamespace.error().message,
        QStringLiteral("ResourceClaim c: metadata.namespace is missing"));
    EXPECT_FALSE(decodeObject(parse(
        R"({"apiVersion":"resource.k8s.io/v9","kind":"DeviceClass","metadata":{"name":"x"}})")));
}

TEST(ObjectTest, ClaimStateReadsLikeKubectl)
{
    const auto claim = decodeObject(parse(R"({
      "apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
      "metadata":{"name":"c","namespace":"ml","deletionTimestamp":"2026-11-01T00:00:00Z"},
      "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.nvidia.com","count":2}}]}},
      "status":{"allocation":{"devices":{"results":[{"request":"gpu","driver":"gpu.nvidia.com","pool":"n1","device":"gpu-0"}]}},
                "reservedFor":[{"resource":"pods","name":"p","uid":"u"}]}})"));
    ASSERT_TRUE(claim.has_value()) << claim.error().message.toStdString();
    const auto *typed = claim->as<ResourceClaim>();
    EXPECT_EQ(typed->state(true), "allocated,reserved,deleted");
    ASSERT_EQ(typed->spec.requests.size(), 1u);
    ASSERT_TRUE(typed->spec.requests[0].exactly.has_value());
    EXPECT_EQ(typed->spec.requests[0].exactly->count, 2);
    EXPECT_EQ(typed->allocation->results[0].device, "gpu-0");
    EXPECT_EQ(ResourceClaim {}.state(false), "pending");
}

// Every fixture of Kubernetes' API test data decodes, and encodes back to the same JSON.
TEST(ObjectTest, EveryUpstreamFixtureDecodesAndRoundTrips)
{
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    int decoded = 0;
    for (const auto &entry : std::filesystem::directory_iterator(dir)) {
        const std::string file = entry.path().filename().string();
        if (entry.path().extension() != ".json")
            continue;
        const bool dra = file.rfind("resource.k8s.io.", 0) == 0;
        const bool core = file == "core.v1.Node.json" || file == "core.v1.Pod.json";
        // v1alpha3 ResourcePoolStatusRequest is a request kind the console does not read.
        if ((!dra && !core) || file.find("ResourcePoolStatusRequest") != std::string::npos)
            continue;
        const json input = json::parse(dra::test::readFile(entry.path()));
        const auto object = decodeObject(input);
        ASSERT_TRUE(object.has_value()) << file << ": " << object.error().message.toStdString();
        const auto encoded = encodeObject(*object);
        ASSERT_TRUE(encoded.has_value()) << file;
        EXPECT_EQ(*encoded, input) << file;
        ++decoded;
    }
    EXPECT_GE(decoded, 17) << "15 resource.k8s.io fixtures, Node and Pod";
}

TEST(KindTest, FindsWhatUsersTypeLikeKubectl)
{
    EXPECT_EQ(findKind("resourceslices")->kind, Kind::ResourceSlice);
    EXPECT_EQ(findKind("ResourceSlice")->kind, Kind::ResourceSlice);
    EXPECT_EQ(findKind("resourceclaim")->kind, Kind::ResourceClaim);
    EXPECT_EQ(findKind("no")->kind, Kind::Node);
    EXPECT_EQ(findKind("po")->kind, Kind::Pod);
    EXPECT_EQ(findKind("deviceclasses.resource.k8s.io")->kind, Kind::DeviceClass);
    EXPECT_EQ(findKind("deviceclasses.apps"), nullptr);
    EXPECT_EQ(findKind("gpus"), nullptr);
    EXPECT_TRUE(findKind("pods")->namespaced);
    EXPECT_FALSE(findKind("deviceclass")->namespaced);
    EXPECT_EQ(kindOf("resource.k8s.io/v1beta1", "ResourceClaimTemplate")->kind,
        Kind::ResourceClaimTemplate);
    EXPECT_EQ(kindOf("v1", "ResourceSlice"), nullptr);
}
