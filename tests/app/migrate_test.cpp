// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl migrate plan as a user runs it: on the demo preset, on a cache imported from the same
// inventory (where `dractl console-api migration` must answer the same document), in another
// release, and the RolloutPlan it writes fed back to `dractl rollout plan`.
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "tests/support/dractl_run.h"

namespace {

using dra::test::dractl;
using dra::test::DractlRun;
using nlohmann::json;

const json *workloadOf(const json &plan, const std::string &ns, const std::string &name)
{
    for (const json &w : plan["workloads"])
        if (w["namespace"] == ns && w["name"] == name)
            return &w;
    return nullptr;
}

TEST(MigrateCommandTest, TheDemosDevicePluginServerGetsAProposalAndAVerdict)
{
    const DractlRun run
        = dractl({ QStringLiteral("migrate"), QStringLiteral("plan"), QStringLiteral("--demo"),
            QStringLiteral("mixed"), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_TRUE(run.exitCode == 0 || run.exitCode == 1) << run.err;
    const json plan = run.document();
    ASSERT_FALSE(plan.is_discarded()) << run.out;
    EXPECT_EQ(plan["kubernetesVersion"], "1.36");
    EXPECT_EQ(plan["extendedResourcesFromDra"], true);
    const json *llm = workloadOf(plan, "inference", "llm-server");
    ASSERT_NE(llm, nullptr) << plan.dump();
    EXPECT_EQ((*llm)["kind"], "Deployment");
    EXPECT_EQ((*llm)["extendedResources"][0]["resource"], "nvidia.com/gpu");
    EXPECT_EQ((*llm)["proposal"]["form"], "extendedResourceClass");
    EXPECT_TRUE((*llm)["verdict"].contains("fits"));
    EXPECT_EQ(run.exitCode, (*llm)["verdict"]["fits"].get<bool>() ? 0 : 1);

    // Kubernetes 1.34 serves no DRA-backed extended resources: a template and the pod change.
    const DractlRun old = dractl({ QStringLiteral("migrate"), QStringLiteral("plan"),
        QStringLiteral("--demo"), QStringLiteral("mixed"), QStringLiteral("--kubernetes-version"),
        QStringLiteral("1.34"), QStringLiteral("--namespace"), QStringLiteral("inference"),
        QStringLiteral("-o"), QStringLiteral("json") });
    const json oldPlan = old.document();
    const json *templated = workloadOf(oldPlan, "inference", "llm-server");
    ASSERT_NE(templated, nullptr) << old.out << old.err;
    EXPECT_EQ((*templated)["proposal"]["form"], "claimTemplate");
    EXPECT_FALSE((*templated)["proposal"]["manifests"].get<std::string>().empty());
    EXPECT_TRUE((*templated)["proposal"]["podTemplateChange"].contains("resourceClaims"));
    for (const json &w : oldPlan["workloads"])
        EXPECT_EQ(w["namespace"], "inference");

    // A preset of an older release plans in that release.
    const DractlRun preset
        = dractl({ QStringLiteral("migrate"), QStringLiteral("plan"), QStringLiteral("--demo"),
            QStringLiteral("mixed-1.34"), QStringLiteral("-o"), QStringLiteral("json") });
    const json presetPlan = preset.document();
    EXPECT_EQ(presetPlan["kubernetesVersion"], "1.34") << preset.out << preset.err;
    EXPECT_EQ(presetPlan["extendedResourcesFromDra"], false);
}

TEST(MigrateCommandTest, TheRolloutPlanItWritesIsAcceptedByRolloutPlan)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const DractlRun written = dractl({ QStringLiteral("migrate"), QStringLiteral("plan"),
        QStringLiteral("--demo"), QStringLiteral("mixed"), QStringLiteral("--rollout-plan"),
        QStringLiteral("inference/llm-server"), QStringLiteral("-o"), QStringLiteral("yaml") });
    ASSERT_EQ(written.exitCode, 0) << written.err;
    const QString file
        = dra::test::writeTestFile(dir.filePath(QStringLiteral("plan.yaml")), written.out);
    const DractlRun checked = dractl({ QStringLiteral("rollout"), QStringLiteral("plan"), file,
        QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(checked.exitCode, 0) << checked.err << "\n" << written.out;
    const json plan = checked.document();
    EXPECT_EQ(plan["metadata"]["name"], "llm-server-to-dra");
    EXPECT_EQ(plan["spec"]["baseline"]["deployment"], "llm-server");
    EXPECT_EQ(plan["spec"]["variant"]["podTemplate"]["removeResources"],
        json::array({ "nvidia.com/gpu" }));
    const json &request = plan["spec"]["variant"]["resourceClaimTemplate"]["spec"]["spec"]
                              ["devices"]["requests"][0]["exactly"];
    EXPECT_EQ(request["deviceClassName"], "gpu.nvidia.com");
    EXPECT_EQ(plan["spec"]["traffic"]["mode"], "HTTPRoute") << "the demo routes llm-server";

    // A workload that is not a Deployment gets the reason, not a plan.
    const DractlRun missing = dractl({ QStringLiteral("migrate"), QStringLiteral("plan"),
        QStringLiteral("--demo"), QStringLiteral("mixed"), QStringLiteral("--rollout-plan"),
        QStringLiteral("no-such-workload") });
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_NE(missing.err.find("no-such-workload"), std::string::npos) << missing.err;
}

TEST(MigrateCommandTest, TheConsoleApiAnswersTheDocumentTheCommandPrints)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const DractlRun list = dractl({ QStringLiteral("demo-inventory"), QStringLiteral("--preset"),
        QStringLiteral("mixed"), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(list.exitCode, 0) << list.err;
    const QString inventory
        = dra::test::writeTestFile(dir.filePath(QStringLiteral("mixed.json")), list.out);
    const QString cache = dir.filePath(QStringLiteral("cache.db"));
    const DractlRun imported
        = dractl({ QStringLiteral("import"), QStringLiteral("--cache"), cache, inventory });
    ASSERT_EQ(imported.exitCode, 0) << imported.err;

    const DractlRun printed = dractl({ QStringLiteral("migrate"), QStringLiteral("plan"),
        QStringLiteral("--cache"), cache, QStringLiteral("-o"), QStringLiteral("json") });
    const DractlRun served = dractl({ QStringLiteral("console-api"), QStringLiteral("migration"),
        QStringLiteral("--cache"), cache });
    ASSERT_EQ(served.exitCode, 0) << served.err;
    const json plan = printed.document();
    EXPECT_EQ(plan, served.document());
    EXPECT_NE(workloadOf(plan, "inference", "llm-server"), nullptr) << printed.out << printed.err;

    const DractlRun text = dractl(
        { QStringLiteral("migrate"), QStringLiteral("plan"), QStringLiteral("--cache"), cache });
    EXPECT_NE(text.out.find("Deployment inference/llm-server"), std::string::npos) << text.out;
}

} // namespace
