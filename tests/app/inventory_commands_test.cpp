// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl lint, free, topology import and bench snapshot as a user runs them.
#include <set>

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

class InventoryCommandsTest : public testing::Test
{
protected:
    QString path(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    QString cache() const { return path("cache.db"); }
    QString state() const { return path("state.db"); }

    QString write(const char *name, const std::string &text) const
    {
        QFile file(path(name));
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(text));
        return file.fileName();
    }

    // Generates a demo preset, imports it and returns its List.
    nlohmann::json importPreset(const char *preset, const char *nodes)
    {
        const DractlRun generated = dractl({ QStringLiteral("demo-inventory"),
            QStringLiteral("--preset"), QString::fromLatin1(preset), QStringLiteral("--nodes"),
            QString::fromLatin1(nodes) });
        EXPECT_EQ(generated.exitCode, 0) << generated.err;
        const QString file = write("inventory.json", generated.out);
        const DractlRun imported
            = dractl({ QStringLiteral("import"), QStringLiteral("--cache"), cache(), file });
        EXPECT_EQ(imported.exitCode, 0) << imported.err;
        return nlohmann::json::parse(generated.out);
    }

    QTemporaryDir m_dir;
};

nlohmann::json parsed(const DractlRun &run)
{
    const auto json = nlohmann::json::parse(run.out, nullptr, false);
    EXPECT_FALSE(json.is_discarded()) << run.out << run.err;
    return json;
}

} // namespace

