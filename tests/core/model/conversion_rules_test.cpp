// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// One small hand-written object per conversion rule, including where Kubernetes' conversion is
// not lossless and the errors that name a field the target cannot hold.
#include "core/model/conversion.h"
#include "tests/support/resource_versions.h"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using dra::model::convertResourceObject;
using dra::model::isKnownResourceVersion;
using dra::test::kV1;
using dra::test::kV1alpha3;
using dra::test::kV1beta1;
using dra::test::kV1beta2;
using dra::test::messageOf;
using nlohmann::json;

json convertOk(const json &object, std::string_view target)
{
    const dra::Result<json> converted = convertResourceObject(object, target);
    EXPECT_TRUE(converted.has_value()) << messageOf(converted);
    return converted.value_or(json());
}

json slice(std::string_view apiVersion, json spec)
{
    return { { "apiVersion", apiVersion }, { "kind", "ResourceSlice" },
        { "metadata", { { "name", "gpu-node-1" } } }, { "spec", std::move(spec) } };
}

json claim(std::string_view apiVersion, json requests)
{
    return { { "apiVersion", apiVersion }, { "kind", "ResourceClaim" },
        { "metadata", { { "name", "train-0" }, { "namespace", "team-a" } } },
        { "spec", { { "devices", { { "requests", std::move(requests) } } } } } };
}

const json &firstRequest(const json &claimObject)
{
    return claimObject.at("spec").at("devices").at("requests").at(0);
}

TEST(ConversionRulesTest, KnownVersions)
{
    for (const char *version : { "v1", "v1beta2", "v1beta1", "v1alpha3" })
        EXPECT_TRUE(isKnownResourceVersion(version)) << version;
    for (const char *version : { "", "v1alpha2", "v1alpha1", "v2", "resource.k8s.io/v1", "V1" })
        EXPECT_FALSE(isKnownResourceVersion(version)) << version;
}

TEST(ConversionRulesTest, OwnVersionIsUnchanged)
{
    // Even fields nobody knows come back untouched when no conversion is needed.
    const json object = slice(kV1beta1,
        { { "driver", "gpu.example.com" },
            { "devices", { { { "name", "gpu-0" }, { "someday", 1 } } } } });
    EXPECT_EQ(convertOk(object, kV1beta1), object);
}

TEST(ConversionRulesTest, BasicDeviceUnwrappedAndWrappedAgain)
{
    const json beta1 = slice(kV1beta1, json::parse(R"({
        "driver": "gpu.example.com", "pool": {"name": "node-1", "generation": 1, "resourceSliceCount": 1},
        "nodeName": "node-1",
        "devices": [{"name": "gpu-0", "basic": {
            "attributes": {"model": {"string": "H100"}},
            "capacity": {"memory": {"value": "80Gi"}},
            "taints": [{"key": "maintenance", "effect": "NoSchedule"}]}}]})"));
    const json v1 = convertOk(beta1, kV1);
    EXPECT_EQ(v1.at("apiVersion"), kV1);
    EXPECT_EQ(v1.at("spec").at("devices").at(0), json::parse(R"({"name": "gpu-0",
        "attributes": {"model": {"string": "H100"}}, "capacity": {"memory": {"value": "80Gi"}},
        "taints": [{"key": "maintenance", "effect": "NoSchedule"}]})"));
    EXPECT_EQ(convertOk(v1, kV1beta1), beta1);
    // v1beta2 has v1's flat devices: nothing but apiVersion changes.
    json beta2 = v1;
    beta2["apiVersion"] = kV1beta2;
    EXPECT_EQ(convertOk(v1, kV1beta2), beta2);
}

TEST(ConversionRulesTest, V1DeviceWithoutPropertiesGetsEmptyBasic)
{
    // Kubernetes always writes `basic`; a v1beta1 device without it therefore gains `basic: {}`
    // on a round trip (such a device is invalid in v1beta1 anyway).
    const json v1 = slice(kV1, { { "driver", "d" }, { "devices", { { { "name", "gpu-0" } } } } });
    const json beta1 = convertOk(v1, kV1beta1);
    EXPECT_EQ(
        beta1.at("spec").at("devices").at(0), json::parse(R"({"name": "gpu-0", "basic": {}})"));
    EXPECT_EQ(convertOk(beta1, kV1), v1);
}

