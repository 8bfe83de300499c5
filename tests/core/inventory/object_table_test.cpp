// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/object_table.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/inventory/age.h"

using namespace dra;

namespace {
model::Object decodeText(const char *text)
{
    auto object = model::decodeObject(nlohmann::json::parse(text));
    EXPECT_TRUE(object.has_value()) << object.error().message.toStdString();
    return *object;
}
} // namespace

// The default (priority 0) columns are exactly kube-apiserver's, which kubectl users expect.
TEST(ObjectTableTest, DefaultColumnsMatchKubeApiserver)
{
    const auto names = [](model::Kind kind) {
        std::string out;
        for (const auto &column : inventory::tableColumns(kind))
            if (column.priority == 0)
                out += (out.empty() ? "" : " ") + column.name;
        return out;
    };
    EXPECT_EQ(names(model::Kind::DeviceClass), "Name Age");
    EXPECT_EQ(names(model::Kind::ResourceSlice), "Name Node Driver Pool Age");
    EXPECT_EQ(names(model::Kind::ResourceClaim), "Name State Age");
    EXPECT_EQ(names(model::Kind::ResourceClaimTemplate), "Name Age");
}

TEST(ObjectTableTest, RowsHaveOneCellPerColumn)
{
    const int64_t now = inventory::parseTimestamp("2026-11-01T00:42:00Z");
    const model::Object claim
        = decodeText(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
      "metadata":{"name":"c","namespace":"ml","creationTimestamp":"2026-11-01T00:00:00Z"},
      "status":{"allocation":{"devices":{"results":[{"request":"gpu","driver":"d","pool":"node-1","device":"gpu-3"}]},
        "nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]}}}})");
    const auto row = inventory::tableRow(claim, now);
    ASSERT_EQ(row.size(), inventory::tableColumns(model::Kind::ResourceClaim).size());
    EXPECT_EQ(
        row, (std::vector<std::string> { "c", "allocated", "42m", "node-1", "node-1/gpu-3" }));

    const model::Object slice
        = decodeText(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice",
      "metadata":{"name":"s","creationTimestamp":"2026-10-30T00:42:00Z"},
      "spec":{"driver":"gpu.nvidia.com","nodeName":"n1","pool":{"name":"n1","generation":1,"resourceSliceCount":1},
              "devices":[{"name":"gpu-0"},{"name":"gpu-1"}]}})");
    EXPECT_EQ(inventory::tableRow(slice, now),
        (std::vector<std::string> { "s", "n1", "gpu.nvidia.com", "n1", "2d", "2", "1" }));
}
