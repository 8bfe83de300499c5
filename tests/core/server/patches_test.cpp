// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/patches.h"

#include <gtest/gtest.h>

#include "core/server/object_validation.h"

namespace dra::server {
namespace {

using nlohmann::json;

const model::SchemaNode *resourceClaimSchema()
{
    return model::schemaFor("resource.k8s.io/v1", "ResourceClaim");
}

TEST(PatchesTest, PatchTypesComeFromTheContentType)
{
    EXPECT_EQ(patchTypeOf("application/merge-patch+json"), PatchType::Merge);
    EXPECT_EQ(patchTypeOf("application/json-patch+json; charset=utf-8"), PatchType::Json);
    EXPECT_EQ(patchTypeOf("application/strategic-merge-patch+json"), PatchType::Strategic);
    EXPECT_EQ(patchTypeOf("application/apply-patch+yaml"), PatchType::Apply);
    EXPECT_EQ(patchTypeOf("application/json"), std::nullopt);
}

TEST(PatchesTest, MergePatchDeletesWithNullAndReplacesLists)
{
    const json target = { { "metadata", { { "labels", { { "a", "1" }, { "b", "2" } } } } },
        { "list", { 1, 2 } } };
    Result<json> patched = applyMergePatch(
        target, { { "metadata", { { "labels", { { "a", nullptr } } } } }, { "list", { 3 } } });
    ASSERT_TRUE(patched.has_value());
    EXPECT_EQ((*patched)["metadata"]["labels"], json({ { "b", "2" } }));
    EXPECT_EQ((*patched)["list"], json({ 3 }));
    EXPECT_EQ(applyMergePatch(target, json::array()).error().code, common::Error::Code::Parse);
}

TEST(PatchesTest, JsonPatchAppliesOperationsAndFailsCleanly)
{
    const json target = { { "spec", { { "count", 1 } } } };
    Result<json> patched
        = applyJsonPatch(target, json::parse(R"([{"op":"test","path":"/spec/count","value":1},
                        {"op":"replace","path":"/spec/count","value":2}])"));
    ASSERT_TRUE(patched.has_value());
    EXPECT_EQ((*patched)["spec"]["count"], 2);
    EXPECT_EQ(
        applyJsonPatch(target, json::parse(R"([{"op":"test","path":"/spec/count","value":5}])"))
            .error()
            .code,
        common::Error::Code::Invalid);
    EXPECT_EQ(applyJsonPatch(target, json::parse(R"([{"op":"jump","path":"/x"}])")).error().code,
        common::Error::Code::Parse);
}

TEST(PatchesTest, StrategicMergeUsesTheListKeysOfTheSchema)
{
    const json target = { { "metadata", { { "finalizers", { "a" } } } },
        { "status",
            { { "reservedFor",
                { { { "resource", "pods" }, { "name", "p1" }, { "uid", "u-1" } },
                    { { "resource", "pods" }, { "name", "p2" }, { "uid", "u-2" } } } } } } };
    const json patch = json::parse(R"({
        "metadata": {"finalizers": ["b"]},
        "status": {"reservedFor": [
            {"uid": "u-1", "$patch": "delete"},
            {"uid": "u-3", "resource": "pods", "name": "p3"},
            {"uid": "u-2", "name": "p2-renamed"}]}})");
    Result<json> patched = applyStrategicPatch(target, patch, resourceClaimSchema());
    ASSERT_TRUE(patched.has_value()) << patched.error().message.toStdString();
    EXPECT_EQ((*patched)["metadata"]["finalizers"], json({ "a", "b" })); // a set: merged
    const json &reserved = (*patched)["status"]["reservedFor"];
    ASSERT_EQ(reserved.size(), 2u);
    EXPECT_EQ(reserved[0]["name"], "p2-renamed");
    EXPECT_EQ(reserved[0]["resource"], "pods");
    EXPECT_EQ(reserved[1]["uid"], "u-3");

