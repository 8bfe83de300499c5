// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QAbstractListModel>

#include "core/inventory/free_capacity.h"
#include "core/inventory/snapshot.h"

namespace dra::inventory {
struct ChangeSet;
}

namespace dra::views {

// One tile per node that publishes devices: its GPU model, whole devices free of total and the
// partitions still free, so a glance over the cluster finds where capacity is. GUI thread.
class NodeTileModel final : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        NodeRole = Qt::UserRole + 1, // QString
        ModelRole, // QString: the GPU product(s) on the node
        WholeTotalRole,
        WholeFreeRole,
        AllocatedRole,
        PartitionsFreeRole,
        PartitionsTotalRole, // int
        TaintedRole, // int: devices tainted NoSchedule/NoExecute
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
        inventory::FreeCapacity capacity;
        int partitionsFree = 0, partitionsTotal = 0;
    };
    Tile tileOf(const std::string &node) const;
    std::vector<Tile> tilesOf() const;

    inventory::SnapshotPtr m_snapshot;
    std::vector<Tile> m_tiles;
};

} // namespace dra::views
