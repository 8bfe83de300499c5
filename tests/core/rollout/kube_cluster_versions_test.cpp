// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The rollout's cluster port on clusters that serve only older resource.k8s.io versions
// (Kubernetes 1.32: v1beta1; 1.33: v1beta2): paths and applied objects in the versions served.
#include "core/rollout/kube_cluster.h"

#include <optional>

#include <gtest/gtest.h>

#include "core/kube/rest_client.h"
#include "core/rollout/mutation_manifests.h"
#include "tests/support/kube_fixture.h"
#include "tests/support/test_cluster.h"
#include "tests/support/rollout_fixtures.h"

using dra::model::Kind;
using dra::rollout::objectInServedVersion;
using dra::rollout::servedResourcePath;
using nlohmann::json;

namespace {

dra::kube::ApiDiscovery servedIn(const std::string &version)
{
    dra::kube::ApiDiscovery served;
    served.resourceVersions = { QString::fromStdString(version) };
    for (Kind kind : { Kind::ResourceClaim, Kind::ResourceClaimTemplate, Kind::ResourceSlice,
             Kind::DeviceClass })
        served.apiVersions[kind] = "resource.k8s.io/" + version;
    served.apiVersions[Kind::Deployment] = "apps/v1";
    return served;
}

} // namespace

TEST(KubeClusterServedVersionsTest, PathsUseTheVersionTheClusterServes)
{
    EXPECT_EQ(servedResourcePath(
                  servedIn("v1beta1"), Kind::ResourceClaimTemplate, "inference", "llm-server-h100"),
        QStringLiteral("/apis/resource.k8s.io/v1beta1/namespaces/inference/resourceclaimtemplates/"
                       "llm-server-h100"));
    EXPECT_EQ(servedResourcePath(servedIn("v1beta2"), Kind::ResourceClaim, "inference"),
        QStringLiteral("/apis/resource.k8s.io/v1beta2/namespaces/inference/resourceclaims"));
    EXPECT_EQ(servedResourcePath(servedIn("v1beta1"), Kind::Deployment, "inference", "llm-server"),
        QStringLiteral("/apis/apps/v1/namespaces/inference/deployments/llm-server"));
    EXPECT_EQ(servedResourcePath(dra::kube::ApiDiscovery {}, Kind::ResourceClaim, "ml"),
        QStringLiteral("/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims"))
        << "a kind not served keeps its preferred version (the server answers 404 for it)";
}

TEST(KubeClusterServedVersionsTest, TheCanaryTemplateIsAppliedInTheServedVersionsShape)
{
    const json v1 = dra::rollout::claimTemplateManifest(dra::rollout::test::examplePlan());
    ASSERT_EQ(v1["apiVersion"], "resource.k8s.io/v1");
    const json &v1Request = v1["spec"]["spec"]["devices"]["requests"][0];
    ASSERT_TRUE(v1Request.contains("exactly"));

    const json beta1 = objectInServedVersion(v1, servedIn("v1beta1")).value();
    EXPECT_EQ(beta1["apiVersion"], "resource.k8s.io/v1beta1");
    const json &request = beta1["spec"]["spec"]["devices"]["requests"][0];
    EXPECT_FALSE(request.contains("exactly")) << request.dump();
    EXPECT_EQ(request["name"], v1Request["name"]);
    EXPECT_EQ(request["deviceClassName"], v1Request["exactly"]["deviceClassName"]);
    if (v1Request["exactly"].contains("selectors")) {
        EXPECT_EQ(request["selectors"], v1Request["exactly"]["selectors"]);
    }
    EXPECT_EQ(beta1["metadata"], v1["metadata"]);

    const json beta2 = objectInServedVersion(v1, servedIn("v1beta2")).value();
    EXPECT_EQ(beta2["apiVersion"], "resource.k8s.io/v1beta2");
    EXPECT_EQ(beta2["spec"], v1["spec"]) << "v1beta2 has v1's shape";

    EXPECT_EQ(objectInServedVersion(v1, servedIn("v1")).value(), v1);
    const json claim
        = dra::rollout::negativeControlClaimManifest(dra::rollout::test::examplePlan(), "nc");
    EXPECT_FALSE(objectInServedVersion(claim, servedIn("v1beta1"))
                     .value()["spec"]["devices"]["requests"][0]
                     .contains("exactly"));
    const json deployment { { "apiVersion", "apps/v1" }, { "kind", "Deployment" },
        { "metadata", { { "name", "x" } } } };
    EXPECT_EQ(objectInServedVersion(deployment, servedIn("v1beta1")).value(), deployment);
}

TEST(KubeClusterServedVersionsTest, ReadsClaimsFromAKubernetes132Server)
{
    dra::kube::test::TestCluster::Options options;
    options.kubernetesVersion = "v1.32.4";
    dra::kube::test::TestCluster cluster(options);
    cluster.put({ dra::kube::test::claim("ml", "train-0") });
    dra::kube::RestClient client(cluster.clientConfig());
    dra::rollout::KubeCluster port(client);
    QObject context;

    std::optional<dra::Result<std::optional<json>>> got;
    port.get(Kind::ResourceClaim, "ml", "train-0", &context,
        [&](dra::Result<std::optional<json>> answer) { got = std::move(answer); });
    ASSERT_TRUE(dra::kube::test::spinUntil([&] { return got.has_value(); }));
    ASSERT_TRUE(got->has_value()) << got->error().message.toStdString();
    ASSERT_TRUE(got->value().has_value()) << "the claim is found, not a 404 of resource.k8s.io/v1";
    EXPECT_EQ((*got->value())["apiVersion"], "resource.k8s.io/v1beta1");

    std::optional<dra::Result<std::vector<json>>> listed;
    port.list(Kind::ResourceClaim, "ml", "", &context,
        [&](dra::Result<std::vector<json>> answer) { listed = std::move(answer); });
    ASSERT_TRUE(dra::kube::test::spinUntil([&] { return listed.has_value(); }));
    ASSERT_TRUE(listed->has_value()) << listed->error().message.toStdString();
    EXPECT_EQ((*listed)->size(), 1u);

    bool askedV1 = false, askedV1beta1 = false;
    for (const std::string &target : cluster.requests) {
        askedV1 = askedV1 || target.find(" /apis/resource.k8s.io/v1/") != std::string::npos;
        askedV1beta1 = askedV1beta1
            || target.find(" /apis/resource.k8s.io/v1beta1/namespaces/ml/resourceclaims")
                != std::string::npos;
    }
    EXPECT_FALSE(askedV1) << testing::PrintToString(cluster.requests);
    EXPECT_TRUE(askedV1beta1) << testing::PrintToString(cluster.requests);
}
