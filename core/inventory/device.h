// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <compare>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/cel/dra_selector.h"
#include "core/model/quantity.h"
#include "core/model/resource_types.h"

namespace dra::inventory {

// A device as Kubernetes names it in allocation results: driver, pool and device name.
struct DeviceKey
{
    std::string driver, pool, device;

    auto operator<=>(const DeviceKey &) const = default;
    bool operator==(const DeviceKey &) const = default;
    // "gpu.nvidia.com/h100-000/gpu-3", for messages.
    std::string display() const;
};

// One device of the inventory, as its ResourceSlice publishes it. Immutable and shared
// between snapshots; safe to read from any thread.
struct Device
{
    DeviceKey key;
    std::string node; // the node of a node-local device; empty for network-attached devices
    std::string slice; // the ResourceSlice that publishes it
    // Attributes and capacities under their domain-qualified names, ready for CEL selectors
    // (view.driver is key.driver; view.allowMultipleAllocations is the device's flag).
    // List-typed attributes are not part of it.
    cel::DeviceView view;
    std::vector<model::DeviceCounterConsumption> consumesCounters; // counter names as published
    std::vector<model::DeviceTaint> taints; // as published
    // Where a network-attached device can be used: the slice's (or with per-device node
    // selection, the device's) nodeSelector or allNodes.
    nlohmann::json nodeSelector; // null when absent
    bool allNodes = false;
    bool bindsToNode = false;
    std::vector<std::string> bindingConditions, bindingFailureConditions;

    // An attribute by name; "productName" resolves to the driver's domain, as in Kubernetes.
    const cel::DeviceAttributeValue *attribute(std::string_view name) const;
    // The attribute as printed in tables ("80", "true", "H100", "1.2.3", "[a, b]"); "" when
    // absent.
    std::string attributeText(std::string_view name) const;
    // A capacity by name, with the same domain rule.
    const model::Quantity *capacity(std::string_view name) const;

    // The driver's `type` attribute ("gpu", "mig", "vfio", ...), "" when absent.
    std::string type() const { return attributeText("type"); }
    // The driver's `productName` attribute, "" when absent.
    std::string productName() const { return attributeText("productName"); }
    // The `profile` attribute of a partition ("1g.10gb"); "" for a whole device.
    std::string profile() const { return attributeText("profile"); }
    // A partition of a larger device: it publishes a `profile`, or its type is "mig".
    bool isPartition() const;

    bool operator==(const Device &other) const;
};

} // namespace dra::inventory

template <> struct std::hash<dra::inventory::DeviceKey>
{
    size_t operator()(const dra::inventory::DeviceKey &key) const noexcept;
};
