// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// One cache, one answer: what the desktop shows and what `dractl` prints come from the same core
// functions. The template editor's check and `dractl simulate` read the cache under the release
// the cluster reported, so a gate that release has off is off in both; the topology panel's SVG
// export is byte for byte `dractl topology -o svg`.
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/inventory/snapshot_builder.h"
#include "core/store/cache_db.h"
#include "core/topology/topology_layout.h"
#include "tests/support/inventory_fixtures.h"
#include "core/inventory/overview.h"
#include "views/editor/template_editor.h"
#include "views/inventory/overview_summary.h"
#include "views/topology/topology_panel.h"
#include "views/topology/topology_scene.h"
#include "views/topology/topology_view.h"

namespace dra::views {
namespace {

// firstAvailable needs DRAPrioritizedList: alpha and off in 1.33, on from 1.34.
constexpr const char *kFirstAvailableClaim = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: either, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - {name: any, deviceClassName: gpu.nvidia.com}
)";

// A cache holding the mixed demo inventory of cluster "prod", which reported `version`.
QString writeCache(const QTemporaryDir &dir, const std::string &version)
{
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    Result<store::CacheDb> cache = store::CacheDb::open(path, store::OpenMode::ReadWrite);
    EXPECT_TRUE(cache.has_value()) << cache.error().message.toStdString();
    if (!cache)
        return path;
    model::WatchBatch batch;
    batch.cluster = "prod";
    for (model::ObjectRecord &record : test::recordsOf(test::presetList("mixed", 2)))
        batch.changes.push_back({ model::ChangeType::Added, std::move(record) });
    batch.serverVersion = version;
    std::vector<model::WatchBatch> batches;
    batches.push_back(std::move(batch));
    EXPECT_TRUE(cache->applyAll(std::move(batches)).has_value());
    return path;
}

// dractl with `arguments`: its exit status and standard output.
std::pair<int, QByteArray> dractl(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(DRACTL_PATH), arguments);
    EXPECT_TRUE(process.waitForFinished(120000));
    EXPECT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
    return { process.exitCode(), process.readAllStandardOutput() };
}

inventory::SnapshotPtr loadCache(const QString &cache)
{
    Result<store::CacheDb> db = store::CacheDb::open(cache, store::OpenMode::ReadOnly);
    EXPECT_TRUE(db.has_value());
    if (!db)
        return nullptr;
    Result<inventory::SnapshotPtr> snapshot = inventory::loadSnapshot(*db, "prod");
    EXPECT_TRUE(snapshot.has_value());
    return snapshot ? *snapshot : nullptr;
}

struct Simulated
{
    int exitCode = -1;
    nlohmann::json document;
};