    // An atomic list (a claim's requests) is replaced, and $retainKeys / $deleteFromPrimitiveList
    // work.
    const json claim = { { "spec",
        { { "devices", { { "requests", { { { "name", "a" } }, { { "name", "b" } } } } } } } } };
    Result<json> replaced = applyStrategicPatch(claim,
        json::parse(R"({"spec":{"devices":{"requests":[{"name":"c"}]}}})"), resourceClaimSchema());
    ASSERT_TRUE(replaced.has_value());
    EXPECT_EQ((*replaced)["spec"]["devices"]["requests"].size(), 1u);
    Result<json> trimmed
        = applyStrategicPatch({ { "metadata", { { "finalizers", { "a", "b" } } } } },
            json::parse(R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}})"),
            resourceClaimSchema());
    ASSERT_TRUE(trimmed.has_value());
    EXPECT_EQ((*trimmed)["metadata"]["finalizers"], json({ "b" }));
}

TEST(ObjectValidationTest, ClaimRequestsAreValidatedAsKubernetesDoes)
{
    json claim = json::parse(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
        "metadata":{"name":"c","namespace":"ml"},
        "spec":{"devices":{"requests":[
            {"name":"gpu","exactly":{"deviceClassName":"gpu.example.com"}},
            {"name":"Bad_Name","exactly":{"deviceClassName":"gpu.example.com","count":0,
              "allocationMode":"ExactCount",
              "selectors":[{"cel":{"expression":"device.driver =="}}]}},
            {"name":"both","exactly":{"deviceClassName":"x"},"firstAvailable":[{"name":"a","deviceClassName":"x"}]},
            {"name":"gpu","exactly":{"deviceClassName":"y","allocationMode":"Some"}}]}}})");
    const model::KindInfo &kind = model::kindInfo(model::Kind::ResourceClaim);
    applyDefaults(claim, kind);
    EXPECT_EQ(claim["spec"]["devices"]["requests"][0]["exactly"]["count"], 1);
    EXPECT_EQ(claim["spec"]["devices"]["requests"][0]["exactly"]["allocationMode"], "ExactCount");
    std::vector<std::string> messages;
    for (const FieldError &error : validateCreate(claim, kind))
        messages.push_back(error.message());
    auto has = [&](const std::string &prefix) {
        for (const std::string &message : messages) {
            if (message.starts_with(prefix))
                return true;
        }
        return false;
    };
    EXPECT_TRUE(has(
        "spec.devices.requests[1].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label"));
    EXPECT_TRUE(
        has("spec.devices.requests[1].exactly.count: Invalid value: 0: must be greater than zero"));
    EXPECT_TRUE(has("spec.devices.requests[1].exactly.selectors[0].cel.expression: Invalid value: "
                    "\"device.driver ==\": compilation failed: ERROR: <input>:1:"));
    EXPECT_TRUE(has("spec.devices.requests[2]: Invalid value: null: exactly one of `exactly` or "
                    "`firstAvailable` is required, but multiple fields are set"));
    EXPECT_TRUE(has("spec.devices.requests[3].name: Duplicate value: \"gpu\""));
    EXPECT_TRUE(has("spec.devices.requests[3].exactly.allocationMode: Unsupported value: \"Some\": "
                    "supported values: \"All\", \"ExactCount\""));
    EXPECT_EQ(messages.size(), 6u) << testing::PrintToString(messages);

    // A selector must return bool.
    json notBool = claim;
    notBool["spec"]["devices"]["requests"] = json::parse(
        R"([{"name":"g","exactly":{"deviceClassName":"x","selectors":[{"cel":{"expression":"device.driver"}}]}}])");
    applyDefaults(notBool, kind);
    const FieldErrors errors = validateCreate(notBool, kind);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].field, "spec.devices.requests[0].exactly.selectors[0].cel.expression");

    // The spec of a claim is immutable.
    json changed = claim;
    changed["spec"]["devices"]["requests"][0]["exactly"]["count"] = 2;
    const FieldErrors update = validateUpdate(changed, claim, kind);
    ASSERT_FALSE(update.empty());
    EXPECT_EQ(update.back().message(), "spec: Invalid value: field is immutable");
}

} // namespace
} // namespace dra::server
