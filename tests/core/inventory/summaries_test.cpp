// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/summaries.h"

#include <gtest/gtest.h>

#include "tests/support/inventory_fixtures.h"

using namespace dra;
using namespace dra::inventory;
using dra::test::json;

namespace {

json podUsing(
    const std::string &name, const std::string &claimName, const std::string &templateClaim = {})
{
    json pod = test::podObject("ml", name);
    pod["spec"]["resourceClaims"] = { { { "name", "gpu" }, { "resourceClaimName", claimName } } };
    if (!templateClaim.empty()) {
        pod["spec"]["resourceClaims"].push_back(
            { { "name", "scratch" }, { "resourceClaimTemplateName", "t" } });
        pod["status"]["resourceClaimStatuses"]
            = { { { "name", "scratch" }, { "resourceClaimName", templateClaim } } };
    }
    return pod;
}

} // namespace

TEST(SummariesTest, NodesClaimsPodsAndClassesOfASmallCluster)
{
    const SnapshotPtr snapshot = test::snapshotOf(test::listOf({
        test::nodeObject("n1"),
        test::sliceObject("n1", "n1",
            { test::gpuDevice("gpu-0"), test::gpuDevice("gpu-1"), test::gpuDevice("gpu-2") }),
        test::sliceObject("n2", "n2", { test::gpuDevice("gpu-0") }),
        test::claimObject("ml", "a", "n1", { "gpu-0", "gpu-1" }, { "p1", "gone" }),
        test::claimObject("ml", "b", "n1", {}, {}),
        test::claimObject("ml", "scratch-x", "n1", { "gpu-2" }, { "p1" }),
        podUsing("p1", "a", "scratch-x"),
        podUsing("p2", "nope"),
        test::deviceClass("gpu.example.com", "device.driver == 'gpu.example.com'"),
        test::deviceClass("other", "device.driver == 'other.example.com'"),
    }));

    const std::vector<NodeSummary> nodes = nodeSummaries(*snapshot);
    ASSERT_EQ(nodes.size(), 2u);
    EXPECT_EQ(nodes[0].name, "n1");
    EXPECT_EQ(nodes[0].status, "Ready");
    EXPECT_EQ(nodes[0].devices, 3);
    EXPECT_EQ(nodes[0].allocated, 3);
    EXPECT_EQ(nodes[0].free, 0);
    EXPECT_EQ(nodes[0].pods, 2) << "both test pods are bound to n1";
    EXPECT_EQ(nodes[0].drivers, (std::vector<std::string> { "gpu.example.com" }));
    EXPECT_EQ(nodes[1].name, "n2");
    EXPECT_EQ(nodes[1].node, nullptr) << "only a slice names n2";
    EXPECT_EQ(nodes[1].free, 1);

    const std::vector<ClaimSummary> claims = claimSummaries(*snapshot);
    ASSERT_EQ(claims.size(), 3u);
    EXPECT_EQ(claims[0].claim->meta.name, "a");
    EXPECT_EQ(claims[0].state, "allocated,reserved");
    EXPECT_EQ(claims[0].node, "n1");
    EXPECT_EQ(claims[0].devices.size(), 2u);
    EXPECT_EQ(claims[0].pods, (std::vector<std::string> { "p1", "gone" }));
    EXPECT_EQ(claims[0].missingPods, (std::vector<std::string> { "gone" }));
    EXPECT_EQ(claims[1].state, "pending");
    EXPECT_TRUE(claims[1].node.empty());

    const std::vector<PodSummary> pods = podSummaries(*snapshot);
    ASSERT_EQ(pods.size(), 2u);
    ASSERT_EQ(pods[0].claims.size(), 2u);
    EXPECT_EQ(pods[0].claims[0].name, "a");
    EXPECT_EQ(pods[0].claims[1].name, "scratch-x")
        << "a template's claim is found through the pod status";
    EXPECT_EQ(pods[1].pendingClaims, (std::vector<std::string> { "gpu" }));

    const std::vector<ClassSummary> classes = classSummaries(*snapshot);
    ASSERT_EQ(classes.size(), 2u);
    EXPECT_EQ(classes[0].devices, 4);
    EXPECT_EQ(classes[0].free, 1);
    EXPECT_EQ(classes[0].requestedBy, 3);
    EXPECT_EQ(classes[1].devices, 0);
    EXPECT_EQ(classes[1].requestedBy, 0);
}
