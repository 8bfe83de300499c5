// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/device_rows.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

using namespace dra;

namespace {
model::Object decode(const std::string &text)
{
    auto object = model::decodeObject(nlohmann::json::parse(text));
    EXPECT_TRUE(object.has_value()) << object.error().message.toStdString();
    return *object;
}

std::string slice(const std::string &node)
{
    return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":")"
        + node + R"(-gpu"},"spec":{"driver":"gpu.nvidia.com","nodeName":")" + node
        + R"(","pool":{"name":")" + node + R"(","generation":1,"resourceSliceCount":1},"devices":[
           {"name":"gpu-0","attributes":{"type":{"string":"gpu"},"productName":{"string":"NVIDIA H100"},
             "resource.kubernetes.io/pcieRoot":{"string":"pci0000:15"}},"capacity":{"memory":{"value":"80Gi"}}},
           {"name":"gpu-1","attributes":{"gpu.nvidia.com/type":{"string":"gpu"}},"capacity":{"memory":{"value":"81920Mi"}}}]}})";
}
} // namespace

TEST(DeviceRowsTest, FlattensDevicesAndMarksHolders)
{
    const std::vector<model::Object> slices = { decode(slice("n1")), decode(slice("n2")) };
    const std::vector<model::Object> claims = {
        decode(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
      "metadata":{"name":"train","namespace":"ml"},
      "status":{"allocation":{"devices":{"results":[{"request":"g","driver":"gpu.nvidia.com","pool":"n2","device":"gpu-1"}]}}}})")
    };
    const auto rows = inventory::deviceRows(slices, claims);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0].model, "NVIDIA H100");
    EXPECT_EQ(rows[0].pcieRoot, "pci0000:15");
    EXPECT_EQ(rows[0].memory, "80Gi");
    EXPECT_TRUE(rows[0].heldBy.empty());
    EXPECT_EQ(rows[1].type, "gpu")
        << "a domain-qualified attribute of the driver's own domain is the same attribute";
    EXPECT_EQ(rows[1].memory, "80Gi") << "quantities print canonically";
    EXPECT_EQ(rows[3].heldBy, std::vector<std::string> { "ml/train" });
    EXPECT_EQ(inventory::deviceCells(rows[3]).back(), "ml/train");
    EXPECT_EQ(inventory::deviceCells(rows[2]).back(), "<free>");

    const auto onlyN2 = inventory::deviceRows(slices, claims, "n2");
    ASSERT_EQ(onlyN2.size(), 2u);
    const nlohmann::json json = inventory::deviceJson(onlyN2[0]);
    EXPECT_EQ(json["attributes"]["gpu.nvidia.com/productName"], "NVIDIA H100");
    EXPECT_EQ(json["capacity"]["gpu.nvidia.com/memory"], "80Gi");
}
