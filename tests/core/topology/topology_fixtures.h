// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/model/object.h"
#include "core/sandbox/presets.h"

namespace dra::test {

// Decodes every item of a List (or one object), failing the test on a bad one.
inline std::vector<model::Object> decodeObjects(const nlohmann::json &list)
{
    std::vector<model::Object> objects;
    const nlohmann::json items
        = list.contains("items") ? list["items"] : nlohmann::json::array({ list });
    for (const nlohmann::json &item : items) {
        Result<model::Object> object = model::decodeObject(item);
        EXPECT_TRUE(object.has_value()) << object.error().message.toStdString();
        if (object)
            objects.push_back(std::move(*object));
    }
    return objects;
}

// The objects of a sandbox preset: slices, claims, nodes and the rest.
inline std::vector<model::Object> demoObjects(const std::string &preset, int nodes = 1)
{
    const Result<nlohmann::json> list = sandbox::generateInventory({ preset, nodes, 1 });
    EXPECT_TRUE(list.has_value());
    return list ? decodeObjects(*list) : std::vector<model::Object> {};
}

// A PCIe node with static MIG devices (memorySlice<i> capacities), a MIG found only by its
// name, an orphan MIG device, and a GPU with the legacy index / pcieBusID attributes.
inline nlohmann::json staticMigSlice()
{
    return nlohmann::json::parse(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice",
      "metadata":{"name":"n1-gpu"},
      "spec":{"driver":"gpu.nvidia.com","nodeName":"n1","pool":{"name":"n1","generation":1,"resourceSliceCount":1},
      "devices":[
        {"name":"gpu-0","attributes":{"type":{"string":"gpu"},"uuid":{"string":"GPU-0"},
          "productName":{"string":"NVIDIA A100-PCIE-40GB"},"resource.kubernetes.io/pcieRoot":{"string":"pci0000:3a"},
          "resource.kubernetes.io/numaNode":{"int":0}},"capacity":{"memory":{"value":"40Gi"}}},
        {"name":"gpu-0-mig-2g10gb-14-2","attributes":{"type":{"string":"mig"},"uuid":{"string":"MIG-1"},
          "parentUUID":{"string":"GPU-0"},"profile":{"string":"2g.10gb"}},
          "capacity":{"memory":{"value":"9856Mi"},"memorySlice2":{"value":"1"},"memorySlice3":{"value":"1"}}},
        {"name":"gpu-0-mig-1g5gb-19-6","attributes":{"gpu.nvidia.com/type":{"string":"mig"},"profile":{"string":"1g.5gb"}},
          "capacity":{"memory":{"value":"4864Mi"},"memorySlice6":{"value":"1"}}},
        {"name":"gpu-1","attributes":{"type":{"string":"gpu"},"uuid":{"string":"GPU-1"},"index":{"int":1},
          "pcieBusID":{"string":"0000:b1:00.0"},"resource.kubernetes.io/pcieRoot":{"string":"pci0000:b0"},
          "resource.kubernetes.io/numaNode":{"ints":[1]}},"capacity":{"memory":{"value":"40Gi"}}},
        {"name":"gpu-9-mig-x","attributes":{"type":{"string":"mig"},"parentUUID":{"string":"GPU-9"},"profile":{"string":"1g.5gb"}}}
      ]}})");
}

} // namespace dra::test
