// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/record_codec.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

using namespace dra;
using nlohmann::json;

namespace {

const json kSlice = json::parse(R"({
  "apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceSlice",
  "metadata": {"name": "n1-gpu", "uid": "u-1", "resourceVersion": "42", "generation": 3,
               "creationTimestamp": "2026-11-01T00:00:00Z"},
  "spec": {"driver": "gpu.nvidia.com", "nodeName": "n1", "pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1},
           "devices": [{"name": "gpu-0", "basic": {
               "attributes": {"productName": {"string": "NVIDIA \"H100\"\u00e9"}, "index": {"int": -3},
                              "mig": {"bool": false}, "driverVersion": {"version": "580.1.0"},
                              "resource.kubernetes.io/numaNode": {"ints": [0, 1]},
                              "tags": {"strings": ["a", "b"]}},
               "capacity": {"memory": {"value": "81920Mi"}}}}]}
})");

} // namespace

TEST(RecordCodecTest, SliceRowsCarryQualifiedV1AttributesAndCanonicalCapacity)
{
    const auto object = model::decodeObject(kSlice);
    ASSERT_TRUE(object.has_value()) << object.error().message.toStdString();
    const model::ObjectRecord record = model::toRecord(*object);
    EXPECT_EQ(record.key, (common::ObjectKey { "resource.k8s.io", "ResourceSlice", "", "n1-gpu" }));
    EXPECT_EQ(record.apiVersion, "resource.k8s.io/v1beta1");
    EXPECT_EQ(record.uid, "u-1");
    EXPECT_EQ(record.resourceVersion, "42");
    EXPECT_EQ(record.generation, 3);
    EXPECT_EQ(json::parse(record.json), kSlice) << "the row keeps the object exactly as received";

    ASSERT_EQ(record.devices.size(), 1u);
    const model::DeviceRow &row = record.devices[0];
    EXPECT_EQ(row.name, "gpu-0");
    EXPECT_EQ(row.node, "n1");
    EXPECT_EQ(row.pool, "n1");
    EXPECT_EQ(json::parse(row.attributesJson), json::parse(R"({
        "gpu.nvidia.com/productName": {"string": "NVIDIA \"H100\"\u00e9"}, "gpu.nvidia.com/index": {"int": -3},
        "gpu.nvidia.com/mig": {"bool": false}, "gpu.nvidia.com/driverVersion": {"version": "580.1.0"},
        "resource.kubernetes.io/numaNode": {"ints": [0, 1]}, "gpu.nvidia.com/tags": {"strings": ["a", "b"]}})"));
    EXPECT_EQ(json::parse(row.capacityJson), json::parse(R"({"gpu.nvidia.com/memory": "80Gi"})"));
}

TEST(RecordCodecTest, RowsDecodeBackToTheSameObject)
{
    const auto object = model::decodeObject(kSlice);
    ASSERT_TRUE(object.has_value());
    const auto back = model::fromRecord(model::toRecord(*object));
    ASSERT_TRUE(back.has_value()) << back.error().message.toStdString();
    EXPECT_EQ(*back->raw, kSlice);
    EXPECT_EQ(back->as<model::ResourceSlice>()->devices[0].capacityOf("memory")->value.toString(),
        "80Gi");

    model::ObjectRecord broken = model::toRecord(*object);
    broken.json = "{not json";
    const auto failed = model::fromRecord(broken);
    ASSERT_FALSE(failed.has_value());
    EXPECT_TRUE(
        failed.error().message.startsWith(QStringLiteral("ResourceSlice n1-gpu: malformed JSON")))
        << failed.error().message.toStdString();
}
