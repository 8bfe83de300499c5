// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Typed fields of resource.k8s.io objects, read from their v1 form.
#include "core/model/decode_resource.h"

#include "core/model/decode_support.h"

namespace dra::model::detail {

namespace {

DeviceAttribute decodeAttribute(const json &value)
{
    DeviceAttribute attribute;
    if (!value.is_object())
        throwAt("", "expected a map, got " + typeName(value));
    int set = 0;
    if (field(value, "int")) {
        attribute.type = DeviceAttribute::Type::Int;
        attribute.intValue = getInt(value, "int");
        ++set;
    }
    if (field(value, "bool")) {
        attribute.type = DeviceAttribute::Type::Bool;
        attribute.boolValue = getBool(value, "bool");
        ++set;
    }
    if (field(value, "string")) {
        attribute.type = DeviceAttribute::Type::String;
        attribute.stringValue = getString(value, "string");
        ++set;
    }
    if (field(value, "version")) {
        attribute.type = DeviceAttribute::Type::Version;
        attribute.stringValue = getString(value, "version");
        ++set;
    }
    if (field(value, "ints")) {
        attribute.type = DeviceAttribute::Type::Ints;
        forEach(value, "ints", [&](const json &item) {
            if (!item.is_number_integer())
                throwAt("", "expected an integer, got " + typeName(item));
            attribute.intValues.push_back(item.get<int64_t>());
        });
        ++set;
    }
    if (field(value, "bools")) {
        attribute.type = DeviceAttribute::Type::Bools;
        forEach(value, "bools", [&](const json &item) {
            if (!item.is_boolean())
                throwAt("", "expected true or false, got " + typeName(item));
            attribute.boolValues.push_back(item.get<bool>());
        });
        ++set;
    }
    if (field(value, "strings")) {
        attribute.type = DeviceAttribute::Type::Strings;
        attribute.stringValues = getStrings(value, "strings");
        ++set;
    }
    if (field(value, "versions")) {
        attribute.type = DeviceAttribute::Type::Versions;
        attribute.stringValues = getStrings(value, "versions");
        ++set;
    }
    // Kubernetes requires exactly one; a newer server may send a type we do not know yet,
    // which is kept in the raw JSON and shown as an empty string rather than rejected.
    (void)set;
    return attribute;
}

std::vector<std::pair<std::string, Quantity>> decodeCounters(const json &object)
{
    std::vector<std::pair<std::string, Quantity>> counters;
    forEachMember(object, "counters", [&](const std::string &name, const json &counter) {
        const json *value = field(counter, "value");
        if (!value)
            throwAt("value", "missing");
        counters.emplace_back(name, toQuantity(*value, "value"));
    });
    return counters;
}

DeviceTaint decodeTaint(const json &taint)
{
    return { getString(taint, "key"), getString(taint, "value"), getString(taint, "effect"),
        getString(taint, "timeAdded") };
}

Device decodeDevice(const json &value)
{
    Device device;
    device.name = getString(value, "name");
    forEachMember(value, "attributes", [&](const std::string &name, const json &attribute) {
        device.attributes.emplace_back(name, decodeAttribute(attribute));
    });
    forEachMember(value, "capacity", [&](const std::string &name, const json &capacity) {
        const json *quantity = field(capacity, "value");
        if (!quantity)
            throwAt("value", "missing");
        device.capacity.emplace_back(name,
            DeviceCapacity { toQuantity(*quantity, "value"), getRaw(capacity, "requestPolicy") });
    });
    forEach(value, "consumesCounters", [&](const json &consumption) {
        device.consumesCounters.push_back(
            { getString(consumption, "counterSet"), decodeCounters(consumption) });
    });
    device.nodeName = getString(value, "nodeName");
    device.nodeSelector = getRaw(value, "nodeSelector");
    device.allNodes = getBool(value, "allNodes");
    forEach(
        value, "taints", [&](const json &taint) { device.taints.push_back(decodeTaint(taint)); });
    device.allowMultipleAllocations = getBool(value, "allowMultipleAllocations");
    device.bindsToNode = getBool(value, "bindsToNode");
    device.bindingConditions = getStrings(value, "bindingConditions");
    device.bindingFailureConditions = getStrings(value, "bindingFailureConditions");
    return device;
}

std::vector<DeviceSelector> decodeSelectors(const json &object)
{
    std::vector<DeviceSelector> selectors;
    forEach(object, "selectors", [&](const json &selector) {
        const json *cel = field(selector, "cel");
        selectors.push_back({ cel ? getString(*cel, "expression") : std::string() });
    });
    return selectors;
}

DeviceRequestSpec decodeRequestSpec(const json &value, std::string name)
{
    DeviceRequestSpec spec;
    spec.name = std::move(name);
    spec.deviceClassName = getString(value, "deviceClassName");
    spec.selectors = decodeSelectors(value);
    if (const std::string mode = getString(value, "allocationMode"); !mode.empty())
        spec.allocationMode = mode;
    spec.count = getInt(value, "count", spec.allocationMode == "ExactCount" ? 1 : 0);
    spec.adminAccess = getBool(value, "adminAccess");
    spec.tolerations = getRaw(value, "tolerations");
    spec.capacity = getRaw(value, "capacity");
    return spec;
}

} // namespace

ResourceSlice decodeResourceSlice(const json &spec)
{
    ResourceSlice slice;
    slice.driver = getString(spec, "driver");
    if (const json *pool = field(spec, "pool")) {
        within("pool", [&] {
            slice.pool.name = getString(*pool, "name");
            slice.pool.generation = getInt(*pool, "generation");
            slice.pool.resourceSliceCount = getInt(*pool, "resourceSliceCount");
        });
    }
    slice.nodeName = getString(spec, "nodeName");
    slice.nodeSelector = getRaw(spec, "nodeSelector");
    slice.allNodes = getBool(spec, "allNodes");
    slice.perDeviceNodeSelection = getBool(spec, "perDeviceNodeSelection");
    if (const json *devices = field(spec, "devices"); devices && devices->is_array())
        slice.devices.reserve(devices->size());
    forEach(spec, "devices",
        [&](const json &device) { slice.devices.push_back(decodeDevice(device)); });
    forEach(spec, "sharedCounters", [&](const json &set) {
        slice.sharedCounters.push_back({ getString(set, "name"), decodeCounters(set) });
    });
    return slice;
}

DeviceClass decodeDeviceClass(const json &spec)
{
    DeviceClass deviceClass;
    deviceClass.selectors = decodeSelectors(spec);
    deviceClass.config = getRaw(spec, "config");
    deviceClass.extendedResourceName = getString(spec, "extendedResourceName");
    return deviceClass;
}

ResourceClaimSpec decodeClaimSpec(const json &spec)
{
    ResourceClaimSpec claim;
    const json *devices = field(spec, "devices");
    if (!devices)
        return claim;
    within("devices", [&] {
        forEach(*devices, "requests", [&](const json &value) {
            DeviceRequest request;
            request.name = getString(value, "name");
            if (const json *exactly = field(value, "exactly"))
                within("exactly",
                    [&] { request.exactly = decodeRequestSpec(*exactly, request.name); });
            forEach(value, "firstAvailable", [&](const json &sub) {
                request.firstAvailable.push_back(decodeRequestSpec(sub, getString(sub, "name")));
            });
            claim.requests.push_back(std::move(request));
        });
        forEach(*devices, "constraints", [&](const json &value) {
            claim.constraints.push_back({ getStrings(value, "requests"),
                getString(value, "matchAttribute"), getString(value, "distinctAttribute") });
        });
        claim.config = getRaw(*devices, "config");
    });
    return claim;
}

ResourceClaim decodeResourceClaim(const json &object)
{
    ResourceClaim claim;
    if (const json *spec = field(object, "spec"))
        within("spec", [&] { claim.spec = decodeClaimSpec(*spec); });
    const json *status = field(object, "status");
    if (!status)
        return claim;
    within("status", [&] {
        if (const json *allocation = field(*status, "allocation")) {
            within("allocation", [&] {
                AllocationResult result;
                if (const json *devices = field(*allocation, "devices")) {
                    within("devices", [&] {
                        forEach(*devices, "results", [&](const json &r) {
                            result.results.push_back({ getString(r, "request"),
                                getString(r, "driver"), getString(r, "pool"),
                                getString(r, "device"), getBool(r, "adminAccess"),
                                getString(r, "shareID"), getRaw(r, "consumedCapacity") });
                        });
                    });
                }
                result.nodeSelector = getRaw(*allocation, "nodeSelector");
                result.allocationTimestamp = getString(*allocation, "allocationTimestamp");
                claim.allocation = std::move(result);
            });
        }
        forEach(*status, "reservedFor", [&](const json &ref) {
            claim.reservedFor.push_back({ getString(ref, "apiGroup"), getString(ref, "resource"),
                getString(ref, "name"), getString(ref, "uid") });
        });
        claim.devicesStatus = getRaw(*status, "devices");
    });
    return claim;
}

ResourceClaimTemplate decodeResourceClaimTemplate(const json &spec)
{
    ResourceClaimTemplate claimTemplate;
    if (const json *metadata = field(spec, "metadata"))
        within("metadata", [&] { claimTemplate.claimLabels = getStringMap(*metadata, "labels"); });
    if (const json *inner = field(spec, "spec"))
        within("spec", [&] { claimTemplate.spec = decodeClaimSpec(*inner); });
    return claimTemplate;
}

DeviceTaintRule decodeDeviceTaintRule(const json &spec)
{
    DeviceTaintRule rule;
    if (const json *selector = field(spec, "deviceSelector")) {
        within("deviceSelector", [&] {
            rule.selector.deviceClassName = getString(*selector, "deviceClassName");
            rule.selector.driver = getString(*selector, "driver");
            rule.selector.pool = getString(*selector, "pool");
            rule.selector.device = getString(*selector, "device");
            rule.selector.selectors = decodeSelectors(*selector);
        });
    }
    if (const json *taint = field(spec, "taint"))
        within("taint", [&] { rule.taint = decodeTaint(*taint); });
    return rule;
}

} // namespace dra::model::detail
