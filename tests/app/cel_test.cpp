// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `dractl cel check | eval` and `dractl bench cel` as a user runs them on the demo inventory:
// a process, its stdout and its exit status.
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/support/dractl_run.h"

namespace {

using dra::test::dractl;
using dra::test::DractlRun;
using nlohmann::json;

DractlRun check(const std::string &expr, const QStringList &options = {})
{
    return dractl(
        QStringList { QStringLiteral("cel"), QStringLiteral("check"), QStringLiteral("--expr"),
            QString::fromStdString(expr), QStringLiteral("-o"), QStringLiteral("json") }
        + options);
}

class CelCommandTest : public testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = new QTemporaryDir;
        s_inventory = new json(json::parse(dra::test::writeDemoInventory(inventory())));
    }
    static void TearDownTestSuite()
    {
        delete s_inventory;
        delete s_dir;
    }
    static QString inventory() { return s_dir->filePath(QStringLiteral("demo.json")); }

    // Devices of the demo inventory, and those of `driver`.
    static int deviceCount(const std::string &driver = {})
    {
        int n = 0;
        for (const json &item : (*s_inventory)["items"]) {
            if (item["kind"] != "ResourceSlice"
                || (!driver.empty() && item["spec"]["driver"] != driver))
                continue;
            n += static_cast<int>(item["spec"].value("devices", json::array()).size());
        }
        return n;
    }

    static DractlRun eval(const std::string &expr)
    {
        return dractl({ QStringLiteral("cel"), QStringLiteral("eval"), QStringLiteral("--expr"),
            QString::fromStdString(expr), QStringLiteral("--inventory"), inventory(),
            QStringLiteral("-o"), QStringLiteral("json") });
    }

    static inline QTemporaryDir *s_dir = nullptr;
    static inline json *s_inventory = nullptr;
};

} // namespace

TEST(CelCheckTest, ValidSelectorHasTypeAndCost)
{
    const DractlRun run = check(R"(device.driver == "gpu.nvidia.com")");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const json doc = run.document();
    EXPECT_EQ(doc["ok"], true);
    EXPECT_EQ(doc["type"], "bool");
    EXPECT_EQ(doc["cost"]["min"], 3);
    EXPECT_EQ(doc["cost"]["max"], 4); // comparing 14 characters costs ceil(1.4)
    EXPECT_TRUE(doc["diagnostics"].empty());
}

TEST(CelCheckTest, TypeErrorExitsTwoWithPosition)
{
    const DractlRun run = check("device.driver == 1");
    EXPECT_EQ(run.exitCode, 2);
    const json doc = run.document();
    EXPECT_EQ(doc["ok"], false);
    ASSERT_EQ(doc["diagnostics"].size(), 1u);
    EXPECT_EQ(doc["diagnostics"][0]["severity"], "error");
    EXPECT_EQ(doc["diagnostics"][0]["line"], 1);
    EXPECT_EQ(doc["diagnostics"][0]["column"], 15);
    EXPECT_EQ(doc["diagnostics"][0]["message"],
        "found no matching overload for '_==_' applied to '(string, int)'");
}

TEST(CelCheckTest, CostOverTheLimitIsRejected)
{
    const DractlRun run
        = check("device.attributes.all(d, device.attributes[d].all(n, "
                "device.attributes.all(d2, device.attributes[d2].all(n2, n == n2))))");
    EXPECT_EQ(run.exitCode, 2);
    const json doc = run.document();
    ASSERT_FALSE(doc["diagnostics"].empty());
    EXPECT_NE(
        doc["diagnostics"][0]["message"].get<std::string>().find("too complex"), std::string::npos);
}

TEST(CelCheckTest, KubernetesVersionAndGatesDecideWhatCompiles)
{
    const std::string expr = "device.allowMultipleAllocations";
    const DractlRun old
        = check(expr, { QStringLiteral("--kubernetes-version"), QStringLiteral("1.33") });
    EXPECT_EQ(old.exitCode, 2);
    const json oldDoc = old.document();
    ASSERT_FALSE(oldDoc["diagnostics"].empty()) << old.out;
    EXPECT_TRUE(oldDoc["diagnostics"][0]["message"].get<std::string>().starts_with(
        "undefined field 'allowMultipleAllocations'"));
    EXPECT_EQ(oldDoc["release"]["kubernetesVersion"], "1.33");

    const DractlRun gated = check(expr,
        { QStringLiteral("--kubernetes-version"), QStringLiteral("1.34"),
            QStringLiteral("--feature-gates"), QStringLiteral("DRAConsumableCapacity=true") });
    ASSERT_EQ(gated.exitCode, 0) << gated.out << gated.err;
    const json doc = gated.document();
    EXPECT_EQ(doc["release"]["kubernetesVersion"], "1.34");
    EXPECT_EQ(doc["release"]["from"], "as asked");
    EXPECT_EQ(doc["release"]["featureGates"]["DRAConsumableCapacity"], true);
    EXPECT_EQ(doc["release"]["stored"], false);
}

