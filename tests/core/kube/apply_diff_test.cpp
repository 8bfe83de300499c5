// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/apply_diff.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/kube/server_side_apply.h"

namespace dra::kube {
namespace {

using nlohmann::json;

TEST(ApplyDiffTest, EqualTextsHaveNoDiff)
{
    EXPECT_EQ(unifiedDiff("a\nb\n", "a\nb\n", "x", "y"), "");
}

TEST(ApplyDiffTest, OneChangedLineIsAPairWithContext)
{
    const std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    const std::string after = "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n";
    EXPECT_EQ(unifiedDiff(before, after, "live/x", "dry-run/x"),
        "--- live/x\n+++ dry-run/x\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n");
}

TEST(ApplyDiffTest, DistantChangesAreSeparateHunksAndACreationIsAllAdded)
{
    std::string before, after;
    for (int i = 1; i <= 20; ++i) {
        before += std::to_string(i) + "\n";
        after += (i == 2           ? std::string("two")
                         : i == 19 ? std::string("nineteen")
                                   : std::to_string(i))
            + "\n";
    }
    const std::string diff = unifiedDiff(before, after, "a", "b");
    EXPECT_NE(diff.find("@@ -1,5 +1,5 @@"), std::string::npos) << diff;
    EXPECT_NE(diff.find("@@ -16,5 +16,5 @@"), std::string::npos) << diff;
    EXPECT_EQ(unifiedDiff("", "x\ny\n", "/dev/null", "b"),
        "--- /dev/null\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n");
}

TEST(ApplyDiffTest, VolatileMetadataIsNotAChange)
{
    const json live = { { "apiVersion", "v1" }, { "kind", "Namespace" },
        { "metadata",
            { { "name", "ml" }, { "resourceVersion", "7" }, { "uid", "u" }, { "generation", 2 },
                { "creationTimestamp", "2026-01-01T00:00:00Z" },
                { "managedFields", json::array() } } } };
    json dryRun = live;
    dryRun["metadata"]["resourceVersion"] = "8";
    dryRun["metadata"]["managedFields"] = json::array({ { { "manager", "dractl" } } });
    EXPECT_EQ(comparableObject(live), comparableObject(dryRun));
    EXPECT_EQ(objectDiff(live, dryRun, "namespace/ml"), "");
    dryRun["metadata"]["labels"] = { { "team", "ml" } };
    const std::string diff = objectDiff(live, dryRun, "namespace/ml");
    EXPECT_NE(diff.find("+  labels:"), std::string::npos) << diff;
    EXPECT_EQ(diff.find("resourceVersion"), std::string::npos) << diff;
}

TEST(ApplyTargetTest, PathInTheManifestsVersionAndTheDefaultNamespace)
{
    const json claim = { { "apiVersion", "resource.k8s.io/v1beta2" },
        { "kind", "ResourceClaimTemplate" }, { "metadata", { { "name", "gpu" } } } };
    Result<ApplyTarget> target = applyTargetOf(claim, "ml");
    ASSERT_TRUE(target.has_value()) << target.error().message.toStdString();
    EXPECT_EQ(target->path,
        QStringLiteral("/apis/resource.k8s.io/v1beta2/namespaces/ml/resourceclaimtemplates/gpu"));
    EXPECT_EQ(target->label(), "resourceclaimtemplate.resource.k8s.io/gpu");
    const json klass = { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "DeviceClass" },
        { "metadata", { { "name", "g" } } } };
    EXPECT_EQ(applyTargetOf(klass, "ml")->path,
        QStringLiteral("/apis/resource.k8s.io/v1/deviceclasses/g"));
    // The rollout's kinds are applied in their own groups.
    const json deployment = { { "apiVersion", "apps/v1" }, { "kind", "Deployment" },
        { "metadata", { { "name", "d" } } } };
    EXPECT_EQ(applyTargetOf(deployment, "ml")->path,
        QStringLiteral("/apis/apps/v1/namespaces/ml/deployments/d"));
    const json unknown
        = { { "apiVersion", "batch/v1" }, { "kind", "Job" }, { "metadata", { { "name", "j" } } } };
    Result<ApplyTarget> refused = applyTargetOf(unknown, "ml");
    ASSERT_FALSE(refused.has_value());
    EXPECT_TRUE(refused.error().message.contains(QStringLiteral("Job")));
}

} // namespace
} // namespace dra::kube
