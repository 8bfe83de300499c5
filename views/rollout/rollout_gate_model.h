// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <vector>

#include <QAbstractItemModel>

#include "views/rollout/rollout_snapshot.h"

namespace dra::views {

// The gates of the open rollout's current stage as a tree: a row per gate (verdict, the
// decisive check, when evaluated) with a child row per check and its evidence. A gate row also
// carries the gate's pictures (title -> SVG). GUI thread only.
class RolloutGateModel final : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, VerdictColumn, EvidenceColumn, ColumnCount };
    enum Role { GateRole = Qt::UserRole + 1, VerdictRole, PicturesRole, IsGateRole };

    explicit RolloutGateModel(QObject *parent = nullptr);

    void setSnapshot(const RolloutSnapshotPtr &snapshot);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const std::vector<rollout::GateResult> &gates() const { return m_gates; }
    // The gate row of `kind`, or an invalid index.
    QModelIndex gateIndex(rollout::GateKind kind) const;

private:
    std::vector<rollout::GateResult> m_gates;
};

} // namespace dra::views
