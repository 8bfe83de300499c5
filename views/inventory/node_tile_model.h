// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QAbstractListModel>

#include "core/inventory/overview.h"
#include "core/inventory/snapshot.h"

namespace dra::inventory {
struct ChangeSet;
}

namespace dra::views {

// One tile per node that has GPUs to offer, through DRA or only the device plugin: its GPU
// model, whole GPUs free of total, the partitions still free, and its NICs and other devices
// counted apart (inventory::nodeOverviews), so a glance over the cluster finds where capacity
// is. GUI thread.
class NodeTileModel final : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        NodeRole = Qt::UserRole + 1, // QString
        ModelRole, // QString: the GPU product(s) on the node
        WholeTotalRole, // int: whole GPUs (NICs and other devices are not GPUs)
        WholeFreeRole,
        AllocatedRole,
        PartitionsFreeRole,
        PartitionsTotalRole, // int
        TaintedRole, // int: devices tainted NoSchedule/NoExecute
        NicsRole, // int
        OtherDevicesRole, // int: neither GPUs, partitions nor NICs
        DevicePluginGpusRole, // int: `nvidia.com/gpu` capacity of the device plugin
        DevicePluginOnlyRole, // bool: no DRA driver publishes devices here
        UnhealthyRole, // int: devices a container on the node reports Unhealthy
    };

    explicit NodeTileModel(QObject *parent = nullptr);

    void reset(inventory::SnapshotPtr snapshot);
    // Refreshes the tiles (counts move with every allocation); adds and removes nodes in place.
    void applyChanges(const inventory::ChangeSet &changes);
    int rowOf(const QString &node) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    struct Tile
    {
        QString node, model;
        inventory::NodeOverview overview;
    };
    std::vector<Tile> tilesOf() const;

    inventory::SnapshotPtr m_snapshot;
    std::vector<Tile> m_tiles;
};

} // namespace dra::views
