// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/mutation_manifests.h"

#include <gtest/gtest.h>

#include "core/rollout/evidence_collector.h"
#include "tests/support/fake_cluster.h"
#include "tests/support/rollout_fixtures.h"

using namespace dra::rollout;
using ObjKind = dra::model::Kind;
using nlohmann::json;

TEST(MutationManifestsTest, CanaryDeploymentMovesTheBaselinesPodTemplateToDra)
{
    const RolloutPlan plan = test::examplePlan();
    test::FakeCluster cluster;
    cluster.seedExampleWorld();
    const json baseline = *cluster.object(ObjKind::Deployment, "inference", "llm-server");
    const dra::Result<json> canary = canaryDeploymentManifest(plan, baseline, 1);
    ASSERT_TRUE(canary.has_value()) << canary.error().message.toStdString();
    const json &spec = (*canary)["spec"];
    EXPECT_EQ((*canary)["metadata"]["name"], "llm-server-dra");
    EXPECT_EQ(spec["replicas"], 1);
    const json &container = spec["template"]["spec"]["containers"][0];
    EXPECT_FALSE(container["resources"]["limits"].contains("nvidia.com/gpu"));
    EXPECT_EQ(container["resources"]["limits"]["memory"], "32Gi") << "other resources stay";
    EXPECT_FALSE(container["resources"].contains("requests")) << "an emptied section goes";
    EXPECT_EQ(container["resources"]["claims"], json::parse(R"([{"name":"gpu"}])"));
    EXPECT_EQ(spec["template"]["spec"]["resourceClaims"],
        json::parse(R"([{"name":"gpu","resourceClaimTemplateName":"llm-server-h100"}])"));
    EXPECT_EQ(spec["template"]["spec"]["nodeSelector"],
        json::parse(R"({"nvidia.com/gpu.deploy.device-plugin":"false"})"))
        << "the plan's node selection replaces the baseline's device-plugin one";
    // Behind an HTTPRoute the canary's pods are not the baseline's: its selector does not match
    // them.
    EXPECT_EQ(spec["template"]["metadata"]["labels"]["app"], "llm-server-dra");
    EXPECT_EQ(spec["selector"]["matchLabels"]["draconsole.io/track"], "dra");
    EXPECT_EQ(spec["template"]["metadata"]["labels"]["draconsole.io/rollout"], "llm-server-to-dra");
    EXPECT_FALSE((*canary).contains("status"));
}

TEST(MutationManifestsTest, RouteGetsWeightsAndAMirrorThatCanBeRemovedAgain)
{
    const RolloutPlan plan = test::examplePlan();
    test::FakeCluster cluster;
    cluster.seedExampleWorld();
    const json route = *cluster.object(ObjKind::HTTPRoute, "inference", "llm-server");
    // Mirror changes alone leave an untouched route's weights (and annotations) alone.
    const dra::Result<json> onlyMirrorRemoved
        = routeManifest(plan, route, std::nullopt, std::nullopt, std::nullopt, true);
    ASSERT_TRUE(onlyMirrorRemoved.has_value());
    EXPECT_EQ((*onlyMirrorRemoved)["spec"], route["spec"]);
    EXPECT_FALSE((*onlyMirrorRemoved)["metadata"].contains("annotations"));
    const dra::Result<json> weighted = routeManifest(plan, route, 95, 5, std::nullopt, false);
    ASSERT_TRUE(weighted.has_value());
    EXPECT_EQ(routeWeights(plan, *weighted),
        std::make_pair(std::optional<int>(95), std::optional<int>(5)));
    EXPECT_EQ((*weighted)["spec"]["rules"][0]["backendRefs"][1]["port"], 8080);
    const dra::Result<json> mirrored
        = routeManifest(plan, *weighted, std::nullopt, std::nullopt, 100, false);
    ASSERT_TRUE(mirrored.has_value());
    const json &filter = (*mirrored)["spec"]["rules"][0]["filters"][0];
    EXPECT_EQ(filter["type"], "RequestMirror");
    EXPECT_EQ(filter["requestMirror"]["backendRef"]["name"], "llm-server-dra");
    EXPECT_EQ(filter["requestMirror"]["percent"], 100);
    const dra::Result<json> unmirrored
        = routeManifest(plan, *mirrored, std::nullopt, std::nullopt, std::nullopt, true);
    ASSERT_TRUE(unmirrored.has_value());
    EXPECT_FALSE((*unmirrored)["spec"]["rules"][0].contains("filters"));
    EXPECT_EQ((*unmirrored)["spec"]["rules"], (*weighted)["spec"]["rules"]);
    EXPECT_EQ(
        (*unmirrored)["metadata"]["annotations"]["draconsole.io/baseline-weight-before"], "1");
    EXPECT_EQ(baselineTrafficPercent(plan, *unmirrored), 95);

    // No traffic to the canary puts the route back as it was.
    const dra::Result<json> restored
        = routeManifest(plan, *unmirrored, 100, 0, std::nullopt, false);
    ASSERT_TRUE(restored.has_value());
    EXPECT_EQ((*restored)["spec"], route["spec"]);
    EXPECT_FALSE((*restored)["metadata"].contains("annotations"));
    EXPECT_EQ(baselineTrafficPercent(plan, *restored), 100);
}

TEST(MutationManifestsTest, PrometheusVectorIsReadAsOneNumber)
{
    const auto value = prometheusScalar(
        R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1.7e9,"0.0125"]}]}})");
    ASSERT_TRUE(value.has_value());
    EXPECT_DOUBLE_EQ(value->value_or(-1), 0.0125);
    const auto empty
        = prometheusScalar(R"({"status":"success","data":{"resultType":"vector","result":[]}})");
    ASSERT_TRUE(empty.has_value());
    EXPECT_FALSE(empty->has_value());
    EXPECT_FALSE(prometheusScalar(R"({"status":"error","error":"bad query"})").has_value());
}
