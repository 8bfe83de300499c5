// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The resource.k8s.io kinds. v1beta2 has the same shape as v1 and shares its nodes; v1beta1
// differs only in the ResourceSlice device (fields wrapped in `basic`) and in the claim's
// requests (the exact request's fields sit directly on the request).
#include "core/model/schema_builder.h"

namespace dra::model::schema_detail {

namespace {

// Nodes used by more than one resource.k8s.io kind or version.
struct Shared
{
    const SchemaNode *deviceSelector = nullptr;
    const SchemaNode *toleration = nullptr;
    const SchemaNode *taint = nullptr;
    const SchemaNode *capacityRequirements = nullptr;
    const SchemaNode *derivedAttribute = nullptr;
    const SchemaNode *opaque = nullptr;
    const SchemaNode *counters = nullptr;
};

Shared buildShared(SchemaBuilder &b)
{
    Shared s;
    const SchemaNode *cel = b.object("A CEL expression selecting devices.",
        { { "expression",
            b.string("CEL expression over `device` that is true for devices to pick.") } },
        { "expression" });
    s.deviceSelector = b.object("One criterion a device must meet.",
        { { "cel", b.field(cel, "Select by a CEL expression.") } });
    const SchemaNode *effect
        = b.enumeration("Effect of a device taint.", { "None", "NoSchedule", "NoExecute" });
    s.toleration = b.object("A device taint the request accepts.",
        { { "key", b.string("Taint key tolerated; empty (with Exists) tolerates all keys.") },
            { "operator", b.enumeration("Exists or Equal (default).", { "Exists", "Equal" }) },
            { "value", b.string("Taint value tolerated with Equal.") },
            { "effect", b.field(effect, "Taint effect tolerated; empty for all effects.") },
            { "tolerationSeconds",
                b.int64("How long a NoExecute taint is tolerated before eviction.") } });
    s.taint = b.object("A taint on a device that claims must tolerate to use it.",
        { { "key", b.string("Taint key, a label name.") },
            { "value", b.string("Taint value, a label value.") },
            { "effect", b.field(effect, "What happens to claims that do not tolerate the taint.") },
            { "timeAdded", b.time("When the taint was added or its effect last changed.") } },
        { "key", "effect" });
    s.capacityRequirements = b.object("How much of each device capacity the request consumes.",
        { { "requests",
            b.map("Minimum amount per capacity name, consumed on shareable devices.",
                b.quantity({})) } });
    s.derivedAttribute
        = b.object("A virtual attribute computed per device by CEL, usable in constraints.",
            { { "name", b.string("Fully qualified attribute name, e.g. derived/numaNode.") },
                { "expression", b.string("CEL expression computing the attribute's value.") } },
            { "name", "expression" });
    s.opaque = b.object("Driver-specific configuration the driver itself validates.",
        { { "driver", b.string("Driver whose kubelet plugin receives these parameters.") },
            { "parameters", b.any("Free-form parameters, usually a versioned driver object.") } },
        { "driver", "parameters" });
    s.counters = b.map("Counters by name.",
        b.object("An amount of a counter.", { { "value", b.quantity("How much of the counter.") } },
            { "value" }));
    return s;
}

// Fields of an exact request (v1 `exactly`, v1beta1 the request itself), after `name`.
std::vector<Field> exactRequestFields(SchemaBuilder &b, const Shared &s, bool withAdminAccess)
{
    std::vector<Field> fields {
        { "deviceClassName",
            b.string("DeviceClass whose selectors and config the request inherits.") },
        { "selectors", b.list("Criteria every chosen device must meet.", s.deviceSelector) },
        { "allocationMode",
            b.enumeration(
                "ExactCount (default) or All matching devices.", { "ExactCount", "All" }) },
        { "count", b.int64("Number of devices with ExactCount; defaults to one.") },
    };
    if (withAdminAccess)
        fields.push_back({ "adminAccess",
            b.boolean("Request administrative access that ignores "
                      "other allocations of the device.") });
    fields.push_back(
        { "tolerations", b.list("Device taints this request tolerates.", s.toleration) });
    fields.push_back({ "capacity",
        b.field(s.capacityRequirements, "Capacity consumed from each shareable device.") });
    fields.push_back({ "derivedAttributes",
        b.list("Per-device attributes computed by CEL for "
               "use in constraints.",
            s.derivedAttribute) });
    return fields;
}

const SchemaNode *subRequest(SchemaBuilder &b, const Shared &s)
{
    std::vector<Field> fields { { "name",
        b.string("Name of the alternative, referenced as "
                 "<request>/<subrequest>.") } };
    for (Field &f : exactRequestFields(b, s, false))
        fields.push_back(std::move(f));
    return b.object("One alternative of a prioritized request.", std::move(fields),
        { "name", "deviceClassName" });
}

const SchemaNode *claimSpec(SchemaBuilder &b, const Shared &s, const SchemaNode *request)
{
    const SchemaNode *constraint
        = b.object("A condition the devices of some requests must meet together.",
            { { "requests", b.stringList("Requests it applies to; empty for all.") },
                { "matchAttribute",
                    b.string("Attribute whose value must be equal on all those devices.") },
                { "distinctAttribute",
                    b.string("Attribute whose value must differ on all those devices.") } });
    const SchemaNode *config = b.object("Configuration for the devices of some requests.",
        { { "requests", b.stringList("Requests it applies to; empty for all.") },
            { "opaque", b.field(s.opaque, "Driver-specific parameters.") } });
    const SchemaNode *deviceClaim = b.object("The devices a claim asks for.",
        { { "requests", b.list("Requests that must all be satisfied.", request) },
            { "constraints", b.list("Conditions across the allocated devices.", constraint) },
            { "config", b.list("Configuration handed to the drivers.", config) } });
    return b.object("What a claim requests.",
        { { "devices", b.field(deviceClaim, "How to request devices.") } });
}

const SchemaNode *claimStatus(SchemaBuilder &b, const CommonNodes &c, const Shared &s)
{
    const SchemaNode *result = b.object("One allocated device and the request it serves.",
        { { "request",
              b.string("Request (or <request>/<subrequest>) the device was allocated for.") },
            { "driver", b.string("Driver of the device.") },
            { "pool", b.string("Pool of the device.") },
            { "device", b.string("Name of the device in its pool.") },
            { "adminAccess",
                b.boolean("Whether the device was allocated for administrative access.") },
            { "tolerations",
                b.list("Tolerations of the request when it was allocated.", s.toleration) },
            { "bindingConditions",
                b.stringList("Device conditions that must be True before binding.") },
            { "bindingFailureConditions",
                b.stringList("Device conditions that mean binding failed.") },
            { "shareID", b.string("Identifies this share of a device allocated more than once.") },
            { "consumedCapacity",
                b.map("Capacity this allocation consumes from the device.", b.quantity({})) },
            { "skipNodeOperations",
                b.set("Node operations skipped for this device.", b.string({})) } },
        { "request", "driver", "pool", "device" });
    const SchemaNode *allocConfig
        = b.object("Configuration passed to the drivers with the allocation.",
            { { "source",
                  b.enumeration("Whether it came from the class or the claim.",
                      { "FromClass", "FromClaim" }) },
                { "requests", b.stringList("Requests it applies to; empty for all.") },
                { "opaque", b.field(s.opaque, "Driver-specific parameters.") } },
            { "source" });
    const SchemaNode *allocation = b.object("The outcome of allocating the claim.",
        { { "devices",
              b.object("Allocated devices and their configuration.",
                  { { "results", b.list("One entry per allocated device.", result) },
                      { "config", b.list("Class and claim configuration.", allocConfig) } }) },
            { "nodeSelector",
                b.field(c.nodeSelector, "Nodes where the allocated devices are usable.") },
            { "allocationTimestamp", b.time("When the devices were allocated.") } });
    const SchemaNode *consumer = b.object("An object allowed to use the claim.",
        { { "apiGroup", b.string("API group of the consumer; empty for core.") },
            { "resource", b.string("Resource type of the consumer, e.g. pods.") },
            { "name", b.string("Name of the consumer.") },
            { "uid", b.string("UID of the consumer.") } },
        { "resource", "name", "uid" });
    const SchemaNode *deviceStatus = b.object("What a driver reports about one allocated device.",
        { { "driver", b.string("Driver of the device.") },
            { "pool", b.string("Pool of the device.") },
            { "device", b.string("Name of the device in its pool.") },
            { "shareID", b.string("Share of the device this entry is about.") },
            { "conditions",
                b.mapList("Conditions of the device, e.g. Ready.", c.condition, { "type" }) },
            { "data", b.any("Driver-specific data.") },
            { "networkData",
                b.object("Network details of the device.",
                    { { "interfaceName", b.string("Network interface of the device in the pod.") },
                        { "ips", b.stringList("Addresses in CIDR notation.") },
                        { "hardwareAddress", b.string("Hardware (MAC) address.") } }) } },
        { "driver", "pool", "device" });
    return b.object("Whether and how the claim is allocated and who uses it.",
        { { "allocation", allocation },
            { "reservedFor",
                b.mapList(
                    "Consumers (at most 256) allowed to use the claim.", consumer, { "uid" }) },
            { "devices",
                b.mapList("Per-device status reported by drivers.", deviceStatus,
                    { "driver", "device", "pool", "shareID" }) } });
}

// Fields of a ResourceSlice device after `name` (v1 inline, v1beta1 under `basic`).
std::vector<Field> deviceBodyFields(SchemaBuilder &b, const CommonNodes &c, const Shared &s)
{
    const SchemaNode *attribute = b.object("A typed attribute value; exactly one field is set.",
        { { "int", b.int64("An integer.") }, { "bool", b.boolean("A boolean.") },
            { "string", b.string("A string of at most 64 characters.") },
            { "version", b.string("A semantic version (semver 2.0.0).") },
            { "ints",
                b.list("A list of integers (DRAListTypeAttributes). Each element counts "
                       "toward the device's limit of 48 attribute values.",
                    b.int64({})) },
            { "bools",
                b.list("A list of booleans (DRAListTypeAttributes). Each element counts "
                       "toward the device's limit of 48 attribute values.",
                    b.boolean({})) },
            { "strings",
                b.stringList("A list of strings of at most 64 characters each "
                             "(DRAListTypeAttributes). Each element counts toward the "
                             "device's limit of 48 attribute values.") },
            { "versions",
                b.stringList("A list of semantic versions (semver 2.0.0) "
                             "(DRAListTypeAttributes). Each element counts toward the "
                             "device's limit of 48 attribute values.") } });
    const SchemaNode *policy = b.object("Which amounts of a capacity one allocation may consume.",
        { { "default", b.quantity("Amount consumed when a request names no amount.") },
            { "validValues", b.list("Allowed amounts, ascending.", b.quantity({})) },
            { "validRange",
                b.object("Allowed range of amounts.",
                    { { "min", b.quantity("Smallest amount.") },
                        { "max", b.quantity("Largest amount.") },
                        { "step", b.quantity("Granularity above min.") } },
                    { "min" }) } });
    const SchemaNode *capacity = b.object("A capacity of the device.",
        { { "value", b.quantity("Total amount the device has.") },
            { "requestPolicy", b.field(policy, "Consumption rules for shared allocations.") } },
        { "value" });
    const SchemaNode *consumption
        = b.object("Counters the device uses up from a shared counter set.",
            { { "counterSet", b.string("Name of the counter set.") },
                { "counters", b.field(s.counters, "Amount consumed per counter.") },
                { "compatibilityGroups",
                    b.stringList("Groups that allow co-allocation with siblings.") } },
            { "counterSet", "counters" });
    const SchemaNode *nodeResource = b.object(
        "How allocating the device accounts for a node resource such as cpu or memory.",
        { { "mapping",
              b.object("The device itself provides the node resource.",
                  { { "capacityKey", b.string("Capacity whose consumed amount is the base.") },
                      { "capacityMultiplier", b.quantity("Factor applied to that capacity.") },
                      { "deviceMultiplier",
                          b.quantity("Node resource per allocated device.") } }) },
            { "overhead",
                b.object("Extra node resources used alongside the device.",
                    { { "perPod", b.quantity("Once per pod using the claim.") },
                        { "perContainer", b.quantity("Per container using the claim.") } }) } });
    return {
        { "attributes", b.map("Attributes by qualified name.", attribute) },
        { "capacity", b.map("Capacities by qualified name.", capacity) },
        { "consumesCounters", b.list("Shared counters the device consumes.", consumption) },
        { "nodeName", b.string("Node of the device, with perDeviceNodeSelection.") },
        { "nodeSelector",
            b.field(c.nodeSelector, "Nodes of the device, with perDeviceNodeSelection.") },
        { "allNodes", b.boolean("Available on all nodes, with perDeviceNodeSelection.") },
        { "taints", b.list("Taints set by the driver.", s.taint) },
        { "bindsToNode", b.boolean("Use of an allocation is limited to the node chosen then.") },
        { "bindingConditions",
            b.stringList("Device conditions that must be True before binding.") },
        { "bindingFailureConditions", b.stringList("Device conditions that mean binding failed.") },
        { "allowMultipleAllocations", b.boolean("Whether several claims may share the device.") },
        { "nodeAllocatableResources",
            b.map("Node resources accounted for when the device is allocated.", nodeResource) },
    };
}

const SchemaNode *sliceSpec(
    SchemaBuilder &b, const CommonNodes &c, const Shared &s, const SchemaNode *device)
{
    const SchemaNode *pool = b.object("The pool the slice belongs to.",
        { { "name", b.string("Name of the pool, often the node name.") },
            { "generation", b.int64("Pool generation; only slices of the newest one count.") },
            { "resourceSliceCount", b.int64("Number of slices of the pool at this generation.") } },
        { "name", "generation", "resourceSliceCount" });
    const SchemaNode *counterSet = b.object("A named set of counters that devices draw from.",
        { { "name", b.string("Name of the counter set, a DNS label.") },
            { "counters", b.field(s.counters, "Available amount per counter.") } },
        { "name", "counters" });
    return b.object("What a driver publishes in one slice.",
        { { "driver", b.string("DRA driver publishing the devices.") }, { "pool", pool },
            { "nodeName", b.string("Node providing the devices.") },
            { "nodeSelector", b.field(c.nodeSelector, "Nodes with access to the pool.") },
            { "allNodes", b.boolean("Whether all nodes have access to the pool.") },
            { "devices", b.list("Devices of the pool in this slice (at most 128).", device) },
            { "perDeviceNodeSelection",
                b.boolean("Whether each device sets its own node access.") },
            { "sharedCounters",
                b.list("Counter sets the devices of the pool consume.", counterSet) },
            { "partitionTypeAttribute",
                b.string("String attribute naming each device's partition type.") },
            { "skipNodeOperations",
                b.set("Node operations skipped for the devices of this slice.", b.string({})) } },
        { "driver", "pool" });
}

} // namespace

void addResourceKinds(SchemaBuilder &b, const CommonNodes &c, KindSink &sink)
{
    const Shared s = buildShared(b);

    // DeviceClass: the same in every version.
    const SchemaNode *classConfig = b.object("Configuration for devices claimed through the class.",
        { { "opaque", b.field(s.opaque, "Driver-specific parameters.") } });
    const SchemaNode *deviceClass = kindRoot(b, c,
        "Selectors and configuration that claims reference by name.",
        { { "spec",
            b.object("What devices the class admits and how to configure them.",
                { { "selectors",
                      b.list("Criteria every device of the class meets.", s.deviceSelector) },
                    { "config",
                        b.list("Configuration for each device claimed this way.", classConfig) },
                    { "extendedResourceName",
                        b.string(
                            "Extended resource name pods may request for this class.") } }) } });

    // ResourceClaim and its template.
    std::vector<Field> exact = exactRequestFields(b, s, true);
    const SchemaNode *exactRequest
        = b.object("A request for one or more identical devices.", exact, { "deviceClassName" });
    const SchemaNode *subRequests
        = b.list("Alternatives tried in order; one is chosen.", subRequest(b, s));
    const SchemaNode *requestV1 = b.object("A request for devices.",
        { { "name", b.string("Name of the request, referenced by pods and constraints.") },
            { "exactly", b.field(exactRequest, "A request that must be met exactly.") },
            { "firstAvailable", subRequests } },
        { "name" });
    std::vector<Field> flatFields { { "name",
        b.string("Name of the request, referenced by pods "
                 "and constraints.") } };
    flatFields.insert(flatFields.end(), exact.begin(), exact.end());
    flatFields.push_back({ "firstAvailable", subRequests });
    const SchemaNode *requestV1beta1 = b.object("A request for devices.", flatFields, { "name" });

    const SchemaNode *status = claimStatus(b, c, s);
    auto claimKinds = [&](const SchemaNode *request) {
        const SchemaNode *spec = claimSpec(b, s, request);
        const SchemaNode *claim = kindRoot(b, c, "A request for devices, and their allocation.",
            { { "spec", b.field(spec, "What is requested; immutable.") }, { "status", status } });
        const SchemaNode *templ = kindRoot(b, c, "A pattern for ResourceClaims generated per pod.",
            { { "spec",
                b.object("The claim to generate.",
                    { { "metadata",
                          b.field(c.objectMeta,
                              "Labels and annotations "
                              "copied to the claim.") },
                        { "spec", b.field(spec, "Spec copied to the claim.") } }) } });
        return std::pair { claim, templ };
    };
    const auto [claimV1, templateV1] = claimKinds(requestV1);
    const auto [claimV1beta1, templateV1beta1] = claimKinds(requestV1beta1);

    // ResourceSlice.
    std::vector<Field> body = deviceBodyFields(b, c, s);
    std::vector<Field> v1Device { { "name", b.string("Name of the device, unique in the pool.") } };
    v1Device.insert(v1Device.end(), body.begin(), body.end());
    const SchemaNode *deviceV1 = b.object(
        "One device with its attributes and capacities.", std::move(v1Device), { "name" });
    const SchemaNode *deviceV1beta1 = b.object("One device; its details sit under `basic`.",
        { { "name", b.string("Name of the device, unique in the pool.") },
            { "basic", b.object("Attributes, capacities and node access of the device.", body) } },
        { "name" });
    auto slice = [&](const SchemaNode *device) {
        return kindRoot(b, c, "Devices a driver publishes for one pool, or a part of it.",
            { { "spec", sliceSpec(b, c, s, device) } }, { "spec" });
    };
    const SchemaNode *sliceV1 = slice(deviceV1);
    const SchemaNode *sliceV1beta1 = slice(deviceV1beta1);

    // DeviceTaintRule (v1 and v1beta2 only).
    const SchemaNode *taintRule
        = kindRoot(b, c, "A taint applied to every device matching a selector.",
            { { "spec",
                  b.object("Which devices get which taint.",
                      { { "deviceSelector",
                            b.object("Devices the taint applies to; every set field must match.",
                                { { "driver", b.string("Only devices of this driver.") },
                                    { "pool", b.string("Only devices of this pool.") },
                                    { "device", b.string("Only devices of this name.") } }) },
                          { "taint", b.field(s.taint, "The taint to apply.") } },
                      { "taint" }) },
                { "status",
                    b.object("Progress of evictions caused by the rule.",
                        { { "conditions",
                            b.mapList("Conditions such as EvictionInProgress.", c.condition,
                                { "type" }) } }) } },
            { "spec" });

    for (const char *version : { "resource.k8s.io/v1", "resource.k8s.io/v1beta2" }) {
        sink.addKind(version, "DeviceClass", false, deviceClass);
        sink.addKind(version, "ResourceSlice", false, sliceV1);
        sink.addKind(version, "ResourceClaim", true, claimV1);
        sink.addKind(version, "ResourceClaimTemplate", true, templateV1);
        sink.addKind(version, "DeviceTaintRule", false, taintRule);
    }
    sink.addKind("resource.k8s.io/v1beta1", "DeviceClass", false, deviceClass);
    sink.addKind("resource.k8s.io/v1beta1", "ResourceSlice", false, sliceV1beta1);
    sink.addKind("resource.k8s.io/v1beta1", "ResourceClaim", true, claimV1beta1);
    sink.addKind("resource.k8s.io/v1beta1", "ResourceClaimTemplate", true, templateV1beta1);
}

} // namespace dra::model::schema_detail
