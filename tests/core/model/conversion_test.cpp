// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Conversion against Kubernetes' own fully-populated API fixtures (../shared/upstream/
// k8s-api-testdata): every resource.k8s.io object survives a trip through v1, and the v1 shapes
// we produce are the ones Kubernetes serves.
#include "core/model/conversion.h"

#include <filesystem>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/resource_versions.h"
#include "tests/support/upstream.h"

namespace {

using dra::model::convertResourceObject;
using dra::test::kV1;
using dra::test::kV1alpha3;
using dra::test::kV1beta1;
using dra::test::kV1beta2;
using dra::test::messageOf;
using nlohmann::json;

// Loads resource.k8s.io.<version>.<kind>.json; fails the test when it cannot be parsed.
json loadFixture(const std::filesystem::path &dir, std::string_view version, std::string_view kind)
{
    const std::filesystem::path path
        = dir / ("resource.k8s.io." + std::string(version) + '.' + std::string(kind) + ".json");
    const json parsed = json::parse(dra::test::readFile(path), nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(parsed.is_discarded()) << path << " is not valid JSON";
    return parsed.is_discarded() ? json::object() : parsed;
}

// Kinds that Kubernetes serves only in an alpha version: they have no v1 form to convert to.
bool hasNoV1Form(const std::string &kind)
{
    return kind == "ResourcePoolStatusRequest";
}

TEST(ConversionTest, EveryFixtureRoundTripsThroughV1)
{
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    std::map<std::string, int> perVersion;
    for (const auto &entry : std::filesystem::directory_iterator(dir)) {
        const std::string file = entry.path().filename().string();
        if (!file.starts_with("resource.k8s.io.") || entry.path().extension() != ".json")
            continue;
        SCOPED_TRACE(file);
        const json original = json::parse(dra::test::readFile(entry.path()), nullptr, false);
        ASSERT_FALSE(original.is_discarded()) << file << " is not valid JSON";
        const std::string ownVersion = original.value("apiVersion", "");
        const std::string kind = original.value("kind", "");
        ++perVersion[ownVersion];

        const dra::Result<json> same = convertResourceObject(original, ownVersion);
        ASSERT_TRUE(same.has_value()) << file << ": " << messageOf(same);
        EXPECT_EQ(*same, original) << file << ": converting to its own version changed it";

        const dra::Result<json> v1 = convertResourceObject(original, kV1);
        if (hasNoV1Form(kind)) {
            // Not a loss in conversion: Kubernetes has no v1 type for this kind at all.
            ASSERT_FALSE(v1.has_value()) << file << ": converted a kind that has no v1 form";
            EXPECT_NE(messageOf(v1).find("kind " + kind + " is not defined in resource.k8s.io/v1"),
                std::string::npos)
                << file << ": " << messageOf(v1);
            continue;
        }
        ASSERT_TRUE(v1.has_value()) << file << ": to v1: " << messageOf(v1);
        EXPECT_EQ(v1->value("apiVersion", ""), kV1) << file;
        EXPECT_EQ(v1->at("metadata"), original.at("metadata")) << file << ": metadata was touched";

        const dra::Result<json> back = convertResourceObject(*v1, ownVersion);
        ASSERT_TRUE(back.has_value())
            << file << ": back to " << ownVersion << ": " << messageOf(back);
        EXPECT_EQ(*back, original)
            << file << ": differs after v1 and back: " << json::diff(original, *back).dump();
    }
    for (const std::string_view version : { kV1, kV1beta2, kV1beta1, kV1alpha3 })
        EXPECT_GT(perVersion[std::string(version)], 0)
            << "no fixture of " << version << " was read";
}

TEST(ConversionTest, EveryFixtureRoundTripsThroughEveryVersion)
{
    // Where a version can hold the object, the trip there and back is lossless; where it cannot,
    // the refusal is an Unsupported error saying what is missing, never a partial object.
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    int trips = 0;
    for (const auto &entry : std::filesystem::directory_iterator(dir)) {
        const std::string file = entry.path().filename().string();
        if (!file.starts_with("resource.k8s.io.") || entry.path().extension() != ".json")
            continue;
        const json original = json::parse(dra::test::readFile(entry.path()), nullptr, false);
        ASSERT_FALSE(original.is_discarded()) << file;
        const std::string ownVersion = original.value("apiVersion", "");
        for (const std::string_view target : { kV1, kV1beta2, kV1beta1, kV1alpha3 }) {
            SCOPED_TRACE(file + " via " + std::string(target));
            const dra::Result<json> there = convertResourceObject(original, target);
            if (!there) {
                EXPECT_EQ(there.error().code, dra::common::Error::Code::Unsupported) << file;
                const std::string message = messageOf(there);
                EXPECT_TRUE(message.find("cannot be expressed in " + std::string(target))
                        != std::string::npos
                    || message.find("is not defined in") != std::string::npos)
                    << file << ": " << message;
                continue;
            }
            const dra::Result<json> back = convertResourceObject(*there, ownVersion);
            ASSERT_TRUE(back.has_value())
                << file << ": back from " << target << ": " << messageOf(back);
            EXPECT_EQ(*back, original)
                << file << " via " << target << ": " << json::diff(original, *back).dump();
            ++trips;
        }
    }
    EXPECT_GT(trips, 0);
}

TEST(ConversionTest, V1beta2FixturesAreV1Fixtures)
{
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    for (const std::string_view kind : { "DeviceClass", "ResourceSlice", "ResourceClaim",
             "ResourceClaimTemplate", "DeviceTaintRule" }) {
        SCOPED_TRACE(kind);
        const json beta2 = loadFixture(dir, "v1beta2", kind);
        const json v1 = loadFixture(dir, "v1", kind);
        const dra::Result<json> up = convertResourceObject(beta2, kV1);
        ASSERT_TRUE(up.has_value()) << messageOf(up);
        EXPECT_EQ(*up, v1) << json::diff(v1, *up).dump();
        const dra::Result<json> down = convertResourceObject(v1, kV1beta2);
        ASSERT_TRUE(down.has_value()) << messageOf(down);
        EXPECT_EQ(*down, beta2) << json::diff(beta2, *down).dump();
    }
}

TEST(ConversionTest, V1beta1SliceToV1)
{
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    const json beta1 = loadFixture(dir, "v1beta1", "ResourceSlice");
    const json v1 = loadFixture(dir, "v1", "ResourceSlice");
    const dra::Result<json> up = convertResourceObject(beta1, kV1);
    ASSERT_TRUE(up.has_value()) << messageOf(up);

    const json &device = up->at("spec").at("devices").at(0);
    const json &basic = beta1.at("spec").at("devices").at(0).at("basic");
    EXPECT_FALSE(device.contains("basic"));
    EXPECT_EQ(device.at("name"), "nameValue");
    // Every property of the basic wrapper is now on the device itself.
    for (const auto &[key, value] : basic.items())
        EXPECT_EQ(device.at(key), value) << key;
    EXPECT_EQ(device.at("consumesCounters").at(0).at("counterSet"), "counterSetValue");
    EXPECT_EQ(
        device.at("capacity").at("capacityKey").at("requestPolicy").at("validRange").at("step"),
        "0");
    EXPECT_EQ(device.at("taints").at(0).at("effect"), "effectValue");
    EXPECT_EQ(device.at("nodeName"), "nodeNameValue");
    // Slice-level fields stay where they are.
    EXPECT_EQ(up->at("spec").at("sharedCounters"), beta1.at("spec").at("sharedCounters"));
    EXPECT_EQ(up->at("spec").at("perDeviceNodeSelection"), true);
    EXPECT_EQ(up->at("spec").at("nodeName"), "nodeNameValue");
    // The fuzzer filled both fixtures with the same values: the whole object is Kubernetes' v1.
    EXPECT_EQ(*up, v1) << json::diff(v1, *up).dump();

    const dra::Result<json> down = convertResourceObject(v1, kV1beta1);
    ASSERT_TRUE(down.has_value()) << messageOf(down);
    EXPECT_EQ(*down, beta1) << json::diff(beta1, *down).dump();
}

TEST(ConversionTest, V1beta1ClaimToV1)
{
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    const json beta1 = loadFixture(dir, "v1beta1", "ResourceClaim");
    const json v1 = loadFixture(dir, "v1", "ResourceClaim");
    const dra::Result<json> up = convertResourceObject(beta1, kV1);
    ASSERT_TRUE(up.has_value()) << messageOf(up);

    const json &flat = beta1.at("spec").at("devices").at("requests").at(0);
    const json &request = up->at("spec").at("devices").at("requests").at(0);
    ASSERT_TRUE(request.contains("exactly"));
    const json &exactly = request.at("exactly");
    for (const char *key : { "deviceClassName", "selectors", "allocationMode", "count",
             "adminAccess", "tolerations", "capacity" }) {
        EXPECT_EQ(exactly.at(key), flat.at(key)) << key;
        EXPECT_FALSE(request.contains(key)) << key << " stayed on the request";
    }
    EXPECT_EQ(request.at("name"), "nameValue");
    EXPECT_EQ(request.at("firstAvailable"), flat.at("firstAvailable"));
    // Allocation results, reservedFor and device status are the same structure in both.
    EXPECT_EQ(up->at("status"), v1.at("status"))
        << json::diff(v1.at("status"), up->at("status")).dump();
    EXPECT_EQ(
        up->at("status").at("allocation").at("devices").at("results").at(0).at("consumedCapacity"),
        beta1.at("status")
            .at("allocation")
            .at("devices")
            .at("results")
            .at(0)
            .at("consumedCapacity"));

    // The fixtures differ only in the fuzzed count; with that aligned it is Kubernetes' v1.
    json expected = v1;
    expected["spec"]["devices"]["requests"][0]["exactly"]["count"] = flat.at("count");
    EXPECT_EQ(*up, expected) << json::diff(expected, *up).dump();
}

TEST(ConversionTest, V1beta1TemplateAndClassToV1)
{
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    const json beta1Template = loadFixture(dir, "v1beta1", "ResourceClaimTemplate");
    const json v1Template = loadFixture(dir, "v1", "ResourceClaimTemplate");
    const dra::Result<json> up = convertResourceObject(beta1Template, kV1);
    ASSERT_TRUE(up.has_value()) << messageOf(up);
    EXPECT_EQ(up->at("spec").at("metadata"), beta1Template.at("spec").at("metadata"));
    json expected = v1Template;
    expected["spec"]["spec"]["devices"]["requests"][0]["exactly"]["count"]
        = beta1Template.at("spec").at("spec").at("devices").at("requests").at(0).at("count");
    EXPECT_EQ(*up, expected) << json::diff(expected, *up).dump();

    const dra::Result<json> deviceClass
        = convertResourceObject(loadFixture(dir, "v1beta1", "DeviceClass"), kV1);
    ASSERT_TRUE(deviceClass.has_value()) << messageOf(deviceClass);
    EXPECT_EQ(*deviceClass, loadFixture(dir, "v1", "DeviceClass"));
}

TEST(ConversionTest, V1FixturesDownAndBackUp)
{
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    for (const std::string_view kind : { "DeviceClass", "ResourceSlice", "ResourceClaim",
             "ResourceClaimTemplate", "DeviceTaintRule" }) {
        const json v1 = loadFixture(dir, "v1", kind);
        for (const std::string_view target : { kV1beta2, kV1beta1, kV1alpha3 }) {
            SCOPED_TRACE(std::string(kind) + " via " + std::string(target));
            const dra::Result<json> down = convertResourceObject(v1, target);
            if (kind == "DeviceTaintRule" && target == kV1beta1) {
                // v1beta1 never had DeviceTaintRule.
                ASSERT_FALSE(down.has_value());
                EXPECT_EQ(messageOf(down),
                    "DeviceTaintRule nameValue: kind DeviceTaintRule is not defined in "
                    "resource.k8s.io/v1beta1");
                continue;
            }
            if (kind != "DeviceTaintRule" && target == kV1alpha3) {
                // 1.31's v1alpha3 predates most of the fully-populated v1 fields (counters,
                // taints, firstAvailable, device status, extended resources): refused, naming one.
                ASSERT_FALSE(down.has_value()) << "expressed in 1.31's v1alpha3: " << down->dump();
                EXPECT_NE(messageOf(down).find("cannot be expressed in resource.k8s.io/v1alpha3"),
                    std::string::npos)
                    << messageOf(down);
                EXPECT_NE(messageOf(down).find(": spec."), std::string::npos) << messageOf(down);
                continue;
            }
            ASSERT_TRUE(down.has_value()) << messageOf(down);
            EXPECT_EQ(down->value("apiVersion", ""), target);
            const dra::Result<json> back = convertResourceObject(*down, kV1);
            ASSERT_TRUE(back.has_value()) << messageOf(back);
            EXPECT_EQ(*back, v1) << json::diff(v1, *back).dump();
        }
    }
}

TEST(ConversionTest, V1FixtureErrorsNameTheFieldFor1_31)
{
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    const dra::Result<json> deviceClass
        = convertResourceObject(loadFixture(dir, "v1", "DeviceClass"), kV1alpha3);
    ASSERT_FALSE(deviceClass.has_value());
    EXPECT_EQ(messageOf(deviceClass),
        "DeviceClass nameValue: spec.extendedResourceName cannot be "
        "expressed in resource.k8s.io/v1alpha3");
    const dra::Result<json> claim
        = convertResourceObject(loadFixture(dir, "v1", "ResourceClaim"), kV1alpha3);
    ASSERT_FALSE(claim.has_value());
    EXPECT_EQ(messageOf(claim),
        "ResourceClaim namespaceValue/nameValue: "
        "spec.devices.constraints[0].distinctAttribute cannot be expressed in "
        "resource.k8s.io/v1alpha3");
}

TEST(ConversionTest, V1alpha3TaintRuleIsV1TaintRule)
{
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    const json alpha = loadFixture(dir, "v1alpha3", "DeviceTaintRule");
    const dra::Result<json> up = convertResourceObject(alpha, kV1);
    ASSERT_TRUE(up.has_value()) << messageOf(up);
    EXPECT_EQ(*up, loadFixture(dir, "v1", "DeviceTaintRule"));
}

} // namespace