TEST(ConversionRulesTest, FutureDeviceFieldsTravelThroughBasic)
{
    // A v1beta1 device is its name plus `basic`, so an unknown device field has one place there.
    const json v1 = slice(kV1,
        { { "driver", "d" },
            { "devices", { { { "name", "gpu-0" }, { "futureField", { { "x", 1 } } } } } } });
    const json beta1 = convertOk(v1, kV1beta1);
    EXPECT_EQ(
        beta1.at("spec").at("devices").at(0).at("basic").at("futureField"), json({ { "x", 1 } }));
    EXPECT_EQ(convertOk(beta1, kV1), v1);
}

TEST(ConversionRulesTest, DeviceTypeOtherThanBasicIsAnError)
{
    const json beta1 = slice(kV1beta1,
        { { "driver", "d" },
            { "devices",
                { { { "name", "gpu-0" }, { "basic", json::object() } },
                    { { "name", "gpu-1" }, { "composite", json::object() } } } } });
    const dra::Result<json> v1 = convertResourceObject(beta1, kV1);
    ASSERT_FALSE(v1.has_value());
    EXPECT_EQ(v1.error().code, dra::common::Error::Code::Unsupported);
    EXPECT_EQ(messageOf(v1),
        "ResourceSlice gpu-node-1: spec.devices[1].composite cannot be expressed "
        "in resource.k8s.io/v1 (v1 knows only basic devices)");
}

TEST(ConversionRulesTest, SliceLevelZeroValuesFollowKubernetes)
{
    // Slice-level nodeName/allNodes are pointers in v1 and omitempty values in v1beta1: the zero
    // value means "unset" both ways, so an explicit allNodes: false does not survive v1beta1.
    const json v1 = slice(kV1,
        { { "driver", "d" }, { "nodeSelector", { { "nodeSelectorTerms", json::array() } } },
            { "allNodes", false } });
    const json beta1 = convertOk(v1, kV1beta1);
    EXPECT_FALSE(beta1.at("spec").contains("allNodes"));
    json expected = v1;
    expected["spec"].erase("allNodes");
    EXPECT_EQ(convertOk(beta1, kV1), expected);
    // Device-level node fields are pointers in both versions and kept as they are.
    const json device = slice(
        kV1, { { "driver", "d" }, { "devices", { { { "name", "a" }, { "allNodes", false } } } } });
    EXPECT_EQ(convertOk(convertOk(device, kV1beta1), kV1), device);
}

TEST(ConversionRulesTest, FlatRequestBecomesExactly)
{
    const json beta1
        = claim(kV1beta1, json::parse(R"([{"name": "gpu", "deviceClassName": "gpu.example.com",
        "selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}],
        "allocationMode": "ExactCount", "count": 2, "adminAccess": false,
        "tolerations": [{"key": "maintenance", "operator": "Exists"}]}])"));
    const json v1 = convertOk(beta1, kV1);
    EXPECT_EQ(firstRequest(v1),
        json::parse(R"({"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com",
        "selectors": [{"cel": {"expression": "device.driver == 'gpu.example.com'"}}],
        "allocationMode": "ExactCount", "count": 2, "adminAccess": false,
        "tolerations": [{"key": "maintenance", "operator": "Exists"}]}})"));
    EXPECT_EQ(convertOk(v1, kV1beta1), beta1);
}

TEST(ConversionRulesTest, FirstAvailableKeptAndClassWrittenEmpty)
{
    const json beta1 = claim(kV1beta1, json::parse(R"([{"name": "gpu", "deviceClassName": "",
        "firstAvailable": [{"name": "big", "deviceClassName": "h100"}, {"name": "small", "deviceClassName": "a10", "count": 2}]}])"));
    const json v1 = convertOk(beta1, kV1);
    // deviceClassName "" is the zero value: not an exact request.
    EXPECT_EQ(firstRequest(v1), json::parse(R"({"name": "gpu",
        "firstAvailable": [{"name": "big", "deviceClassName": "h100"}, {"name": "small", "deviceClassName": "a10", "count": 2}]})"));
    // The API server always writes v1beta1's deviceClassName (no omitempty), and so do we.
    EXPECT_EQ(convertOk(v1, kV1beta1), beta1);
}

