// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/node_tile_model.h"

#include <set>

#include "core/inventory/snapshot_builder.h"

namespace dra::views {

NodeTileModel::NodeTileModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

NodeTileModel::Tile NodeTileModel::tileOf(const std::string &node) const
{
    Tile tile;
    tile.node = QString::fromStdString(node);
    const auto devices = m_snapshot->devicesOnNode(node);
    tile.capacity = inventory::freeCapacityOf(*m_snapshot, node, devices);
    for (const auto &profile : tile.capacity.profiles) {
        tile.partitionsFree += profile.fit;
        tile.partitionsTotal += profile.total;
    }
    std::set<std::string> products;
    for (const inventory::Device *device : devices)
        if (!device->isPartition())
            if (std::string product = device->productName(); !product.empty())
                products.insert(std::move(product));
    QStringList names;
    for (const auto &product : products)
        names << QString::fromStdString(product);
    tile.model = names.join(QStringLiteral(", "));
    return tile;
}

std::vector<NodeTileModel::Tile> NodeTileModel::tilesOf() const
{
    std::vector<Tile> tiles;
    if (!m_snapshot)
        return tiles;
    for (const std::string &node : m_snapshot->deviceNodes())
        tiles.push_back(tileOf(node));
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
    case Qt::ToolTipRole:
        return QStringLiteral("%1\n%2\n%3 of %4 whole devices free, %5 allocated\n%6 of %7 "
                              "partitions can still be allocated")
            .arg(tile.node, tile.model.isEmpty() ? QStringLiteral("(no product name)") : tile.model)
            .arg(tile.capacity.wholeFree)
            .arg(tile.capacity.wholeTotal)
            .arg(tile.capacity.allocated)
            .arg(tile.partitionsFree)
            .arg(tile.partitionsTotal);
    case ModelRole:
        return tile.model;
    case WholeTotalRole:
        return tile.capacity.wholeTotal;
    case WholeFreeRole:
        return tile.capacity.wholeFree;
    case AllocatedRole:
        return tile.capacity.allocated;
    case PartitionsFreeRole:
        return tile.partitionsFree;
    case PartitionsTotalRole:
        return tile.partitionsTotal;
    case TaintedRole:
        return tile.capacity.tainted;
    default:
        return {};
    }
}

} // namespace dra::views
