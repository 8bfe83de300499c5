// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `dractl topology import` keeps the matrix in the state file; drawing from an inventory
// snapshot with the stored text gives the graph a drawing from the decoded objects gives.
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/store/state_db.h"
#include "core/topology/node_topology.h"
#include "core/topology/topology_render.h"
#include "tests/support/inventory_fixtures.h"
#include "tests/core/topology/topology_fixtures.h"
#include "tests/support/upstream.h"

using namespace dra;
using namespace dra::topology;

namespace {

// The objects of a List in the cache's order (by name), as `dractl topology` reads them.
std::vector<model::Object> cacheOrder(const nlohmann::json &list)
{
    std::vector<model::Object> objects = test::decodeObjects(list);
    std::ranges::sort(objects,
        [](const model::Object &a, const model::Object &b) { return a.meta.name < b.meta.name; });
    return objects;
}

} // namespace

TEST(TopologyImportTest, StoredTextRoundTripsAndDrawsLikeTheObjects)
{
    DRA_REQUIRE_UPSTREAM(path, "topology/hgx-h100-8gpu-10nic.txt");
    const std::string text = test::readFile(path);
    const std::string csv = "index, pci.bus_id, uuid\n0, 00000000:18:00.0, GPU-x\n";
    QTemporaryDir dir;
    const QString statePath = dir.filePath(QStringLiteral("state.db"));
    {
        Result<store::StateDb> state = store::StateDb::open(statePath, store::OpenMode::ReadWrite);
        ASSERT_TRUE(state.has_value()) << state.error().message.toStdString();
        ASSERT_TRUE(
            state->saveImportedTopology({ "prod", "h100-000", "old text", "", 0 }).has_value());
        ASSERT_TRUE(state->saveImportedTopology({ "prod", "h100-000", text, csv, 0 }).has_value())
            << "replaces";
        ASSERT_TRUE(state->saveImportedTopology({ "prod", "h100-001", text, "", 0 }).has_value());
        ASSERT_TRUE(state->saveImportedTopology({ "lab", "h100-000", "x", "", 0 }).has_value());
        ASSERT_TRUE(state->removeImportedTopology("lab", "h100-000").has_value());
    }
    Result<store::StateDb> state = store::StateDb::open(statePath, store::OpenMode::ReadOnly);
    ASSERT_TRUE(state.has_value());
    const auto stored = state->importedTopology("prod", "h100-000");
    ASSERT_TRUE(stored.has_value() && stored->has_value());
    EXPECT_EQ((*stored)->text, text);
    EXPECT_EQ((*stored)->gpusCsv, csv);
    EXPECT_GT((*stored)->importedAt, 0);
    EXPECT_EQ(state->importedTopologies("prod").value().size(), 2u);
    EXPECT_FALSE(state->importedTopology("lab", "h100-000").value().has_value());

    const auto matrix
        = parseTopoMatrix(QString::fromStdString((*stored)->text), QStringLiteral("stored"));
    ASSERT_TRUE(matrix.has_value());
    const auto gpus
        = parseGpuQuery(QString::fromStdString((*stored)->gpusCsv), QStringLiteral("stored"));
    ASSERT_TRUE(gpus.has_value());
    const nlohmann::json list = test::presetList("h100-sxm", 1);
    const NodeTopology fromObjects
        = buildNodeTopology(QStringLiteral("h100-000"), cacheOrder(list), { &*matrix, &*gpus });
    const Result<NodeTopology> fromSnapshot = buildNodeTopology(
        QStringLiteral("h100-000"), *test::snapshotOf(list), { &*matrix, &*gpus });
    ASSERT_TRUE(fromSnapshot.has_value()) << fromSnapshot.error().message.toStdString();
    EXPECT_TRUE(fromSnapshot->imported);
    EXPECT_EQ(toJson(*fromSnapshot), toJson(fromObjects));
}

// The allocation overlay from the snapshot's holders matches the one from the claims.
TEST(TopologyImportTest, SnapshotHoldersOverlayLikeTheClaims)
{
    const nlohmann::json list = test::presetList("a100-mig", 1);
    const NodeTopology fromObjects
        = buildNodeTopology(QStringLiteral("a100-mig-000"), cacheOrder(list));
    const Result<NodeTopology> fromSnapshot
        = buildNodeTopology(QStringLiteral("a100-mig-000"), *test::snapshotOf(list));
    ASSERT_TRUE(fromSnapshot.has_value()) << fromSnapshot.error().message.toStdString();
    EXPECT_EQ(toJson(*fromSnapshot), toJson(fromObjects));
    const GpuNode *gpu2 = fromSnapshot->gpu(u"gpu-2");
    ASSERT_NE(gpu2, nullptr);
    EXPECT_TRUE(gpu2->holder.isHeld());
    EXPECT_FALSE(gpu2->holder.pods.isEmpty());
}
