// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "views/rollout/rollout_snapshot.h"

namespace dra::views {

// The audit log of the open rollout, one row per entry: seq, time, who, action, result. The log
// is append-only, so a snapshot that extends the rows inserts them; anything else resets.
// GUI thread only.
class RolloutAuditModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { SeqColumn, TimeColumn, ActorColumn, ActionColumn, ResultColumn, ColumnCount };
    enum Role { SeqRole = Qt::UserRole + 1, DetailsRole };

    explicit RolloutAuditModel(QObject *parent = nullptr);

    void setSnapshot(const RolloutSnapshotPtr &snapshot);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : ColumnCount;
    }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const std::vector<rollout::AuditEntry> &entries() const { return m_entries; }

private:
    std::vector<rollout::AuditEntry> m_entries;
};

// "Audit chain verifies (42 entries)" or "Audit chain broken at entry 7: ...".
QString auditChainText(const rollout::AuditVerification &verification);

} // namespace dra::views
