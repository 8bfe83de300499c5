// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl as a user runs it: a real process, real files, its stdout, stderr and exit status.
#include <map>
#include <vector>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/support/dractl_run.h"
#include "tests/support/upstream.h"

namespace {

using dra::test::dractl;
using dra::test::DractlRun;

class DractlTest : public testing::Test
{
protected:
    QString cache() const { return m_dir.filePath(QStringLiteral("cache.db")); }
    QString dump() const
    {
        return QString::fromStdString(dra::test::testDataPath("app/cluster-dump.yaml").string());
    }
    QTemporaryDir m_dir;
};

} // namespace

TEST_F(DractlTest, ImportKeepsValidObjectsAndNamesTheRejectedOne)
{
    const DractlRun run = dractl({ QStringLiteral("import"), QStringLiteral("--cache"), cache(),
        QStringLiteral("--cluster"), QStringLiteral("prod"), dump() });
    EXPECT_EQ(run.exitCode, 1) << "a rejected document makes the exit status say so";
    EXPECT_NE(run.out.find("1 DeviceClass, 1 ResourceClaim, 1 ResourceSlice"), std::string::npos)
        << run.out;
    EXPECT_NE(run.err.find("cluster-dump.yaml:"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("ResourceClaim ml/broken"), std::string::npos) << run.err;

    const DractlRun again = dractl({ QStringLiteral("import"), QStringLiteral("--cache"), cache(),
        QStringLiteral("--cluster"), QStringLiteral("prod"), dump() });
    EXPECT_NE(again.out.find("0 added, 0 modified, 3 unchanged"), std::string::npos)
        << "importing the same dump twice changes nothing: " << again.out;
}

TEST_F(DractlTest, GetShowsKubectlTablesAndDevices)
{
    dractl({ QStringLiteral("import"), QStringLiteral("--cache"), cache(), dump() });
    const DractlRun slices = dractl({ QStringLiteral("get"), QStringLiteral("resourceslices"),
        QStringLiteral("--cache"), cache() });
    ASSERT_EQ(slices.exitCode, 0) << slices.err;
    EXPECT_EQ(slices.out.rfind("NAME", 0), 0u);
    EXPECT_NE(slices.out.find("NODE"), std::string::npos);
    EXPECT_NE(slices.out.find(
                  "gpu-node-1-gpu.nvidia.com-x7k2p   gpu-node-1   gpu.nvidia.com   gpu-node-1"),
        std::string::npos)
        << slices.out;

    const DractlRun claims = dractl({ QStringLiteral("get"), QStringLiteral("resourceclaims"),
        QStringLiteral("-A"), QStringLiteral("--cache"), cache() });
    EXPECT_NE(claims.out.find("NAMESPACE   NAME         STATE"), std::string::npos) << claims.out;
    EXPECT_NE(claims.out.find("allocated,reserved"), std::string::npos) << claims.out;

    const DractlRun devices = dractl({ QStringLiteral("get"), QStringLiteral("devices"),
        QStringLiteral("--cache"), cache(), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(devices.exitCode, 0) << devices.err;
    const auto json = nlohmann::json::parse(devices.out);
    ASSERT_EQ(json["devices"].size(), 2u);
    EXPECT_EQ(
        json["devices"][0]["attributes"]["gpu.nvidia.com/productName"], "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(json["devices"][0]["capacity"]["gpu.nvidia.com/memory"], "80Gi");
    EXPECT_TRUE(json["devices"][0]["heldBy"].empty());
    EXPECT_EQ(json["devices"][1]["heldBy"][0], "ml/train-gpus");

    const DractlRun missing = dractl({ QStringLiteral("get"), QStringLiteral("deviceclass"),
        QStringLiteral("nope"), QStringLiteral("--cache"), cache() });
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_NE(
        missing.err.find("deviceclasses.resource.k8s.io \"nope\" not found"), std::string::npos)
        << missing.err;
}

TEST_F(DractlTest, ExportConvertsAndReimportsToTheSameInventory)
{
    dractl({ QStringLiteral("import"), QStringLiteral("--cache"), cache(), dump() });
    const DractlRun v1 = dractl({ QStringLiteral("export"), QStringLiteral("--cache"), cache(),
        QStringLiteral("-o"), QStringLiteral("json"), QStringLiteral("--api-version"),
        QStringLiteral("resource.k8s.io/v1") });
    ASSERT_EQ(v1.exitCode, 0) << v1.err;
    const auto list = nlohmann::json::parse(v1.out);
    EXPECT_EQ(list["kind"], "List");
    ASSERT_EQ(list["items"].size(), 3u);
    for (const auto &item : list["items"])
        EXPECT_EQ(item["apiVersion"], "resource.k8s.io/v1");
    const auto slice = std::find_if(list["items"].begin(), list["items"].end(),
        [](const auto &item) { return item["kind"] == "ResourceSlice"; });
    ASSERT_NE(slice, list["items"].end());
    EXPECT_FALSE((*slice)["spec"]["devices"][0].contains("basic")) << "v1 devices are flat";
    EXPECT_EQ((*slice)["spec"]["devices"][0]["capacity"]["memory"]["value"], "80Gi");

    // The exported file is itself importable, into another cache, with the same devices.
    const QString exported = m_dir.filePath(QStringLiteral("v1.json"));
    QFile file(exported);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(v1.out));
    file.close();
    const QString second = m_dir.filePath(QStringLiteral("second.db"));
    EXPECT_EQ(
        dractl({ QStringLiteral("import"), QStringLiteral("--cache"), second, exported }).exitCode,
        0);
    const DractlRun a = dractl({ QStringLiteral("get"), QStringLiteral("devices"),
        QStringLiteral("--cache"), cache(), QStringLiteral("-o"), QStringLiteral("json") });
    const DractlRun b = dractl({ QStringLiteral("get"), QStringLiteral("devices"),
        QStringLiteral("--cache"), second, QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(nlohmann::json::parse(a.out), nlohmann::json::parse(b.out));
}

TEST_F(DractlTest, EveryCommandHasHelpAndVersion)
{
    for (const char *command : { "import", "get", "export", "demo-inventory", "cache" }) {
        const DractlRun help = dractl({ QString::fromLatin1(command), QStringLiteral("--help") });
        EXPECT_EQ(help.exitCode, 0) << command;
        EXPECT_NE(help.out.find("Usage:"), std::string::npos) << command;
        const DractlRun version
            = dractl({ QString::fromLatin1(command), QStringLiteral("--version") });
        EXPECT_EQ(version.exitCode, 0) << command;
    }
    EXPECT_NE(dractl({ QStringLiteral("--version") }).out.find("dractl "), std::string::npos);
    EXPECT_EQ(dractl({ QStringLiteral("no-such-command") }).exitCode, 2);
}

TEST_F(DractlTest, GroupsListTheirSubcommandsAndKeepTheirCommandLines)
{
    const std::map<std::string, std::vector<std::string>> groups {
        { "rollout", { "plan FILE", "promote NAME", "retry-gate NAME --gate G", "audit [NAME]" } },
        { "bench", { "ingest", "snapshot", "cel" } },
        { "cache", { "info", "check", "rebuild", "reset" } },
        { "cel", { "check --expr EXPRESSION", "eval --expr EXPRESSION" } },
        { "sandbox", { "fault" } },
        { "sandbox fault", { "add KIND", "list", "clear [KIND]" } },
        { "template", { "fields FILE", "set FILE" } },
    };
    for (const auto &[group, subcommands] : groups) {
        const QStringList words = QString::fromStdString(group).split(QLatin1Char(' '));
        const DractlRun help = dractl(words + QStringList { QStringLiteral("--help") });
        EXPECT_EQ(help.exitCode, 0) << group;
        EXPECT_EQ(help.out.rfind("Usage: dractl " + group + " <command>", 0), 0u) << help.out;
        for (const std::string &subcommand : subcommands)
            EXPECT_NE(help.out.find("\n  " + subcommand + " "), std::string::npos)
                << group << " lists " << subcommand << ":\n"
                << help.out;
        const DractlRun unknown = dractl(words + QStringList { QStringLiteral("no-such") });
        EXPECT_EQ(unknown.exitCode, 2) << group;
        EXPECT_NE(unknown.err.find("unknown command 'no-such'"), std::string::npos) << unknown.err;
    }
    const DractlRun promote = dractl(
        { QStringLiteral("rollout"), QStringLiteral("promote"), QStringLiteral("--help") });
    EXPECT_EQ(promote.exitCode, 0);
    EXPECT_EQ(promote.out.rfind("Usage: dractl rollout promote", 0), 0u) << promote.out;
    EXPECT_NE(promote.out.find("--accept-inconclusive"), std::string::npos) << promote.out;

    // Options before the subcommand, as `dractl cache --cache FILE info` always worked.
    ASSERT_EQ(
        dractl({ QStringLiteral("import"), QStringLiteral("--cache"), cache(), dump() }).exitCode,
        1);
    const DractlRun after = dractl({ QStringLiteral("cache"), QStringLiteral("info"),
        QStringLiteral("--cache"), cache(), QStringLiteral("-o"), QStringLiteral("json") });
    const DractlRun before = dractl({ QStringLiteral("cache"), QStringLiteral("--cache"), cache(),
        QStringLiteral("-o"), QStringLiteral("json"), QStringLiteral("info") });
    ASSERT_EQ(after.exitCode, 0) << after.err;
    EXPECT_EQ(before.exitCode, 0) << before.err;
    EXPECT_EQ(before.out, after.out);
    EXPECT_NE(after.out.find("\"ResourceSlice\""), std::string::npos) << after.out;
}

TEST_F(DractlTest, RetentionOptionsReadDurationsAndSizesAlike)
{
    // `sync --retain` and `history prune --max-age` once read "7d" through different parsers.
    const DractlRun sync
        = dractl({ QStringLiteral("sync"), QStringLiteral("--retain"), QStringLiteral("1w"),
            QStringLiteral("--kubeconfig"), m_dir.filePath(QStringLiteral("none")) });
    const DractlRun prune = dractl({ QStringLiteral("history"), QStringLiteral("prune"),
        QStringLiteral("--cache"), cache(), QStringLiteral("--max-age"), QStringLiteral("1w") });
    EXPECT_EQ(sync.exitCode, 1);
    EXPECT_EQ(prune.exitCode, 1);
    EXPECT_NE(sync.err.find("--retain 1w: expected a duration such as"), std::string::npos)
        << sync.err;
    EXPECT_NE(prune.err.find("--max-age 1w: expected a duration such as"), std::string::npos)
        << prune.err;
    const DractlRun size = dractl({ QStringLiteral("history"), QStringLiteral("prune"),
        QStringLiteral("--cache"), cache(), QStringLiteral("--max-size"), QStringLiteral("lots") });
    EXPECT_NE(size.err.find("--max-size lots: expected a size such as"), std::string::npos)
        << size.err;

    ASSERT_EQ(
        dractl({ QStringLiteral("import"), QStringLiteral("--cache"), cache(), dump() }).exitCode,
        1);
    const DractlRun pruned = dractl({ QStringLiteral("history"), QStringLiteral("prune"),
        QStringLiteral("--cache"), cache(), QStringLiteral("--max-age"), QStringLiteral("1d12h"),
        QStringLiteral("--max-size"), QStringLiteral("2GiB") });
    EXPECT_EQ(pruned.exitCode, 0) << pruned.err;
    EXPECT_NE(pruned.out.find("0 changes removed"), std::string::npos) << pruned.out;
}

TEST_F(DractlTest, ACacheThatIsNotOursIsAClearErrorNotACrash)
{
    QFile foreign(cache());
    ASSERT_TRUE(foreign.open(QIODevice::WriteOnly));
    foreign.write("this is a text file, not a cache\n");
    foreign.close();
    const DractlRun run = dractl(
        { QStringLiteral("get"), QStringLiteral("nodes"), QStringLiteral("--cache"), cache() });
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_NE(run.err.find(cache().toStdString()), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("rebuild"), std::string::npos) << run.err;
}

// The demo generator's YAML goes through import unchanged: every device comes back.
TEST_F(DractlTest, DemoInventoryYamlImportsCompletely)
{
    const DractlRun generated = dractl({ QStringLiteral("demo-inventory"),
        QStringLiteral("--preset"), QStringLiteral("h100-sxm"), QStringLiteral("--nodes"),
        QStringLiteral("2"), QStringLiteral("-o"), QStringLiteral("yaml") });
    ASSERT_EQ(generated.exitCode, 0) << generated.err;
    const QString yaml = m_dir.filePath(QStringLiteral("h100.yaml"));
    QFile file(yaml);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(generated.out));
    file.close();

    const DractlRun imported
        = dractl({ QStringLiteral("import"), QStringLiteral("--cache"), cache(), yaml });
    ASSERT_EQ(imported.exitCode, 0) << imported.err << imported.out;

    const DractlRun json = dractl({ QStringLiteral("demo-inventory"), QStringLiteral("--preset"),
        QStringLiteral("h100-sxm"), QStringLiteral("--nodes"), QStringLiteral("2") });
    const auto inventory = nlohmann::json::parse(json.out);
    size_t expectedDevices = 0;
    for (const auto &item : inventory["items"])
        if (item["kind"] == "ResourceSlice" && item["spec"].contains("devices"))
            expectedDevices += item["spec"]["devices"].size();
    ASSERT_GE(expectedDevices, 16u) << "2 nodes x 8 GPUs, plus NICs";

    const DractlRun devices = dractl({ QStringLiteral("get"), QStringLiteral("devices"),
        QStringLiteral("--cache"), cache(), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(devices.exitCode, 0) << devices.err;
    EXPECT_EQ(nlohmann::json::parse(devices.out)["devices"].size(), expectedDevices);

    // The exported inventory equals what was generated, object by object.
    const DractlRun exported = dractl({ QStringLiteral("export"), QStringLiteral("--cache"),
        cache(), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(exported.exitCode, 0) << exported.err;
    std::map<std::string, nlohmann::json> generatedSlices;
    for (const auto &item : inventory["items"])
        if (item["kind"] == "ResourceSlice")
            generatedSlices[item["metadata"]["name"]] = item;
    size_t compared = 0;
    const nlohmann::json exportedList = nlohmann::json::parse(exported.out);
    for (const auto &item : exportedList["items"]) {
        if (item["kind"] != "ResourceSlice")
            continue;
        EXPECT_EQ(item, generatedSlices[item["metadata"]["name"]]);
        ++compared;
    }
    EXPECT_EQ(compared, generatedSlices.size());
}

// A node of the demo inventory, drawn from the cache: its eight GPUs, and a clear error for a
// node the cache does not hold.
TEST_F(DractlTest, TopologyDrawsANodeFromTheCache)
{
    const DractlRun generated
        = dractl({ QStringLiteral("demo-inventory"), QStringLiteral("--preset"),
            QStringLiteral("h100-sxm"), QStringLiteral("--nodes"), QStringLiteral("1") });
    ASSERT_EQ(generated.exitCode, 0) << generated.err;
    const QString file = m_dir.filePath(QStringLiteral("h100.json"));
    QFile out(file);
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(generated.out));
    out.close();
    ASSERT_EQ(
        dractl({ QStringLiteral("import"), QStringLiteral("--cache"), cache(), file }).exitCode, 0);
    const auto inventory = nlohmann::json::parse(generated.out);
    std::string node;
    for (const auto &item : inventory["items"])
        if (item["kind"] == "Node")
            node = item["metadata"]["name"];
    ASSERT_FALSE(node.empty());

    const DractlRun json = dractl({ QStringLiteral("topology"), QString::fromStdString(node),
        QStringLiteral("--cache"), cache(), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto graph = nlohmann::json::parse(json.out);
    size_t gpus = 0;
    for (const auto &device : graph["devices"])
        if (device.value("kind", "") == "gpu")
            ++gpus;
    EXPECT_EQ(gpus, 8u) << json.out.substr(0, 400);
    EXPECT_FALSE(graph["links"].empty());

    const DractlRun svg = dractl({ QStringLiteral("topology"), QString::fromStdString(node),
        QStringLiteral("--cache"), cache(), QStringLiteral("-o"), QStringLiteral("svg") });
    EXPECT_EQ(svg.exitCode, 0) << svg.err;
    EXPECT_NE(svg.out.find("<svg"), std::string::npos);

    const DractlRun missing = dractl({ QStringLiteral("topology"), QStringLiteral("no-such-node"),
        QStringLiteral("--cache"), cache() });
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_NE(missing.err.find("no-such-node"), std::string::npos) << missing.err;
}
