// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The resource.k8s.io objects in the shape of v1, whatever version they were read in. Only
// fields the console computes with are typed; the raw JSON of the object keeps the rest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/object_meta.h"
#include "core/model/quantity.h"

namespace dra::model {

// A typed device attribute: exactly one of the value fields is meaningful, as `type` says.
struct DeviceAttribute
{
    enum class Type { Int, Bool, String, Version, Ints, Bools, Strings, Versions };
    Type type = Type::String;
    int64_t intValue = 0;
    bool boolValue = false;
    std::string stringValue; // String and Version (semver text)
    std::vector<int64_t> intValues; // Ints
    std::vector<bool> boolValues; // Bools
    std::vector<std::string> stringValues; // Strings and Versions

    // The value as printed in tables: `80`, `true`, `H100`, `1.2.3`, `[a, b]`.
    std::string display() const;
};

// An attribute or capacity name exactly as published: "productName" (the driver's domain is
// implied) or "resource.kubernetes.io/pcieRoot".
using AttributeName = std::string;

struct DeviceCapacity
{
    Quantity value;
    nlohmann::json requestPolicy; // null when absent
};

struct CounterSet
{
    std::string name;
    std::vector<std::pair<std::string, Quantity>> counters;
};

struct DeviceCounterConsumption
{
    std::string counterSet;
    std::vector<std::pair<std::string, Quantity>> counters;
};

struct DeviceTaint
{
    std::string key, value, effect, timeAdded;
};

struct Device
{
    std::string name;
    std::vector<std::pair<AttributeName, DeviceAttribute>> attributes;
    std::vector<std::pair<AttributeName, DeviceCapacity>> capacity;
    std::vector<DeviceCounterConsumption> consumesCounters;
    std::string nodeName; // per-device node selection
    nlohmann::json nodeSelector; // null when absent
    bool allNodes = false;
    std::vector<DeviceTaint> taints;
    bool allowMultipleAllocations = false;
    bool bindsToNode = false;
    std::vector<std::string> bindingConditions;
    std::vector<std::string> bindingFailureConditions;

    // An attribute or capacity by name. With the slice's `driver`, names compare as Kubernetes
    // resolves them: "productName" and "gpu.nvidia.com/productName" are then the same name.
    // Without it, the name must match as published.
    const DeviceAttribute *attribute(std::string_view name, std::string_view driver = {}) const;
    const DeviceCapacity *capacityOf(std::string_view name, std::string_view driver = {}) const;
};

struct ResourcePool
{
    std::string name;
    int64_t generation = 0;
    int64_t resourceSliceCount = 0;
};

struct ResourceSlice
{
    std::string driver;
    ResourcePool pool;
    std::string nodeName;
    nlohmann::json nodeSelector; // null when absent
    bool allNodes = false;
    bool perDeviceNodeSelection = false;
    std::vector<Device> devices;
    std::vector<CounterSet> sharedCounters;
};

struct DeviceSelector
{
    std::string celExpression;
};

struct DeviceClass
{
    std::vector<DeviceSelector> selectors;
    nlohmann::json config; // null when absent
    std::string extendedResourceName;
};

// The common fields of an `exactly` request and a `firstAvailable` subrequest.
struct DeviceRequestSpec
{
    std::string name; // subrequest name; for `exactly`, the request's name
    std::string deviceClassName;
    std::vector<DeviceSelector> selectors;
    std::string allocationMode = "ExactCount"; // ExactCount | All
    int64_t count = 1;
    bool adminAccess = false;
    nlohmann::json tolerations; // null when absent
    nlohmann::json capacity; // capacity requests, null when absent
};

struct DeviceRequest
{
    std::string name;
    std::optional<DeviceRequestSpec> exactly;
    std::vector<DeviceRequestSpec> firstAvailable;
};

struct DeviceConstraint
{
    std::vector<std::string> requests;
    std::string matchAttribute;
    std::string distinctAttribute;
};

struct ResourceClaimSpec
{
    std::vector<DeviceRequest> requests;
    std::vector<DeviceConstraint> constraints;
    nlohmann::json config; // null when absent
};

struct DeviceRequestAllocationResult
{
    std::string request, driver, pool, device;
    bool adminAccess = false;
    std::string shareID;
    nlohmann::json consumedCapacity; // null when absent
};

struct AllocationResult
{
    std::vector<DeviceRequestAllocationResult> results;
    nlohmann::json nodeSelector; // null when absent
    std::string allocationTimestamp;
};

struct ResourceClaimConsumerReference
{
    std::string apiGroup, resource, name, uid;
};

struct ResourceClaim
{
    ResourceClaimSpec spec;
    std::optional<AllocationResult> allocation;
    std::vector<ResourceClaimConsumerReference> reservedFor;
    nlohmann::json devicesStatus; // status.devices, null when absent

    // "allocated,reserved", "pending", with "deleted" appended while being deleted: as
    // kube-apiserver's printer words a claim's state.
    std::string state(bool beingDeleted) const;
};

struct ResourceClaimTemplate
{
    StringPairs claimLabels;
    ResourceClaimSpec spec;
};

struct DeviceTaintSelector
{
    std::string deviceClassName, driver, pool, device;
    std::vector<DeviceSelector> selectors;
};

struct DeviceTaintRule
{
    DeviceTaintSelector selector;
    DeviceTaint taint;
};

} // namespace dra::model
