// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QAbstractTableModel>

#include "core/inventory/free_capacity.h"
#include "core/inventory/lint.h"
#include "core/inventory/snapshot.h"

namespace dra::views {

// The inventory lint findings (`dractl lint`), one row each; ObjectsRole lists the objects a
// finding names ("Kind ns/name") so the window can jump to them. GUI thread; the findings are
// computed by the caller (off the GUI thread for a large inventory).
class FindingsModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Severity, Code, Message, Objects, ColumnCount };
    enum Role { ObjectsRole = Qt::UserRole + 1 }; // QStringList of "Kind|ns|name"

    explicit FindingsModel(QObject *parent = nullptr);

    void setFindings(std::vector<inventory::Finding> findings);
    const std::vector<inventory::Finding> &findings() const { return m_findings; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : ColumnCount;
    }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<inventory::Finding> m_findings;
};

// Free capacity grouped by pool, node, class or model (`dractl free`), one row per group.
class FreeCapacityModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Group, Devices, WholeFree, Allocated, Blocked, Tainted, Partitions, ColumnCount };

    explicit FreeCapacityModel(QObject *parent = nullptr);

    void setCapacity(std::vector<inventory::FreeCapacity> rows);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : ColumnCount;
    }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<inventory::FreeCapacity> m_rows;
};

} // namespace dra::views
