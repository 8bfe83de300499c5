// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/node_tile_model.h"

#include "core/inventory/snapshot_builder.h"
#include "views/common/table_layout.h"

namespace dra::views {

NodeTileModel::NodeTileModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

std::vector<NodeTileModel::Tile> NodeTileModel::tilesOf() const
{
    std::vector<Tile> tiles;
    if (!m_snapshot)
        return tiles;
    for (inventory::NodeOverview &overview : inventory::nodeOverviews(*m_snapshot)) {
        if (overview.summary.devices == 0 && !overview.devicePluginOnly)
            continue; // nothing to allocate here
        Tile tile;
        tile.node = QString::fromStdString(overview.summary.name);
        QStringList names;
        for (const std::string &product : overview.capacity.models)
            names << QString::fromStdString(product);
        tile.model = names.join(QStringLiteral(", "));
        tile.overview = std::move(overview);
        tiles.push_back(std::move(tile));
    }
    return tiles;
}

void NodeTileModel::reset(inventory::SnapshotPtr snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_tiles = tilesOf();
    endResetModel();
}

void NodeTileModel::applyChanges(const inventory::ChangeSet &changes)
{
    if (!changes.snapshot)
        return;
    m_snapshot = changes.snapshot;
    std::vector<Tile> fresh = tilesOf();
    // Both lists are sorted by node: merge them, removing and inserting rows in place.
    size_t row = 0, next = 0;
    while (row < m_tiles.size() || next < fresh.size()) {
        if (next == fresh.size()
            || (row < m_tiles.size() && m_tiles[row].node < fresh[next].node)) {
            beginRemoveRows({}, int(row), int(row));
            m_tiles.erase(m_tiles.begin() + qsizetype(row));
            endRemoveRows();
        } else if (row == m_tiles.size() || fresh[next].node < m_tiles[row].node) {
            beginInsertRows({}, int(row), int(row));
            m_tiles.insert(m_tiles.begin() + qsizetype(row), std::move(fresh[next]));
            endInsertRows();
            ++row, ++next;
        } else {
            m_tiles[row] = std::move(fresh[next]);
            ++row, ++next;
        }
    }
    if (!m_tiles.empty())
        Q_EMIT dataChanged(index(0), index(int(m_tiles.size()) - 1));
}

int NodeTileModel::rowOf(const QString &node) const
{
    for (int row = 0; row < int(m_tiles.size()); ++row)
        if (m_tiles[size_t(row)].node == node)
            return row;
    return -1;
}

int NodeTileModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_tiles.size());
}

QVariant NodeTileModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Tile &tile = m_tiles[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case NodeRole:
        return tile.node;
    case Qt::ToolTipRole: {
        const inventory::CategoryCapacity &capacity = tile.overview.capacity;
        QStringList lines { tile.node,
            tile.model.isEmpty() ? QStringLiteral("(no product name)") : tile.model };
        if (tile.overview.devicePluginOnly)
            lines << QStringLiteral("%1 GPUs through the device plugin only (no DRA driver)")
                         .arg(tile.overview.summary.devicePluginGpus);
        else
            lines << QStringLiteral("%1 of %2 GPUs free, %3 allocated")
                         .arg(capacity.gpus.wholeFree)
                         .arg(capacity.gpus.wholeTotal)
                         .arg(capacity.gpus.allocated);
        if (capacity.partitionPlacements > 0)
            lines << QStringLiteral("%1 of %2 MIG partitions can still be allocated")
                         .arg(capacity.partitionsFit)
                         .arg(capacity.partitionPlacements);
        if (capacity.nics.devices > 0 || capacity.other.devices > 0)
            lines << QStringLiteral("%1 NICs, %2 other devices")
                         .arg(capacity.nics.devices)
                         .arg(capacity.other.devices);
        return plainToolTip(lines.join(QLatin1Char('\n'))); // node and model names are data
    }
    case ModelRole:
        return tile.model;
    case WholeTotalRole:
        return tile.overview.capacity.gpus.wholeTotal;
    case WholeFreeRole:
        return tile.overview.capacity.gpus.wholeFree;
    case AllocatedRole:
        return tile.overview.capacity.gpus.allocated;
    case PartitionsFreeRole:
        return tile.overview.capacity.partitionsFit;
    case PartitionsTotalRole:
        return tile.overview.capacity.partitionPlacements;
    case TaintedRole:
        return tile.overview.capacity.all.tainted;
    case UnhealthyRole:
        return tile.overview.unhealthyDevices;
    case NicsRole:
        return tile.overview.capacity.nics.devices;
    case OtherDevicesRole:
        return tile.overview.capacity.other.devices;
    case DevicePluginGpusRole:
        return qlonglong(tile.overview.summary.devicePluginGpus);
    case DevicePluginOnlyRole:
        return tile.overview.devicePluginOnly;
    default:
        return {};
    }
}

} // namespace dra::views
