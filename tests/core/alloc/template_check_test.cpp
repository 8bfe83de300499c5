// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The template check every face shows: the editor as you type, `dractl template check`, the web
// console. Match counts, the simulation under the cluster's release, findings and the JSON form.
#include "core/alloc/template_check.h"

#include <gtest/gtest.h>

#include "core/model/manifest_reader.h"
#include "tests/support/inventory_fixtures.h"

namespace dra::alloc {
namespace {

// One GPU of at least `memory`: the editor's starting template with its selector changed.
std::string gpuTemplate(const std::string &selector
    = R"(device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0)")
{
    return R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: one-gpu-40gi
  namespace: default
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          selectors:
          - cel:
              expression: )"
        + selector + "\n";
}

const inventory::SnapshotPtr &mixed()
{
    return dra::test::sharedPresetSnapshot("mixed", 2);
}

// The release the editor checks a snapshot in: the one its cluster reported.
release::ChosenRelease recordedOf(const inventory::SnapshotPtr &snapshot)
{
    return release::recordedRelease(snapshot->kubernetesVersion());
}

TEST(TemplateCheckTest, ExampleTemplateMatchesAndFits)
{
    SimulationClusterCache clusters;
    const TemplateCheck check
        = checkTemplate(mixed(), gpuTemplate(), clusters, recordedOf(mixed()));
    ASSERT_TRUE(check.error.empty()) << check.error;
    EXPECT_EQ(check.kind, "ResourceClaimTemplate");
    ASSERT_EQ(check.requests.size(), 1u);
    EXPECT_TRUE(check.requests[0].classExists);
    EXPECT_GT(check.requests[0].matching, 0);
    EXPECT_LE(check.requests[0].matching, check.requests[0].ofClass);
    ASSERT_TRUE(check.simulated);
    EXPECT_EQ(check.kubernetesMinor, release::newestReleaseMinor())
        << "a snapshot without a recorded version is simulated as the newest release";
    EXPECT_GT(check.copiesThatFit, 0);
    EXPECT_FALSE(check.nodesWhereOneFits.empty());
    EXPECT_FALSE(check.firstPlacementNode.empty());
    EXPECT_TRUE(check.findings().empty()) << testing::PrintToString(check.findings());

    const TemplateCheck quick = matchTemplate(*mixed(), gpuTemplate());
    EXPECT_FALSE(quick.simulated);
    ASSERT_EQ(quick.requests.size(), 1u);
    EXPECT_EQ(quick.requests[0].matching, check.requests[0].matching);
}

// The mixed demo inventory as the cache of a cluster that reports `version`.
inventory::SnapshotPtr mixedRecordedAs(const std::string &version)
{
    inventory::SnapshotSource source;
    source.cluster = "test";
    source.kubernetesVersion = version;
    source.objects = dra::test::recordsOf(dra::test::presetList("mixed", 2));
    source.rev = int64_t(source.objects.size());
    return inventory::buildSnapshot(std::move(source));
}

TEST(TemplateCheckTest, SelectorsCompileInTheClustersRelease)
{
    // device.allowMultipleAllocations exists from 1.34 for new selectors only with
    // DRAConsumableCapacity, alpha and off there: kube-apiserver 1.34 refuses the template.
    const std::string text = gpuTemplate("device.allowMultipleAllocations == false");
    SimulationClusterCache clusters;
    const inventory::SnapshotPtr cluster134 = mixedRecordedAs("v1.34.1");
    const TemplateCheck refused = checkTemplate(cluster134, text, clusters, recordedOf(cluster134));
    ASSERT_EQ(refused.requests.size(), 1u);
    EXPECT_EQ(refused.requests[0].selectorErrors.size(), 1u)
        << "accepted in 1.34 with the gate off";
    EXPECT_EQ(matchTemplate(*cluster134, text).requests[0].selectorErrors.size(), 1u)
        << "the quick check follows the same release";

    const TemplateCheck gated = checkTemplate(cluster134, text, clusters,
        *release::chooseRelease("v1.34.1", { "", "DRAConsumableCapacity=true" }));
    ASSERT_EQ(gated.requests.size(), 1u);
    EXPECT_TRUE(gated.requests[0].selectorErrors.empty())
        << testing::PrintToString(gated.requests[0].selectorErrors);
    EXPECT_GT(gated.requests[0].matching, 0);
    EXPECT_NE(gated.release.find("the cluster's version, v1.34.1"), std::string::npos)
        << gated.release;

    // The quick half, in a release chosen for the editor, compiles as the whole check does.
    const TemplateCheck quickGated = matchTemplate(*cluster134, text,
        *release::chooseRelease("v1.34.1", { "", "DRAConsumableCapacity=true" }));
    ASSERT_EQ(quickGated.requests.size(), 1u);
    EXPECT_TRUE(quickGated.requests[0].selectorErrors.empty());
    EXPECT_EQ(quickGated.requests[0].matching, gated.requests[0].matching);
    EXPECT_FALSE(quickGated.simulated);
    EXPECT_EQ(quickGated.release, gated.release);
}

TEST(TemplateCheckTest, ImpossibleSelectorIsExplainedPerNode)
{
    SimulationClusterCache clusters;
    const TemplateCheck check = checkTemplate(mixed(),
        gpuTemplate(R"(device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("4Ti")) >= 0)"),
        clusters, recordedOf(mixed()));
    ASSERT_TRUE(check.error.empty()) << check.error;
    EXPECT_EQ(check.requests[0].matching, 0);
    EXPECT_EQ(check.copiesThatFit, 0);
    EXPECT_FALSE(check.blocked.empty());
    EXPECT_FALSE(check.explanation.empty());
    ASSERT_EQ(check.findings().size(), 1u);
    EXPECT_EQ(check.findings()[0], "cannot be allocated: " + check.blocked);
}

TEST(TemplateCheckTest, BrokenTextWrongKindAndBadSelectorsAreClear)
{
    SimulationClusterCache clusters;
    const TemplateCheck broken
        = checkTemplate(mixed(), "kind: [unclosed", clusters, recordedOf(mixed()));
    EXPECT_NE(broken.error, "");
    EXPECT_TRUE(broken.findings().empty()) << "an unreadable text has an error, not findings";
    const TemplateCheck ns = checkTemplate(mixed(),
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n", clusters, recordedOf(mixed()));
    EXPECT_NE(ns.error.find("expected a ResourceClaimTemplate"), std::string::npos) << ns.error;

    const TemplateCheck selector
        = checkTemplate(mixed(), gpuTemplate("device.driver =="), clusters, recordedOf(mixed()));
    ASSERT_EQ(selector.requests.size(), 1u);
    ASSERT_EQ(selector.requests[0].selectorErrors.size(), 1u);
    EXPECT_EQ(selector.requests[0].selectorErrors[0].rfind("selectors[0]: ", 0), 0u);
    EXPECT_EQ(
        selector.findings().front(), "request gpu: " + selector.requests[0].selectorErrors[0]);

    std::string missingClass = gpuTemplate();
    missingClass.replace(missingClass.find("deviceClassName: gpu.nvidia.com"),
        std::string("deviceClassName: gpu.nvidia.com").size(), "deviceClassName: gpu.nvidia.comm");
    const TemplateCheck typo = checkTemplate(mixed(), missingClass, clusters, recordedOf(mixed()));
    ASSERT_FALSE(typo.findings().empty());
    EXPECT_EQ(typo.findings().front(), "request gpu: DeviceClass gpu.nvidia.comm does not exist");
}

TEST(TemplateCheckTest, TheObjectFormGivesWhatTheTextFormGives)
{
    SimulationClusterCache clusters;
    const TemplateCheck fromText
        = checkTemplate(mixed(), gpuTemplate(), clusters, recordedOf(mixed()));
    const model::ManifestSet manifests
        = model::readManifestText(gpuTemplate(), QStringLiteral("test"));
    ASSERT_EQ(manifests.documents.size(), 1u);
    const Result<model::Object> object = model::decodeObject(manifests.documents.front().object);
    ASSERT_TRUE(object.has_value());
    const Result<SimulationCluster> cluster = clusters.of(mixed());
    ASSERT_TRUE(cluster.has_value());
    const TemplateCheck fromObject = checkClaimObject(*mixed(), *object, *cluster);
    EXPECT_EQ(toJson(fromObject), toJson(fromText));
}

TEST(TemplateCheckTest, JsonHasRequestsReleaseAllocationAndFindingsButNoTimings)
{
    SimulationClusterCache clusters;
    const nlohmann::json good
        = toJson(checkTemplate(mixed(), gpuTemplate(), clusters, recordedOf(mixed())));
    EXPECT_EQ(good["kind"], "ResourceClaimTemplate");
    EXPECT_EQ(good["namespace"], "default");
    EXPECT_EQ(good["name"], "one-gpu-40gi");
    ASSERT_EQ(good["requests"].size(), 1u);
    EXPECT_EQ(good["requests"][0]["deviceClass"], "gpu.nvidia.com");
    EXPECT_GT(good["requests"][0]["matching"].get<int>(), 0);
    EXPECT_EQ(good["kubernetesVersion"], "1." + std::to_string(release::newestReleaseMinor()));
    EXPECT_GT(good["allocation"]["copiesThatFit"].get<int>(), 0);
    EXPECT_TRUE(good["allocation"].contains("firstNode"));
    EXPECT_EQ(good["findings"], nlohmann::json::array());
    EXPECT_EQ(good.dump().find("Ms\""), std::string::npos) << "timings vary; the JSON must not";
    EXPECT_EQ(toJson(checkTemplate(mixed(), gpuTemplate(), clusters, recordedOf(mixed()))), good);

    const nlohmann::json broken
        = toJson(checkTemplate(mixed(), "kind: [", clusters, recordedOf(mixed())));
    ASSERT_TRUE(broken.contains("error"));
    EXPECT_EQ(broken.size(), 1u) << broken.dump();
}

} // namespace
} // namespace dra::alloc
