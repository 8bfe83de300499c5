// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QAbstractTableModel>

#include "core/inventory/snapshot.h"

namespace dra::inventory {
struct ChangeSet;
}

namespace dra::views {

// How far a claim got, the column admins sort by first.
enum class ClaimPhase { Pending, Allocated, Reserved, InUse };
QString claimPhaseName(ClaimPhase phase);
// Pending: no allocation; Allocated: devices but no consumer; Reserved: reserved for pods none
// of which runs; InUse: a reserving pod is running.
ClaimPhase claimPhase(const inventory::Snapshot &snapshot, const model::Object &claim);

// ResourceClaims of every namespace (or ResourceClaimTemplates), one row each. GUI thread.
class ClaimListModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Namespace, Name, Phase, Requests, Devices, Node, Pods, Age, ColumnCount };
    enum Role { ObjectKeyRole = Qt::UserRole + 1, SortRole };

    explicit ClaimListModel(model::Kind kind, QObject *parent = nullptr);

    void reset(inventory::SnapshotPtr snapshot);
    // Claims are few next to devices: a batch that touched any of this kind re-reads the rows,
    // keeping the model's row identity where names persist (no reset, so selections survive).
    void applyChanges(const inventory::ChangeSet &changes);

    const model::Object *objectAt(int row) const;
    int rowOf(const QString &ns, const QString &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : ColumnCount;
    }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    model::Kind m_kind;
    inventory::SnapshotPtr m_snapshot;
    std::vector<std::shared_ptr<const model::Object>> m_rows;
};

} // namespace dra::views