TEST(CelCheckTest, DefaultIsANewSelectorOfTheNewestRelease)
{
    const DractlRun run = check("device.driver == 'x'");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.document()["release"]["from"],
        "the newest release; the cluster's version is not known");
    const DractlRun text = dractl({ QStringLiteral("cel"), QStringLiteral("check"),
        QStringLiteral("--expr"), QStringLiteral("device.driver == 'x'") });
    EXPECT_NE(text.out.find("checked as a new selector in Kubernetes 1."), std::string::npos)
        << text.out;
}

TEST(CelCheckTest, StoredSelectorOverTheEstimateIsOnlyLimitedAtRunTime)
{
    const std::string expr = "device.attributes.all(d, device.attributes[d].all(n, "
                             "device.attributes.all(d2, device.attributes[d2].all(n2, n == n2))))";
    const DractlRun run = check(expr, { QStringLiteral("--stored") });
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    const json doc = run.document();
    EXPECT_EQ(doc["release"]["stored"], true);
    ASSERT_FALSE(doc["diagnostics"].empty());
    EXPECT_EQ(doc["diagnostics"][0]["severity"], "warning");
    EXPECT_GT(doc["cost"]["max"].get<uint64_t>(), 1000000u);
}

TEST(CelCheckTest, UnknownReleaseExitsTwo)
{
    const DractlRun run = check(
        "device.driver == 'x'", { QStringLiteral("--kubernetes-version"), QStringLiteral("1.29") });
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_NE(run.err.find("1.29"), std::string::npos) << run.err;
}

TEST(CelCheckTest, SyntaxErrorExitsTwo)
{
    const DractlRun run = check("device.driver ==");
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_EQ(run.document()["ok"], false);
}

TEST_F(CelCommandTest, EvalReportsEveryDevice)
{
    const DractlRun run = eval(R"(device.driver == "gpu.nvidia.com")");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const json doc = run.document();
    EXPECT_EQ(doc["matches"], deviceCount("gpu.nvidia.com"));
    EXPECT_EQ(doc["errors"], 0);
    ASSERT_EQ(doc["devices"].size(), static_cast<size_t>(deviceCount()));
    const json &first = doc["devices"][0];
    for (const char *field : { "node", "driver", "pool", "device", "result" })
        EXPECT_TRUE(first.contains(field)) << field;
}

TEST_F(CelCommandTest, EvalCountsRuntimeErrorsApart)
{
    // Every device lacks this attribute: a "no such key" error each, none a match.
    const DractlRun run = eval(R"(device.attributes["gpu.nvidia.com"].noSuchAttribute == 1)");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const json doc = run.document();
    EXPECT_EQ(doc["matches"], 0);
    EXPECT_EQ(doc["errors"], deviceCount());
    bool sawError = false;
    for (const json &d : doc["devices"])
        if (d["result"] == "error")
            sawError = d["error"].get<std::string>().find("no such key") != std::string::npos;
    EXPECT_TRUE(sawError);
}

TEST_F(CelCommandTest, EvalWarnsAboutUnknownDomains)
{
    const DractlRun run = eval(R"(device.attributes["gpu.nvidia.co"].model == "x")");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    bool warned = false;
    const json doc = run.document();
    for (const json &d : doc["diagnostics"])
        warned |= d["severity"] == "warning"
            && d["message"].get<std::string>().find("did you mean \"gpu.nvidia.com\"")
                != std::string::npos;
    EXPECT_TRUE(warned) << run.out;
}

TEST_F(CelCommandTest, EvalOfABrokenExpressionExitsTwo)
{
    const DractlRun run = eval("device.drivers == 'x'");
    EXPECT_EQ(run.exitCode, 2);
    const json doc = run.document();
    ASSERT_FALSE(doc["diagnostics"].empty());
    EXPECT_EQ(doc["diagnostics"][0]["message"], "undefined field 'drivers'");
}

TEST_F(CelCommandTest, BenchPrintsOneJsonLine)
{
    for (const char *binding : { "k8s", "plain" }) {
        const DractlRun run = dractl({ QStringLiteral("bench"), QStringLiteral("cel"),
            QStringLiteral("--inventory"), inventory(), QStringLiteral("--expr"),
            QStringLiteral(R"(device.driver == "gpu.nvidia.com")"), QStringLiteral("--runs"),
            QStringLiteral("2"), QStringLiteral("--warmup"), QStringLiteral("0"),
            QStringLiteral("--binding"), QLatin1String(binding) });
        ASSERT_EQ(run.exitCode, 0) << run.err;
        const json line = run.document();
        EXPECT_EQ(line["devices"], deviceCount());
        EXPECT_EQ(line["matches"], deviceCount("gpu.nvidia.com"));
        EXPECT_EQ(line["errors"], 0);
        for (const char *field : { "ns_per_device", "compile_us", "load_ms" })
            EXPECT_TRUE(line[field].is_number()) << field;
    }
}
