// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <unordered_map>
#include <vector>

#include <QAbstractTableModel>

#include "core/inventory/device.h"
#include "core/inventory/snapshot.h"

namespace dra::inventory {
struct ChangeSet;
}

namespace dra::views {

// Every device of the inventory, one row each (100,000 rows scroll and sort without a stall:
// cells are computed on demand from the shared snapshot, nothing per row but its key).
// GUI thread only.
class DeviceTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Node, Driver, Pool, Type, Product, Memory, State, Holder, Pods, ColumnCount };
    enum Role {
        DeviceKeyRole = Qt::UserRole + 1, // QStringList{driver, pool, device}
        SortRole,                          // numbers sort as numbers, quantities by value
    };

    explicit DeviceTableModel(QObject *parent = nullptr);

    // Replaces every row (a new cluster, a relist).
    void reset(inventory::SnapshotPtr snapshot);
    // Applies one committed batch: rows of removed devices go, new devices are appended,
    // changed ones and (when allocations moved) the holder columns are refreshed.
    void applyChanges(const inventory::ChangeSet &changes);

    inventory::SnapshotPtr snapshot() const { return m_snapshot; }
    const inventory::Device *deviceAt(int row) const;
    int rowOf(const inventory::DeviceKey &key) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuildIndex();

    inventory::SnapshotPtr m_snapshot;
    std::vector<inventory::DeviceKey> m_rows; // stable row order
    std::unordered_map<inventory::DeviceKey, int> m_rowOf;
};

} // namespace dra::views