Simulated dractlSimulate(const QString &cache, const QString &claimFile)
{
    QProcess process;
    process.start(QStringLiteral(DRACTL_PATH),
        { QStringLiteral("simulate"), QStringLiteral("--claim"), claimFile,
            QStringLiteral("--cache"), cache, QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_TRUE(process.waitForFinished(120000));
    const QByteArray out = process.readAllStandardOutput();
    Simulated simulated { process.exitCode(),
        nlohmann::json::parse(out.toStdString(), nullptr, false) };
    EXPECT_FALSE(simulated.document.is_discarded())
        << out.toStdString() << process.readAllStandardError().toStdString();
    return simulated;
}

// The editor's whole check of `text` on the cache as the console loads it.
alloc::TemplateCheck editorCheck(const QString &cache, const QString &text)
{
    TemplateEditor editor;
    QSignalSpy checked(&editor, &TemplateEditor::checked);
    editor.setText(text);
    editor.setSnapshot(loadCache(cache));
    EXPECT_TRUE(checked.wait(30000));
    return editor.lastCheck();
}

TEST(SameAnswerTest, EditorAndSimulateAgreeOnAClusterWhoseVersionTurnsAGateOff)
{
    QTemporaryDir dir;
    const QString claimFile = dir.filePath(QStringLiteral("either.yaml"));
    {
        QFile file(claimFile);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(kFirstAvailableClaim);
    }
    const QString cache = writeCache(dir, "v1.33.4");

    const Simulated simulated = dractlSimulate(cache, claimFile);
    EXPECT_EQ(simulated.exitCode, 1);
    EXPECT_EQ(simulated.document.value("kubernetesVersion", ""), "1.33");
    const std::string refusal = simulated.document.value("error", "");
    EXPECT_NE(refusal.find("DRAPrioritizedList feature is disabled"), std::string::npos)
        << simulated.document.dump(2);

    const alloc::TemplateCheck check
        = editorCheck(cache, QString::fromLatin1(kFirstAvailableClaim));
    ASSERT_TRUE(check.error.empty()) << check.error;
    ASSERT_TRUE(check.simulated);
    EXPECT_EQ(check.copiesThatFit, 0) << "the newest release would allocate it";
    EXPECT_EQ(check.blocked, refusal) << "the same refusal, word for word";
}

TEST(SameAnswerTest, WhereTheClustersReleaseHasTheGateOnBothAllocate)
{
    QTemporaryDir dir;
    const QString claimFile = dir.filePath(QStringLiteral("either.yaml"));
    {
        QFile file(claimFile);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(kFirstAvailableClaim);
    }
    const QString cache = writeCache(dir, "v1.34.2");
    const Simulated simulated = dractlSimulate(cache, claimFile);
    EXPECT_EQ(simulated.exitCode, 0) << simulated.document.dump(2);
    EXPECT_EQ(simulated.document.value("kubernetesVersion", ""), "1.34");
    const alloc::TemplateCheck check
        = editorCheck(cache, QString::fromLatin1(kFirstAvailableClaim));
    EXPECT_GT(check.copiesThatFit, 0) << check.blocked;
}

// The console's export of a node's topology and `dractl topology NODE -o svg` on the same cache
// are one drawing, byte for byte; the scene shows the layout `-o layout-json` prints.
TEST(SameAnswerTest, TopologyExportIsDractlsSvgByteForByte)
{
    QTemporaryDir dir;
    const QString cache = writeCache(dir, "v1.36.0");
    const QString state = dir.filePath(QStringLiteral("state.db")); // no imported topology
    TopologyPanel panel;
    panel.reset(loadCache(cache));
    int compared = 0;
    for (const char *node : { "h100-000", "a100-mig-000", "l40s-000" }) {
        if (!panel.showNode(QString::fromLatin1(node)))
            continue;
        ++compared;
        const QString exported = dir.filePath(QString::fromLatin1(node) + QStringLiteral(".svg"));
        ASSERT_TRUE(exportScene(*panel.scene(), exported).has_value());
        QFile file(exported);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        const auto [status, svg] = dractl({ QStringLiteral("topology"), QString::fromLatin1(node),
            QStringLiteral("--cache"), cache, QStringLiteral("--state"), state,
            QStringLiteral("-o"), QStringLiteral("svg") });
        ASSERT_EQ(status, 0);
        EXPECT_EQ(file.readAll(), svg) << node;

        const auto [layoutStatus, layoutJson] = dractl({ QStringLiteral("topology"),
            QString::fromLatin1(node), QStringLiteral("--cache"), cache, QStringLiteral("--state"),
            state, QStringLiteral("-o"), QStringLiteral("layout-json") });
        ASSERT_EQ(layoutStatus, 0);
        EXPECT_EQ(nlohmann::json::parse(layoutJson.toStdString(), nullptr, false),
            topology::toJson(topology::layoutTopology(panel.scene()->topology())))
            << node;
    }
    EXPECT_GE(compared, 2) << "the mixed preset has H100 and MIG nodes";
}

// The overview's summary is inventory::clusterOverview(); `dractl overview -o json` (the web
// console's /console/v1/overview) prints the same figures from the same cache.
TEST(SameAnswerTest, OverviewSummaryIsDractlOverview)
{
    QTemporaryDir dir;
    const QString cache = writeCache(dir, "v1.34.0");
    const inventory::SnapshotPtr snapshot = loadCache(cache);
    ASSERT_TRUE(snapshot);
    const inventory::ClusterOverview desktop = inventory::clusterOverview(*snapshot);
    const std::vector<SummaryTile> tiles = summaryTiles(desktop, {});
    ASSERT_FALSE(tiles.empty());

    const auto [status, output] = dractl(
        { QStringLiteral("overview"), QStringLiteral("--cache"), cache, QStringLiteral("--cluster"),
            QStringLiteral("prod"), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(status, 0);
    const nlohmann::json web = nlohmann::json::parse(output.toStdString(), nullptr, false);
    ASSERT_TRUE(web.contains("totals")) << output.toStdString();
    const nlohmann::json &totals = web["totals"];
    EXPECT_EQ(totals["gpus"]["total"], desktop.totals.gpus.wholeTotal);
    EXPECT_EQ(totals["gpus"]["free"], desktop.totals.gpus.wholeFree);
    EXPECT_EQ(totals["gpus"]["allocated"], desktop.totals.gpus.allocated);
    EXPECT_EQ(totals["nics"]["total"], desktop.totals.nics.wholeTotal);
    EXPECT_EQ(totals["claims"]["pending"], desktop.pendingClaims);
    EXPECT_EQ(totals["claims"]["total"], desktop.claims);
    EXPECT_EQ(totals["lint"]["error"], desktop.lintErrors);
    EXPECT_EQ(totals["lint"]["warning"], desktop.lintWarnings);
    EXPECT_EQ(totals["devicePluginOnlyNodes"], desktop.devicePluginOnlyNodes);
    ASSERT_EQ(totals["partitions"]["profiles"].size(), desktop.totals.profiles.size());
    for (size_t i = 0; i < desktop.totals.profiles.size(); ++i) {
        EXPECT_EQ(
            totals["partitions"]["profiles"][i]["profile"], desktop.totals.profiles[i].profile);
        EXPECT_EQ(totals["partitions"]["profiles"][i]["free"], desktop.totals.profiles[i].free);
    }
}

} // namespace
} // namespace dra::views
