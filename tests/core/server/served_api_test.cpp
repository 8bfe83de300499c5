// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/served_api.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/upstream.h"

namespace dra::server {
namespace {

std::vector<std::string> resourceVersions(const char *release)
{
    return ServedApi(release).versions("resource.k8s.io");
}

TEST(ServedApiTest, ReleasesServeTheirResourceVersionsPreferredFirst)
{
    EXPECT_EQ(resourceVersions("v1.36.0"),
        (std::vector<std::string> { "v1", "v1beta2", "v1beta1", "v1alpha3" }));
    EXPECT_EQ(
        resourceVersions("v1.35.0"), (std::vector<std::string> { "v1", "v1beta2", "v1beta1" }));
    // From 1.36 v1alpha3 serves ResourcePoolStatusRequest alone; before, the older kinds.
    const ServedApi v136("v1.36.0");
    const std::vector<const model::KindInfo *> alpha = v136.kinds("resource.k8s.io", "v1alpha3");
    ASSERT_EQ(alpha.size(), 1u);
    EXPECT_EQ(alpha[0]->kind, model::Kind::ResourcePoolStatusRequest);
    EXPECT_EQ(v136.preferredApiVersion(*alpha[0]), "resource.k8s.io/v1alpha3");
    EXPECT_EQ(v136.kind("resource.k8s.io", "v1", "resourcepoolstatusrequests"), nullptr);
    for (const model::KindInfo *kind : ServedApi("v1.33.0").kinds("resource.k8s.io", "v1alpha3"))
        EXPECT_NE(kind->kind, model::Kind::ResourcePoolStatusRequest);
    EXPECT_EQ(resourceVersions("v1.33.1-gke.100"),
        (std::vector<std::string> { "v1beta2", "v1beta1", "v1alpha3" }));
    EXPECT_EQ(resourceVersions("1.32"), (std::vector<std::string> { "v1beta1", "v1alpha3" }));
    EXPECT_EQ(ServedApi("garbage").gitVersion(), std::string(kDefaultGitVersion));
    EXPECT_EQ(ServedApi("v1.36.0").versionDocument()["minor"], "36");
    EXPECT_EQ(ServedApi("v1.33.0").preferredApiVersion(model::kindInfo(model::Kind::ResourceSlice)),
        "resource.k8s.io/v1beta2");
}

TEST(ServedApiTest, AMirrorServesOnlyTheResourceVersionsItsClusterServes)
{
    // A 1.36 cluster with its alpha API off: no v1alpha3, so no ResourcePoolStatusRequest.
    ServedApi mirror("v1.36.0");
    mirror.serveOnlyResourceVersions({ "v1", "v1beta2", "v1beta1" });
    EXPECT_EQ(mirror.versions("resource.k8s.io"),
        (std::vector<std::string> { "v1", "v1beta2", "v1beta1" }));
    EXPECT_TRUE(mirror.kinds("resource.k8s.io", "v1alpha3").empty());
    EXPECT_EQ(mirror.preferredApiVersion(model::kindInfo(model::Kind::ResourceSlice)),
        "resource.k8s.io/v1");

    // With it on, as the demo cluster serves it.
    ServedApi enabled("v1.36.0");
    enabled.serveOnlyResourceVersions({ "v1", "v1beta2", "v1beta1", "v1alpha3" });
    ASSERT_EQ(enabled.kinds("resource.k8s.io", "v1alpha3").size(), 1u);

    // Nothing in common (a cluster without DRA): the release's versions stay.
    ServedApi none("v1.35.0");
    none.serveOnlyResourceVersions({ "v1alpha9" });
    EXPECT_EQ(none.versions("resource.k8s.io"),
        (std::vector<std::string> { "v1", "v1beta2", "v1beta1" }));
}

TEST(ServedApiTest, WritableServersOfferWriteVerbsOnResourceKindsAndNamespacesOnly)
{
    const ServedApi readOnly("v1.36.0", false), writable("v1.36.0", true);
    const model::KindInfo &claims = model::kindInfo(model::Kind::ResourceClaim);
    const model::KindInfo &nodes = model::kindInfo(model::Kind::Node);
    EXPECT_EQ(readOnly.verbs(claims), nlohmann::json({ "get", "list", "watch" }));
    EXPECT_TRUE(writable.isWritable(claims));
    EXPECT_TRUE(writable.isWritable(model::kindInfo(model::Kind::Namespace)));
    EXPECT_FALSE(writable.isWritable(nodes));
    EXPECT_EQ(writable.verbs(nodes), nlohmann::json({ "get", "list", "watch" }));
}

// The table follows Kubernetes' feature gates: resource.k8s.io/v1 is served exactly where
// DynamicResourceAllocation is GA, v1beta1 wherever the gate is Beta or later, and
// DeviceTaintRule where DRADeviceTaintRules is on by default.
TEST(ServedApiTest, ServesTheRolloutKindsWritableOnlyWhereResourcesAre)
{
    const ServedApi readOnly("v1.36.0", false), writable("v1.36.0", true);
    EXPECT_EQ(writable.groups(),
        (std::vector<std::string> { "resource.k8s.io", "apps", "gateway.networking.k8s.io",
            "rbac.authorization.k8s.io", "networking.k8s.io", "coordination.k8s.io" }));
    EXPECT_NE(writable.kind("coordination.k8s.io", "v1", "leases"), nullptr);
    const model::KindInfo *deployments = writable.kind("apps", "v1", "deployments");
    ASSERT_NE(deployments, nullptr);
    EXPECT_EQ(deployments->kind, model::Kind::Deployment);
    EXPECT_NE(writable.kind("", "v1", "services"), nullptr);
    EXPECT_NE(writable.kind("gateway.networking.k8s.io", "v1", "httproutes"), nullptr);
    EXPECT_EQ(writable.kind("apps", "v1beta1", "deployments"), nullptr);
    EXPECT_TRUE(writable.isWritable(*deployments));
    EXPECT_FALSE(readOnly.isWritable(*deployments));
    EXPECT_EQ(writable.subresources(*deployments), std::vector<std::string> { "status" });
    EXPECT_EQ(writable.preferredApiVersion(*deployments), "apps/v1");
    // Pods stay the demo cluster's own business: a rollout changes Deployments, not pods.
    EXPECT_FALSE(writable.isWritable(model::kindInfo(model::Kind::Pod)));
}

TEST(ServedApiTest, AgreesWithUpstreamFeatureGates)
{
    DRA_REQUIRE_UPSTREAM(path, "k8s-dra-feature-gates.json");
    const nlohmann::json gates = nlohmann::json::parse(dra::test::readFile(path), nullptr, false);
    ASSERT_TRUE(gates.is_object());
    const nlohmann::json &matrix = gates["matrix_1_26_to_1_37"];
    for (int minor = 31; minor <= 37; ++minor) {
        const std::string release = "1." + std::to_string(minor);
        const ServedApi api("v" + release + ".0");
        const nlohmann::json &dra = matrix["DynamicResourceAllocation"][release];
        ASSERT_TRUE(dra.is_object()) << release;
        const std::vector<std::string> &versions = api.versions("resource.k8s.io");
        auto serves = [&](const char *version) {
            return std::find(versions.begin(), versions.end(), version) != versions.end();
        };
        EXPECT_EQ(serves("v1"), dra["stage"] == "GA") << release;
        EXPECT_EQ(serves("v1beta1"), dra["stage"] != "Alpha") << release;
        const nlohmann::json &taintRules = matrix["DRADeviceTaintRules"][release];
        const bool rulesOn = taintRules.is_object() && taintRules["default"] == true;
        EXPECT_EQ(
            api.kind("resource.k8s.io", versions.front(), "devicetaintrules") != nullptr, rulesOn)
            << release;
    }
}

} // namespace
} // namespace dra::server