TEST(ConversionRulesTest, ExactlyImpliedOnlyByNonZeroFields)
{
    // adminAccess is a pointer in Go: false is set, so the request is exact.
    const json adminOnly = claim(kV1beta1, { { { "name", "r" }, { "adminAccess", false } } });
    EXPECT_EQ(firstRequest(convertOk(adminOnly, kV1)),
        json::parse(R"({"name": "r", "exactly": {"adminAccess": false}})"));
    // Zero count and empty mode are unset: nothing says "exact", as Kubernetes reads it.
    const json zeros
        = claim(kV1beta1, { { { "name", "r" }, { "count", 0 }, { "allocationMode", "" } } });
    EXPECT_EQ(firstRequest(convertOk(zeros, kV1)), json({ { "name", "r" } }));
    // Once exact, zero-valued fields travel along and come back.
    const json mixed
        = claim(kV1beta1, { { { "name", "r" }, { "deviceClassName", "gpu" }, { "count", 0 } } });
    EXPECT_EQ(convertOk(convertOk(mixed, kV1), kV1beta1), mixed);
}

TEST(ConversionRulesTest, EmptyExactlyCannotBeExpressedInV1beta1)
{
    // v1beta1 says "exact" only through a non-zero field, so Kubernetes would lose this `exactly`.
    const json v1
        = claim(kV1, { { { "name", "gpu" }, { "exactly", { { "deviceClassName", "" } } } } });
    const dra::Result<json> beta1 = convertResourceObject(v1, kV1beta1);
    ASSERT_FALSE(beta1.has_value());
    EXPECT_EQ(messageOf(beta1),
        "ResourceClaim team-a/train-0: spec.devices.requests[0].exactly cannot be "
        "expressed in resource.k8s.io/v1beta1 (an exact request without any "
        "field set)");
}

TEST(ConversionRulesTest, FutureRequestFields)
{
    // Flat v1beta1 fields beyond name and firstAvailable are exact-request fields...
    const json beta1 = claim(
        kV1beta1, { { { "name", "r" }, { "deviceClassName", "gpu" }, { "futureKnob", 3 } } });
    const json v1 = convertOk(beta1, kV1);
    EXPECT_EQ(firstRequest(v1).at("exactly").at("futureKnob"), 3);
    EXPECT_EQ(convertOk(v1, kV1beta1), beta1);
    // ...so a new field beside `exactly` in v1 has no unambiguous place in v1beta1.
    const json v1Request = claim(kV1,
        { { { "name", "r" }, { "exactly", { { "deviceClassName", "gpu" } } }, { "scoring", 1 } } });
    const dra::Result<json> down = convertResourceObject(v1Request, kV1beta1);
    ASSERT_FALSE(down.has_value());
    EXPECT_NE(messageOf(down).find(
                  "ResourceClaim team-a/train-0: spec.devices.requests[0].scoring cannot be "
                  "expressed in resource.k8s.io/v1beta1"),
        std::string::npos)
        << messageOf(down);
}

TEST(ConversionRulesTest, TemplateClaimSpecConvertedMetadataUntouched)
{
    const json beta1
        = json::parse(R"({"apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceClaimTemplate",
        "metadata": {"name": "gpu", "namespace": "team-a", "annotations": {"resource.k8s.io/basic-device-names": "x"}},
        "spec": {"metadata": {"labels": {"app": "train"}},
                 "spec": {"devices": {"requests": [{"name": "gpu", "deviceClassName": "gpu.example.com"}]}}}})");
    const json v1 = convertOk(beta1, kV1);
    EXPECT_EQ(v1.at("metadata"), beta1.at("metadata"));
    EXPECT_EQ(v1.at("spec").at("metadata"), beta1.at("spec").at("metadata"));
    EXPECT_EQ(v1.at("spec").at("spec").at("devices").at("requests").at(0),
        json::parse(R"({"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}})"));
    EXPECT_EQ(convertOk(v1, kV1beta1), beta1);
}

