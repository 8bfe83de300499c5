// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <span>
#include <unordered_map>
#include <vector>

#include <QAbstractTableModel>

#include "core/inventory/device.h"
#include "core/inventory/snapshot.h"

namespace dra::inventory {
struct ChangeSet;
}

namespace dra::views {

// Every device of the inventory, one row each, by node and then kind (GPUs, MIG devices, NICs,
// others: inventory::devicesInBrowseOrder) until the user sorts (100,000 rows scroll and sort
// without a stall: cells are computed on demand from the shared snapshot, nothing per row but its
// key). GUI thread only.
class DeviceTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Name,
        Node,
        Driver,
        Pool,
        Type,
        Product,
        Memory,
        State,
        Holder,
        Pods,
        ColumnCount
    };
    enum Role {
        DeviceKeyRole = Qt::UserRole + 1, // QStringList{driver, pool, device}
        SortRole, // numbers sort as numbers, quantities by value
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
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : ColumnCount;
    }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // Every column of `row` as shown, each followed by a newline: what a text filter searches,
    // read with one lookup of the device instead of one per column.
    QString searchText(int row) const;
    // The same for a device of `snapshot`, the model aside: any thread.
    static QString searchText(const inventory::Snapshot &snapshot, const inventory::Device &device);
    // data(SortRole) of a cell. Like searchText, reads only the snapshot and the rows: callable
    // from worker threads while the model does not change.
    QVariant sortValue(int row, int column) const;

private:
    static QVariant cell(const inventory::Snapshot &snapshot, const inventory::Device &device,
        std::span<const inventory::DeviceHold> holds, int column, int role);
    void rebuildIndex();

    inventory::SnapshotPtr m_snapshot;
    std::vector<inventory::DeviceKey> m_rows; // stable row order
    std::unordered_map<inventory::DeviceKey, int> m_rowOf;
};

} // namespace dra::views
