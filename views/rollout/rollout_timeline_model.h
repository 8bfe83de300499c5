// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <vector>

#include <QAbstractTableModel>

#include "views/rollout/rollout_snapshot.h"

namespace dra::views {

// The stages of the open rollout as a timeline, one row each: Baseline, Canary, Shadow, each
// cutover step, Complete, Finalised, and the states off the way forward (Paused, RollingBack,
// RolledBack, Rejected, Aborted) once the rollout has been in them. Each row says whether the
// rollout is there now, has been there, or has still to go, and when it last got there (from
// the state's history). GUI thread only.
class RolloutTimelineModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { StageColumn, StatusColumn, EnteredColumn, ColumnCount };
    enum class Status { Pending, Done, Current, Held }; // Held: the stage a paused rollout holds
    enum Role { StageRole = Qt::UserRole + 1, StepRole, StatusRole, CurrentRole, EnteredAtRole };

    explicit RolloutTimelineModel(QObject *parent = nullptr);

    void setSnapshot(const RolloutSnapshotPtr &snapshot);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : ColumnCount;
    }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The row the rollout is in now, or -1.
    int currentRow() const;

    struct Row
    {
        rollout::Stage stage = rollout::Stage::Baseline;
        int step = -1; // cutover step
        QString label;
        Status status = Status::Pending;
        int64_t enteredAt = 0; // 0: never
    };
    const std::vector<Row> &rows() const { return m_rows; }

private:
    std::vector<Row> m_rows;
};

const char *timelineStatusName(RolloutTimelineModel::Status status);

} // namespace dra::views