TEST(ConversionRulesTest, ClaimStatusIntact)
{
    json beta1
        = claim(kV1beta1, { { { "name", "gpu" }, { "deviceClassName", "gpu.example.com" } } });
    beta1["status"] = json::parse(R"({
        "allocation": {"devices": {"results": [{"request": "gpu", "driver": "gpu.example.com", "pool": "node-1",
            "device": "gpu-3", "shareID": "abc", "consumedCapacity": {"memory": "10Gi"}}],
            "config": [{"source": "FromClass", "opaque": {"driver": "gpu.example.com", "parameters": {"a": 1}}}]},
          "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}]},
          "allocationTimestamp": "2025-01-01T00:00:00Z"},
        "reservedFor": [{"resource": "pods", "name": "train-0", "uid": "u1"}],
        "devices": [{"driver": "gpu.example.com", "pool": "node-1", "device": "gpu-3", "data": {"uuid": "GPU-1"}}]})");
    const json v1 = convertOk(beta1, kV1);
    EXPECT_EQ(v1.at("status"), beta1.at("status"));
    EXPECT_EQ(convertOk(v1, kV1beta1), beta1);
}

// ---- 1.31's v1alpha3 -----------------------------------------------------------------------

TEST(ConversionRulesTest, V1alpha3PlainCapacityBecomesValue)
{
    const json alpha = slice(kV1alpha3, json::parse(R"({"driver": "gpu.example.com",
        "pool": {"name": "node-1", "generation": 0, "resourceSliceCount": 1}, "nodeName": "node-1",
        "devices": [{"name": "gpu-0", "basic": {"attributes": {"index": {"int": 0}}, "capacity": {"memory": "40Gi"}}}]})"));
    const json v1 = convertOk(alpha, kV1);
    EXPECT_EQ(v1.at("spec").at("devices").at(0).at("capacity"),
        json::parse(R"({"memory": {"value": "40Gi"}})"));
    EXPECT_EQ(convertOk(v1, kV1alpha3), alpha);
    // 1.32's v1alpha3 already used {value: ...}; it is read as well.
    json alpha132 = alpha;
    alpha132["spec"]["devices"][0]["basic"]["capacity"]["memory"] = { { "value", "40Gi" } };
    EXPECT_EQ(convertOk(alpha132, kV1), v1);
}

TEST(ConversionRulesTest, CountersCannotBeExpressedIn1_31)
{
    json devices = json::array();
    for (int i = 0; i < 3; ++i)
        devices.push_back({ { "name", "gpu-" + std::to_string(i) } });
    devices.push_back(json::parse(
        R"({"name": "mig-1g", "consumesCounters": [{"counterSet": "gpu-0", "counters": {"memory": {"value": "10Gi"}}}]})"));
    const dra::Result<json> alpha = convertResourceObject(
        slice(kV1, { { "driver", "d" }, { "devices", devices } }), kV1alpha3);
    ASSERT_FALSE(alpha.has_value());
    EXPECT_EQ(alpha.error().code, dra::common::Error::Code::Unsupported);
    EXPECT_EQ(messageOf(alpha),
        "ResourceSlice gpu-node-1: spec.devices[3].consumesCounters cannot be expressed "
        "in resource.k8s.io/v1alpha3");
    // The same from v1beta1: the path names the field as v1 has it.
    const dra::Result<json> fromBeta1 = convertResourceObject(
        convertOk(slice(kV1, { { "driver", "d" }, { "devices", devices } }), kV1beta1), kV1alpha3);
    EXPECT_EQ(messageOf(fromBeta1), messageOf(alpha));
}

TEST(ConversionRulesTest, RequestPolicyCannotBeExpressedIn1_31)
{
    const json v1 = slice(kV1, json::parse(R"({"driver": "d", "devices": [{"name": "nic",
        "capacity": {"bandwidth": {"value": "100G", "requestPolicy": {"default": "1G"}}}}]})"));
    EXPECT_EQ(messageOf(convertResourceObject(v1, kV1alpha3)),
        "ResourceSlice gpu-node-1: spec.devices[0].capacity[bandwidth].requestPolicy cannot be "
        "expressed in resource.k8s.io/v1alpha3");
}

