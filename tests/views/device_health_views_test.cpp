// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Device health as the kubelet reports it, where the desktop shows it: the device's details, the
// claim's details and the node's tile.
#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

#include "tests/support/inventory_fixtures.h"
#include "tests/views/views_test_main.h"
#include "views/claims/claim_details.h"
#include "views/inventory/device_details.h"
#include "views/inventory/node_tile_model.h"

namespace dra::views::device_health_views_test {

using nlohmann::json;

// gpu-0 of node n1 is held by claim ml/train, whose pod's container reports it Unhealthy.
inventory::SnapshotPtr unhealthyInventory()
{
    json claim = dra::test::claimObject("ml", "train", "n1", { "gpu-0" }, { "trainer" });
    claim["status"]["devices"]
        = json::array({ { { "driver", "gpu.example.com" }, { "pool", "n1" }, { "device", "gpu-0" },
            { "conditions",
                json::array({ { { "type", "Ready" }, { "status", "False" },
                    { "reason", "XidError" } } }) } } });
    json pod = dra::test::podObject("ml", "trainer");
    pod["status"]["containerStatuses"] = json::array({ { { "name", "main" },
        { "allocatedResourcesStatus",
            json::array({ { { "name", "claim:train/gpu" },
                { "resources",
                    json::array({ { { "resourceID", "gpu.example.com/n1/gpu-0" },
                        { "health", "Unhealthy" } } }) } } }) } } });
    return dra::test::snapshotOf(dra::test::listOf({ dra::test::nodeObject("n1"),
        dra::test::sliceObject(
            "n1-gpus", "n1", { dra::test::gpuDevice("gpu-0"), dra::test::gpuDevice("gpu-1") }),
        claim, pod }));
}

} // namespace dra::views::device_health_views_test

using dra::views::device_health_views_test::unhealthyInventory;

TEST(DeviceHealthViewsTest, TheDeviceTheClaimAndTheNodeTileSayWhatIsUnhealthy)
{
    using namespace dra;
    const inventory::SnapshotPtr snapshot = unhealthyInventory();
    const inventory::Device *gpu0 = snapshot->device({ "gpu.example.com", "n1", "gpu-0" });
    const inventory::Device *gpu1 = snapshot->device({ "gpu.example.com", "n1", "gpu-1" });
    ASSERT_TRUE(gpu0 && gpu1);
    const QString details = views::deviceDetailsHtml(*snapshot, *gpu0);
    EXPECT_TRUE(details.contains(QStringLiteral("<h4>Health</h4>"))) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("ml/trainer main"))) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("Unhealthy")));
    EXPECT_FALSE(views::deviceDetailsHtml(*snapshot, *gpu1).contains(QStringLiteral("Health")))
        << "no container reports gpu-1";

    const model::Object *claim = snapshot->object(model::Kind::ResourceClaim, "ml", "train");
    ASSERT_NE(claim, nullptr);
    const QString claimHtml = views::claimDetailsHtml(*snapshot, *claim);
    EXPECT_TRUE(claimHtml.contains(QStringLiteral("Ready=False (XidError)")))
        << claimHtml.toStdString();
    EXPECT_TRUE(claimHtml.contains(QStringLiteral(
        "gpu.example.com/n1/gpu-0: ml/trainer container main: Unhealthy (claim train, request "
        "gpu)")))
        << claimHtml.toStdString();

    views::NodeTileModel tiles;
    QAbstractItemModelTester tester(&tiles, QAbstractItemModelTester::FailureReportingMode::Fatal);
    tiles.reset(snapshot);
    const int row = tiles.rowOf(QStringLiteral("n1"));
    ASSERT_GE(row, 0);
    EXPECT_EQ(tiles.index(row).data(views::NodeTileModel::UnhealthyRole).toInt(), 1);
}
