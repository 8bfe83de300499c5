// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/node_tile_model.h"

#include <set>

#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

#include "core/inventory/summaries.h"
#include "tests/views/views_test_main.h"

namespace dra::views {
namespace {

// A whole GPU by what its driver publishes, worked out apart from the console's classification.
bool isWholeGpu(const inventory::Device &device)
{
    return device.type() == "gpu" && device.profile().empty();
}

TEST(NodeTileModelTest, TilesCountGpusApartFromNicsAndOtherDevices)
{
    const inventory::SnapshotPtr snapshot = test::mixedSnapshot();
    NodeTileModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.reset(snapshot);

    // Every node with DRA devices, and every node whose GPUs only the device plugin offers.
    std::set<std::string> expected;
    for (const std::string &node : snapshot->deviceNodes())
        expected.insert(node);
    for (const inventory::NodeSummary &summary : inventory::nodeSummaries(*snapshot))
        if (summary.devices == 0 && summary.devicePluginGpus > 0)
            expected.insert(summary.name);
    ASSERT_EQ(model.rowCount(), int(expected.size()));

    int freeTotal = 0, nicsSeen = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex index = model.index(row);
        const std::string node = index.data(NodeTileModel::NodeRole).toString().toStdString();
        EXPECT_TRUE(expected.contains(node)) << node;
        int gpus = 0, free = 0, nics = 0;
        for (const inventory::Device *device : snapshot->devicesOnNode(node)) {
            if (isWholeGpu(*device)) {
                ++gpus;
                free += snapshot->state(*device) == inventory::DeviceState::Free;
            }
            nics += device->key.driver == "dra.net";
        }
        EXPECT_EQ(index.data(NodeTileModel::WholeTotalRole).toInt(), gpus) << node;
        EXPECT_EQ(index.data(NodeTileModel::WholeFreeRole).toInt(), free) << node;
        EXPECT_EQ(index.data(NodeTileModel::NicsRole).toInt(), nics) << node;
        const bool pluginOnly = snapshot->devicesOnNode(node).empty();
        EXPECT_EQ(index.data(NodeTileModel::DevicePluginOnlyRole).toBool(), pluginOnly) << node;
        if (pluginOnly) {
            EXPECT_GT(index.data(NodeTileModel::DevicePluginGpusRole).toLongLong(), 0) << node;
        }
        freeTotal += free;
        nicsSeen += nics;
    }
    EXPECT_GT(freeTotal, 0);
    EXPECT_GT(nicsSeen, 0) << "the mixed demo has NICs, so counting them apart is tested";
}

} // namespace
} // namespace dra::views