TEST_F(InventoryCommandsTest, LintAndFreeOnTheDemoCluster)
{
    importPreset("h100-sxm", "2");
    const DractlRun lint = dractl({ QStringLiteral("lint"), QStringLiteral("--cache"), cache(),
        QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(lint.exitCode, 0) << lint.err;
    const nlohmann::json findings = parsed(lint);
    EXPECT_EQ(findings["summary"]["error"], 0);
    EXPECT_EQ(findings["summary"]["warning"], 0) << lint.out;

    const DractlRun free = dractl(
        { QStringLiteral("free"), QStringLiteral("--cache"), cache(), QStringLiteral("--by"),
            QStringLiteral("node"), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(free.exitCode, 0) << free.err;
    const nlohmann::json capacity = parsed(free);
    EXPECT_EQ(capacity["by"], "node");
    ASSERT_EQ(capacity["groups"].size(), 2u);
    EXPECT_EQ(capacity["groups"][0]["group"], "h100-000");
    EXPECT_EQ(capacity["groups"][0]["devices"]["total"], 16) << "8 GPUs and 8 NICs";
    EXPECT_EQ(capacity["groups"][0]["whole"]["total"], 16);
    EXPECT_EQ(capacity["total"]["devices"]["total"], 32);
    const int allocated = capacity["total"]["devices"]["allocated"];
    EXPECT_EQ(capacity["total"]["devices"]["free"], 32 - allocated);

    const DractlRun table = dractl({ QStringLiteral("free"), QStringLiteral("--cache"), cache(),
        QStringLiteral("--by"), QStringLiteral("model") });
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_EQ(table.out.rfind("MODEL", 0), 0u) << table.out;
    EXPECT_NE(table.out.find("NVIDIA H100 80GB HBM3"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("TOTAL"), std::string::npos) << table.out;

    EXPECT_EQ(dractl({ QStringLiteral("free"), QStringLiteral("--cache"), cache(),
                         QStringLiteral("--by"), QStringLiteral("rack") })
                  .exitCode,
        1);
}

TEST_F(InventoryCommandsTest, LintNamesTheObjectsAndFailsOnErrors)
{
    const std::string dump = R"(
apiVersion: v1
kind: List
items:
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: n1-a}
  spec:
    driver: gpu.example.com
    nodeName: n1
    pool: {name: n1, generation: 1, resourceSliceCount: 2}
    devices:
    - {name: gpu-0}
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: n1-b}
  spec:
    driver: gpu.example.com
    nodeName: n1
    pool: {name: n1, generation: 1, resourceSliceCount: 2}
    devices:
    - {name: gpu-0}
- apiVersion: resource.k8s.io/v1
  kind: ResourceClaim
  metadata: {name: leaked, namespace: ml}
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
  status:
    allocation:
      devices:
        results:
        - {request: gpu, driver: gpu.example.com, pool: n1, device: gpu-0}
)";
    const QString file = write("broken.yaml", dump);
    ASSERT_EQ(
        dractl({ QStringLiteral("import"), QStringLiteral("--cache"), cache(), file }).exitCode, 0);
    const DractlRun lint = dractl({ QStringLiteral("lint"), QStringLiteral("--cache"), cache(),
        QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(lint.exitCode, 1) << "a duplicate device name is an error";
    const nlohmann::json findings = parsed(lint)["findings"];
    std::set<std::string> codes;
    for (const auto &finding : findings)
        codes.insert(finding["code"].get<std::string>());
    EXPECT_TRUE(codes.contains("PoolDuplicateDevice")) << lint.out;
    EXPECT_TRUE(codes.contains("ClaimAllocatedNotReserved")) << lint.out;
    const auto leaked = std::ranges::find_if(
        findings, [](const auto &f) { return f["code"] == "ClaimAllocatedNotReserved"; });
    ASSERT_NE(leaked, findings.end());
    EXPECT_EQ((*leaked)["objects"][0],
        (nlohmann::json { { "group", "resource.k8s.io" }, { "kind", "ResourceClaim" },
            { "namespace", "ml" }, { "name", "leaked" } }));

    const DractlRun text = dractl({ QStringLiteral("lint"), QStringLiteral("--cache"), cache() });
    EXPECT_EQ(text.exitCode, 1);
    EXPECT_EQ(text.out.rfind("error: [PoolDuplicateDevice]", 0), 0u) << text.out;
    EXPECT_NE(text.out.find("ResourceClaim ml/leaked"), std::string::npos) << text.out;
}

// The imported matrix is stored per node in the state file, and later drawings use it.
TEST_F(InventoryCommandsTest, TopologyImportIsStoredAndUsed)
{
    DRA_REQUIRE_UPSTREAM(sample, "topology/hgx-h100-8gpu-10nic.txt");
    const nlohmann::json inventory = importPreset("h100-sxm", "1");
    // nvidia-smi numbers GPUs its own way: index k is the DRA device gpu-(7-k) here, known only
    // by bus ID.
    std::map<std::string, std::pair<std::string, std::string>> identities; // device -> bus ID, UUID
    for (const auto &item : inventory["items"])
        if (item["kind"] == "ResourceSlice" && item["spec"]["driver"] == "gpu.nvidia.com")
            for (const auto &device : item["spec"]["devices"])
                identities[device["name"]]
                    = { device["attributes"]["resource.kubernetes.io/pciBusID"]["string"],
                          device["attributes"]["uuid"]["string"] };
    ASSERT_EQ(identities.size(), 8u);
    std::string csv = "index, pci.bus_id, uuid\n";
    for (int index = 0; index < 8; ++index) {
        const auto &[busId, uuid] = identities["gpu-" + std::to_string(7 - index)];
        csv += std::to_string(index) + ", 0000" + busId + ", " + uuid + "\n";
    }
    const QString gpus = write("gpus.csv", csv);

    const DractlRun imported
        = dractl({ QStringLiteral("topology"), QStringLiteral("import"), QStringLiteral("h100-000"),
            QString::fromStdString(sample.string()), QStringLiteral("--gpus"), gpus,
            QStringLiteral("--cache"), cache(), QStringLiteral("--state"), state() });
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    EXPECT_NE(imported.out.find("8 GPUs, 10 NICs"), std::string::npos) << imported.out;

    const DractlRun drawn = dractl({ QStringLiteral("topology"), QStringLiteral("h100-000"),
        QStringLiteral("--cache"), cache(), QStringLiteral("--state"), state(),
        QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(drawn.exitCode, 0) << drawn.err;
    const nlohmann::json graph = parsed(drawn);
    EXPECT_TRUE(graph["imported"].get<bool>());
    size_t nvLinks = 0;
    for (const auto &link : graph["links"]) {
        EXPECT_NE(link["source"], "inferred") << "an import replaces inferred links";
        if (link["kind"] == "NV" && link["source"] == "imported") {
            ++nvLinks;
            EXPECT_EQ(link["count"], 18);
        }
    }
    EXPECT_EQ(nvLinks, 28u);
    const auto gpu0
        = std::ranges::find_if(graph["devices"], [](const auto &d) { return d["name"] == "GPU0"; });
    ASSERT_NE(gpu0, graph["devices"].end()) << drawn.out.substr(0, 400);
    EXPECT_EQ((*gpu0)["device"], "gpu-7");
    EXPECT_EQ((*gpu0)["mapping"], "pciBusID");

    // Importing again replaces the stored text; another state file knows nothing of it.
    const DractlRun elsewhere = dractl({ QStringLiteral("topology"), QStringLiteral("h100-000"),
        QStringLiteral("--cache"), cache(), QStringLiteral("--state"), path("other.db"),
        QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(elsewhere.exitCode, 0) << elsewhere.err;
    EXPECT_FALSE(parsed(elsewhere)["imported"].get<bool>());

    const QString garbage = write("garbage.txt", "this is not a topology matrix\n");
    const DractlRun refused
        = dractl({ QStringLiteral("topology"), QStringLiteral("import"), QStringLiteral("h100-000"),
            garbage, QStringLiteral("--cache"), cache(), QStringLiteral("--state"), state() });
    EXPECT_EQ(refused.exitCode, 1);
    EXPECT_NE(refused.err.find("garbage.txt"), std::string::npos) << refused.err;
    const DractlRun still = dractl({ QStringLiteral("topology"), QStringLiteral("h100-000"),
        QStringLiteral("--cache"), cache(), QStringLiteral("--state"), state(),
        QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_TRUE(parsed(still)["imported"].get<bool>()) << "a refused import leaves the stored one";
}

TEST_F(InventoryCommandsTest, BenchServeFetchesTheSameBytesFromItsFloors)
{
    const DractlRun bench
        = dractl({ QStringLiteral("bench"), QStringLiteral("serve"), QStringLiteral("--slices"),
            QStringLiteral("20"), QStringLiteral("--page"), QStringLiteral("5"),
            QStringLiteral("--repeats"), QStringLiteral("1"), QStringLiteral("--watchers"),
            QStringLiteral("3"), QStringLiteral("--changes"), QStringLiteral("4") });
    ASSERT_EQ(bench.exitCode, 0) << bench.err;
    const nlohmann::json report = parsed(bench);
    EXPECT_EQ(report["benchmark"], "serve");
    EXPECT_EQ(report["slices"], 20);
    // The page is a part of the list, and every floor served the bytes it was given.
    EXPECT_GT(report["list_bytes"].get<int64_t>(), report["page_bytes"].get<int64_t>());
    EXPECT_GT(report["page_bytes"].get<int64_t>(), 0);
    for (const char *floor : { "list_openssl_floor_ms", "list_qt_floor_ms", "page_openssl_floor_ms",
             "page_qt_floor_ms", "list_median_ms" })
        EXPECT_GT(report[floor].get<double>(), 0) << floor;
    EXPECT_TRUE(report["every_watcher_got_every_change_in_order"].get<bool>());
    EXPECT_EQ(report["events_delivered"], 12);
    EXPECT_GE(report["lists_during_fanout"].get<int>(), 1);
}

TEST_F(InventoryCommandsTest, BenchSnapshotReportsItsFigures)
{
    const DractlRun generated
        = dractl({ QStringLiteral("demo-inventory"), QStringLiteral("--preset"),
            QStringLiteral("a100-mig"), QStringLiteral("--nodes"), QStringLiteral("1") });
    ASSERT_EQ(generated.exitCode, 0) << generated.err;
    const QString file = write("mig.json", generated.out);
    const DractlRun bench = dractl({ QStringLiteral("bench"), QStringLiteral("snapshot"),
        QStringLiteral("--inventory"), file, QStringLiteral("--cache"), path("bench.db"),
        QStringLiteral("--runs"), QStringLiteral("1") });
    ASSERT_EQ(bench.exitCode, 0) << bench.err;
    const nlohmann::json report = parsed(bench);
    EXPECT_EQ(report["benchmark"], "snapshot");
    EXPECT_EQ(report["devices"], 152);
    EXPECT_GT(report["apply_changes"].get<int>(), 0);
}