TEST(ConversionRulesTest, V1alpha3ClaimWithAllocation)
{
    const json alpha
        = json::parse(R"({"apiVersion": "resource.k8s.io/v1alpha3", "kind": "ResourceClaim",
        "metadata": {"name": "train-0", "namespace": "team-a"},
        "spec": {"devices": {"requests": [{"name": "gpu", "deviceClassName": "gpu.example.com", "allocationMode": "ExactCount", "count": 1}],
                             "constraints": [{"matchAttribute": "gpu.example.com/numa"}]}},
        "status": {"allocation": {"devices": {"results": [{"request": "gpu", "driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0"}]},
                                  "nodeSelector": {"nodeSelectorTerms": []}},
                   "reservedFor": [{"resource": "pods", "name": "train-0", "uid": "u1"}]}})");
    const json v1 = convertOk(alpha, kV1);
    EXPECT_EQ(firstRequest(v1),
        json::parse(R"({"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com",
        "allocationMode": "ExactCount", "count": 1}})"));
    EXPECT_EQ(v1.at("status"), alpha.at("status"));
    EXPECT_EQ(convertOk(v1, kV1alpha3), alpha);
    // And on to v1beta1, which shares v1alpha3's flat request.
    json beta1 = alpha;
    beta1["apiVersion"] = kV1beta1;
    EXPECT_EQ(convertOk(alpha, kV1beta1), beta1);
}

TEST(ConversionRulesTest, ClassicDraFieldsOf1_31)
{
    // Empty values of the removed control-plane-controller fields mean nothing and go.
    json alpha = claim(kV1alpha3, { { { "name", "gpu" }, { "deviceClassName", "gpu" } } });
    alpha["spec"]["controller"] = "";
    alpha["status"] = { { "deallocationRequested", false } };
    const json v1 = convertOk(alpha, kV1);
    EXPECT_FALSE(v1.at("spec").contains("controller"));
    EXPECT_FALSE(v1.at("status").contains("deallocationRequested"));
    // Set ones describe a claim v1 cannot represent.
    alpha["spec"]["controller"] = "gpu.example.com";
    EXPECT_EQ(messageOf(convertResourceObject(alpha, kV1)),
        "ResourceClaim team-a/train-0: spec.controller cannot be expressed in resource.k8s.io/v1 "
        "(the control-plane controller of classic DRA was removed in Kubernetes 1.32)");
    alpha["spec"].erase("controller");
    alpha["status"] = { { "allocation", { { "controller", "gpu.example.com" } } } };
    EXPECT_NE(messageOf(convertResourceObject(alpha, kV1))
                  .find("status.allocation.controller cannot be expressed"),
        std::string::npos);
    alpha["status"] = { { "deallocationRequested", true } };
    EXPECT_NE(messageOf(convertResourceObject(alpha, kV1))
                  .find("status.deallocationRequested cannot be expressed"),
        std::string::npos);
    const json deviceClass
        = json::parse(R"({"apiVersion": "resource.k8s.io/v1alpha3", "kind": "DeviceClass",
        "metadata": {"name": "gpu"}, "spec": {"suitableNodes": {"nodeSelectorTerms": []}}})");
    EXPECT_EQ(messageOf(convertResourceObject(deviceClass, kV1beta1)),
        "DeviceClass gpu: spec.suitableNodes cannot be expressed in resource.k8s.io/v1beta1 (the "
        "control-plane controller of classic DRA was removed in Kubernetes 1.32)");
}

TEST(ConversionRulesTest, NewerClaimFieldsCannotBeExpressedIn1_31)
{
    const json prioritized = claim(kV1,
        { { { "name", "gpu" },
            { "firstAvailable", { { { "name", "a" }, { "deviceClassName", "x" } } } } } });
    EXPECT_EQ(messageOf(convertResourceObject(prioritized, kV1alpha3)),
        "ResourceClaim team-a/train-0: spec.devices.requests[0].firstAvailable cannot be expressed "
        "in "
        "resource.k8s.io/v1alpha3");
    json withStatus
        = claim(kV1, { { { "name", "gpu" }, { "exactly", { { "deviceClassName", "x" } } } } });
    withStatus["status"]
        = { { "devices", { { { "driver", "d" }, { "pool", "p" }, { "device", "g" } } } } };
    EXPECT_EQ(messageOf(convertResourceObject(withStatus, kV1alpha3)),
        "ResourceClaim team-a/train-0: status.devices cannot be expressed in "
        "resource.k8s.io/v1alpha3");
}

