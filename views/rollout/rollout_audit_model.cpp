// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/rollout/rollout_audit_model.h"

#include <QDateTime>

namespace dra::views {

RolloutAuditModel::RolloutAuditModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RolloutAuditModel::setSnapshot(const RolloutSnapshotPtr &snapshot)
{
    const std::vector<rollout::AuditEntry> empty;
    const std::vector<rollout::AuditEntry> &next = snapshot ? snapshot->audit : empty;
    bool extends = next.size() >= m_entries.size();
    for (size_t i = 0; extends && i < m_entries.size(); ++i)
        extends = next[i].seq == m_entries[i].seq && next[i].hash == m_entries[i].hash;
    if (!extends) {
        beginResetModel();
        m_entries = next;
        endResetModel();
        return;
    }
    if (next.size() == m_entries.size())
        return;
    beginInsertRows({}, int(m_entries.size()), int(next.size()) - 1);
    m_entries.insert(m_entries.end(), next.begin() + qsizetype(m_entries.size()), next.end());
    endInsertRows();
}

int RolloutAuditModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant RolloutAuditModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_entries.size()))
        return {};
    const rollout::AuditEntry &entry = m_entries[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeqColumn:
            return qint64(entry.seq);
        case TimeColumn:
            return QDateTime::fromMSecsSinceEpoch(entry.at, Qt::UTC)
                .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        case ActorColumn:
            return QString::fromStdString(entry.actor);
        case ActionColumn:
            return QString::fromStdString(entry.action);
        case ResultColumn:
            return QString::fromStdString(entry.result);
        }
        return {};
    case Qt::ToolTipRole:
        return QString::fromStdString(entry.details.dump(2));
    case SeqRole:
        return qint64(entry.seq);
    case DetailsRole:
        return QString::fromStdString(entry.details.dump());
    }
    return {};
}

QVariant RolloutAuditModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeqColumn:
        return QStringLiteral("Seq");
    case TimeColumn:
        return QStringLiteral("Time (UTC)");
    case ActorColumn:
        return QStringLiteral("Who");
    case ActionColumn:
        return QStringLiteral("Action");
    case ResultColumn:
        return QStringLiteral("Result");
    }
    return {};
}

QString auditChainText(const rollout::AuditVerification &verification)
{
    if (verification.intact)
        return QStringLiteral("Audit chain verifies (%1 entries)").arg(verification.entries);
    return QStringLiteral("Audit chain BROKEN at entry %1: %2")
        .arg(verification.firstBrokenSeq.value_or(0))
        .arg(QString::fromStdString(verification.reason));
}

} // namespace dra::views
