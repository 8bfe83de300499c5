// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/rollout/rollout_timeline_model.h"

#include <algorithm>

#include <QDateTime>
#include <QFont>

namespace dra::views {

namespace {

using rollout::Stage;

QString timelineStageLabel(Stage stage, int step, const rollout::RolloutPlan *plan)
{
    if (stage != Stage::Cutover)
        return QString::fromLatin1(rollout::stageName(stage));
    if (plan && step >= 0 && step < int(plan->cutover.size()))
        return QStringLiteral("Cutover %1%").arg(plan->cutover[size_t(step)].percent);
    return QStringLiteral("Cutover step %1").arg(step + 1);
}

// When the rollout last entered `stage` (`step` for Cutover); 0 when never.
int64_t lastEntered(const rollout::RolloutState &state, Stage stage, int step)
{
    if (stage == Stage::Baseline && state.history.empty())
        return state.createdAt;
    for (auto it = state.history.rbegin(); it != state.history.rend(); ++it)
        if (it->to == stage && (stage != Stage::Cutover || it->toStep == step))
            return it->at;
    return stage == Stage::Baseline ? state.createdAt : 0;
}

} // namespace

const char *timelineStatusName(RolloutTimelineModel::Status status)
{
    switch (status) {
    case RolloutTimelineModel::Status::Pending:
        return "pending";
    case RolloutTimelineModel::Status::Done:
        return "done";
    case RolloutTimelineModel::Status::Current:
        return "current";
    case RolloutTimelineModel::Status::Held:
        return "held (paused)";
    }
    return "";
}

RolloutTimelineModel::RolloutTimelineModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RolloutTimelineModel::setSnapshot(const RolloutSnapshotPtr &snapshot)
{
    std::vector<Row> rows;
    if (snapshot && snapshot->state) {
        const rollout::RolloutState &state = *snapshot->state;
        const rollout::RolloutPlan *plan = snapshot->plan.get();
        std::vector<std::pair<Stage, int>> forward { { Stage::Baseline, -1 }, { Stage::Canary, -1 },
            { Stage::Shadow, -1 } };
        const int steps = plan ? int(plan->cutover.size()) : std::max(0, state.step + 1);
        for (int step = 0; step < steps; ++step)
            forward.emplace_back(Stage::Cutover, step);
        forward.emplace_back(Stage::Complete, -1);
        forward.emplace_back(Stage::Finalised, -1);
        const bool paused = state.stage == Stage::Paused;
        for (const auto &[stage, step] : forward) {
            Row row { stage, step, timelineStageLabel(stage, step, plan), Status::Pending,
                lastEntered(state, stage, step) };
            const bool here = state.effectiveStage() == stage
                && (stage != Stage::Cutover || (paused ? state.pausedStep : state.step) == step);
            if (here && !rollout::isSettled(state.stage) && state.stage != Stage::RollingBack)
                row.status = paused ? Status::Held : Status::Current;
            else if (here && state.stage == stage)
                row.status = Status::Current;
            else if (row.enteredAt != 0)
                row.status = Status::Done;
            rows.push_back(std::move(row));
        }
        for (Stage off : { Stage::Paused, Stage::RollingBack, Stage::RolledBack, Stage::Rejected,
                 Stage::Aborted }) {
            const int64_t entered = lastEntered(state, off, -1);
            if (state.stage != off && entered == 0)
                continue;
            rows.push_back(Row { off, -1, timelineStageLabel(off, -1, plan),
                state.stage == off ? Status::Current : Status::Done, entered });
        }
    }
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int RolloutTimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RolloutTimelineModel::currentRow() const
{
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].status == Status::Current)
            return int(i);
    return -1;
}

QVariant RolloutTimelineModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Row &row = m_rows[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StageColumn:
            return row.label;
        case StatusColumn:
            return QString::fromLatin1(timelineStatusName(row.status));
        case EnteredColumn:
            return row.enteredAt ? QDateTime::fromMSecsSinceEpoch(row.enteredAt, Qt::UTC)
                                       .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                                 : QString();
        }
        return {};
    case Qt::FontRole:
        if (row.status == Status::Current || row.status == Status::Held) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case StageRole:
        return QString::fromLatin1(rollout::stageName(row.stage));
    case StepRole:
        return row.step;
    case StatusRole:
        return int(row.status);
    case CurrentRole:
        return row.status == Status::Current;
    case EnteredAtRole:
        return qint64(row.enteredAt);
    }
    return {};
}

QVariant RolloutTimelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StageColumn:
        return QStringLiteral("Stage");
    case StatusColumn:
        return QStringLiteral("Status");
    case EnteredColumn:
        return QStringLiteral("Entered (UTC)");
    }
    return {};
}

} // namespace dra::views