// ---- DeviceTaintRule and kinds ---------------------------------------------------------------

TEST(ConversionRulesTest, DeviceTaintRuleVersions)
{
    const json rule
        = json::parse(R"({"apiVersion": "resource.k8s.io/v1alpha3", "kind": "DeviceTaintRule",
        "metadata": {"name": "maintenance"},
        "spec": {"deviceSelector": {"driver": "gpu.example.com", "pool": "node-1"},
                 "taint": {"key": "maintenance", "effect": "NoExecute"}}})");
    json v1 = rule;
    v1["apiVersion"] = kV1;
    EXPECT_EQ(convertOk(rule, kV1), v1);
    EXPECT_EQ(convertOk(v1, kV1alpha3), rule);
    EXPECT_EQ(messageOf(convertResourceObject(rule, kV1beta1)),
        "DeviceTaintRule maintenance: kind DeviceTaintRule is not defined in "
        "resource.k8s.io/v1beta1");
    // 1.33's selector by class or CEL was removed; dropping it would taint more devices.
    json old = rule;
    old["spec"]["deviceSelector"]["deviceClassName"] = "gpu.example.com";
    EXPECT_EQ(messageOf(convertResourceObject(old, kV1)),
        "DeviceTaintRule maintenance: spec.deviceSelector.deviceClassName cannot be expressed in "
        "resource.k8s.io/v1 (removed from DeviceTaintRule in Kubernetes 1.35)");
}

TEST(ConversionRulesTest, UnknownKindsAndVersions)
{
    const json pool = json::parse(
        R"({"apiVersion": "resource.k8s.io/v1alpha3", "kind": "ResourcePoolStatusRequest",
        "metadata": {"name": "all"}, "spec": {"driver": "d"}})");
    EXPECT_EQ(convertOk(pool, kV1alpha3), pool);
    EXPECT_EQ(messageOf(convertResourceObject(pool, kV1)),
        "ResourcePoolStatusRequest all: kind ResourcePoolStatusRequest is not defined in "
        "resource.k8s.io/v1");
    const json unknownKind = { { "apiVersion", kV1beta1 }, { "kind", "ResourceClass" },
        { "metadata", { { "name", "x" } } } };
    EXPECT_EQ(messageOf(convertResourceObject(unknownKind, kV1)),
        "ResourceClass x: kind ResourceClass of resource.k8s.io/v1beta1 is not one DRA Console "
        "converts");
    const json claimObject = claim(kV1beta1, json::array());
    for (const char *target : { "resource.k8s.io/v1alpha2", "v1", "apps/v1", "" }) {
        const dra::Result<json> converted = convertResourceObject(claimObject, target);
        ASSERT_FALSE(converted.has_value()) << target;
        EXPECT_EQ(converted.error().code, dra::common::Error::Code::Unsupported) << target;
    }
    json oldVersion = claimObject;
    oldVersion["apiVersion"] = "resource.k8s.io/v1alpha2";
    EXPECT_FALSE(convertResourceObject(oldVersion, kV1).has_value());
    EXPECT_EQ(
        convertResourceObject(json::array(), kV1).error().code, dra::common::Error::Code::Invalid);
    EXPECT_EQ(convertResourceObject(json({ { "kind", "ResourceClaim" } }), kV1).error().code,
        dra::common::Error::Code::Invalid);
}

TEST(ConversionRulesTest, MalformedStructureIsInvalidNotThrown)
{
    const json notAList = slice(kV1beta1, { { "driver", "d" }, { "devices", "gpu-0" } });
    const dra::Result<json> converted = convertResourceObject(notAList, kV1);
    ASSERT_FALSE(converted.has_value());
    EXPECT_EQ(converted.error().code, dra::common::Error::Code::Invalid);
    EXPECT_EQ(messageOf(converted), "ResourceSlice gpu-node-1: spec.devices is not a list");
    const json badRequest = claim(kV1, { 42 });
    EXPECT_EQ(messageOf(convertResourceObject(badRequest, kV1beta1)),
        "ResourceClaim team-a/train-0: spec.devices.requests[0] is not an object");
}

} // namespace
