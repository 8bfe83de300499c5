// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/node_tile_model.h"

#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

#include "tests/views/views_test_main.h"

namespace dra::views {
namespace {

TEST(NodeTileModelTest, OneTilePerNodeWithItsFreeWholeDevices)
{
    const inventory::SnapshotPtr snapshot = test::mixedSnapshot();
    NodeTileModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.reset(snapshot);
    const auto nodes = snapshot->deviceNodes();
    ASSERT_EQ(model.rowCount(), int(nodes.size()));
    int freeTotal = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex index = model.index(row);
        EXPECT_EQ(index.data(NodeTileModel::NodeRole).toString().toStdString(), nodes[size_t(row)]);
        const int whole = index.data(NodeTileModel::WholeTotalRole).toInt();
        const int free = index.data(NodeTileModel::WholeFreeRole).toInt();
        EXPECT_LE(free, whole);
        int counted = 0;
        for (const inventory::Device *device : snapshot->devicesOnNode(nodes[size_t(row)]))
            counted += !device->isPartition()
                && snapshot->state(*device) == inventory::DeviceState::Free;
        EXPECT_EQ(free, counted) << nodes[size_t(row)];
        freeTotal += free;
    }
    EXPECT_GT(freeTotal, 0);
}

} // namespace
} // namespace dra::views
