// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/negative_control.h"

#include <gtest/gtest.h>

#include "tests/core/alloc/alloc_fixtures.h"

namespace dra::alloc::test {
namespace {

json modelAttribute(const std::string &model)
{
    return { { "model", { { "string", model } } } };
}

// One node with three devices of driver-a: model a with 40Gi and 80Gi, model b with 80Gi.
Cluster threeDevices()
{
    std::vector<model::Object> objects;
    for (const json &object : { nodeObject(node1, region1), deviceClass(classA, driverA),
             slice(slice1, node1, pool1, driverA,
                 { device(device0, { { "memory", "40Gi" } }, modelAttribute("a")),
                     device(device1, { { "memory", "80Gi" } }, modelAttribute("a")),
                     device(device2, { { "memory", "80Gi" } }, modelAttribute("b")) }) }) {
        Result<model::Object> decoded = model::decodeObject(object);
        EXPECT_TRUE(decoded.has_value()) << decoded.error().message.toStdString();
        objects.push_back(std::move(*decoded));
    }
    Result<Cluster> cluster = Cluster::build(std::move(objects));
    EXPECT_TRUE(cluster.has_value());
    return std::move(*cluster);
}

std::string modelIs(const std::string &model)
{
    return "device.attributes[\"driver-a\"].model == \"" + model + "\"";
}

NegativeControl controlOf(json claimObject)
{
    claimObject["metadata"]["namespace"] = "ml"; // a ResourceClaim lives in a namespace
    const Cluster cluster = threeDevices();
    Result<NegativeControl> control
        = negativeControl(cluster, release::KubernetesRelease::newest(), claimObject);
    EXPECT_TRUE(control.has_value()) << control.error().message.toStdString();
    return control.value_or(NegativeControl {});
}

TEST(NegativeControlTest, NegatesTheClauseNoOtherDeviceFails)
{
    const NegativeControl control = controlOf(claim(
        claim0, { request(req0, classA, 1, { modelIs("b") + " && " + memoryAtLeast("40Gi") }) }));
    ASSERT_EQ(control.requests.size(), 1u);
    const NegativeRequest &request = control.requests[0];
    EXPECT_EQ(request.originalMatches, 1);
    EXPECT_EQ(request.negativeSelector, modelIs("b") + " && !(" + memoryAtLeast("40Gi") + ")");
    EXPECT_EQ(request.negativeMatches, 0);
    EXPECT_TRUE(control.proves()) << control.verdict();
    EXPECT_FALSE(control.pendingReason.empty());
    EXPECT_FALSE(control.negativeAllocated);

    // The manifest: renamed, same class, the negative selector in place of the original.
    const json &manifest = control.manifest;
    EXPECT_EQ(manifest["metadata"]["name"], claim0 + "-negative-control");
    EXPECT_EQ(manifest["metadata"]["namespace"], "ml");
    const json &exactly = manifest["spec"]["devices"]["requests"][0]["exactly"];
    EXPECT_EQ(exactly["deviceClassName"], classA);
    ASSERT_EQ(exactly["selectors"].size(), 1u);
    EXPECT_EQ(exactly["selectors"][0]["cel"]["expression"], request.negativeSelector);
}

TEST(NegativeControlTest, FallsBackToTheContradictionWhenEveryNegatedClauseStillMatches)
{
    // model a && 80Gi: model a with 40Gi and model b with 80Gi exist, so neither negation is empty.
    const std::string original = modelIs("a") + " && " + memoryAtLeast("80Gi");
    const NegativeControl control
        = controlOf(claim(claim0, { request(req0, classA, 1, { original }) }));
    ASSERT_EQ(control.requests.size(), 1u);
    EXPECT_EQ(control.requests[0].originalMatches, 1);
    EXPECT_EQ(control.requests[0].negativeSelector, "(" + original + ") && !(" + original + ")");
    EXPECT_EQ(control.negativeMatches, 0);
    EXPECT_TRUE(control.proves()) << control.verdict();
}

TEST(NegativeControlTest, RequestWithoutSelectorsExcludesTheClassDrivers)
{
    const NegativeControl control = controlOf(simpleClaim(claim0, req0, classA));
    ASSERT_EQ(control.requests.size(), 1u);
    EXPECT_EQ(control.requests[0].originalMatches, 3);
    EXPECT_EQ(control.requests[0].negativeSelector, "!(device.driver in [\"driver-a\"])");
    EXPECT_EQ(control.negativeMatches, 0);
    EXPECT_TRUE(control.proves()) << control.verdict();
}

TEST(NegativeControlTest, OriginalMatchingNothingProvesNothing)
{
    const NegativeControl control
        = controlOf(claim(claim0, { request(req0, classA, 1, { memoryAtLeast("1Ti") }) }));
    EXPECT_EQ(control.originalMatches, 0);
    EXPECT_FALSE(control.proves());
    EXPECT_NE(control.verdict().find("proves nothing"), std::string::npos) << control.verdict();
}

TEST(NegativeControlTest, OnlyClaimsAndTemplates)
{
    const Cluster cluster = threeDevices();
    Result<NegativeControl> control = negativeControl(
        cluster, release::KubernetesRelease::newest(), deviceClass(classB, driverB));
    ASSERT_FALSE(control.has_value());
    EXPECT_TRUE(control.error().message.contains(QStringLiteral("ResourceClaimTemplate")));
}

} // namespace
} // namespace dra::alloc::test
