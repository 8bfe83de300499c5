// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/rollout/rollout_gate_model.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QVariantMap>

#include "views/common/theme.h"

namespace dra::views {

namespace {

// quintptr id of an index: 0 for a gate row, gate row + 1 for its checks.
constexpr quintptr kGateRowId = 0;

QColor verdictColour(rollout::Verdict verdict)
{
    switch (verdict) {
    case rollout::Verdict::Passed:
        return themeColors().okText;
    case rollout::Verdict::Failed:
        return themeColors().errorText;
    case rollout::Verdict::Inconclusive:
        return themeColors().warningText;
    }
    return {};
}

QString gateText(const std::string &text)
{
    return QString::fromStdString(text);
}

} // namespace

RolloutGateModel::RolloutGateModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void RolloutGateModel::setSnapshot(const RolloutSnapshotPtr &snapshot)
{
    std::vector<rollout::GateResult> gates;
    if (snapshot && snapshot->state)
        for (const auto &[kind, result] : snapshot->state->gates)
            gates.push_back(result);
    beginResetModel();
    m_gates = std::move(gates);
    endResetModel();
}

QModelIndex RolloutGateModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < int(m_gates.size()) ? createIndex(row, column, kGateRowId) : QModelIndex();
    if (parent.internalId() != kGateRowId || parent.row() >= int(m_gates.size()))
        return {};
    if (row >= int(m_gates[size_t(parent.row())].checks.size()))
        return {};
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex RolloutGateModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kGateRowId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kGateRowId);
}

int RolloutGateModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_gates.size());
    if (parent.internalId() != kGateRowId || parent.column() != 0
        || parent.row() >= int(m_gates.size()))
        return 0;
    return int(m_gates[size_t(parent.row())].checks.size());
}

int RolloutGateModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QModelIndex RolloutGateModel::gateIndex(rollout::GateKind kind) const
{
    for (size_t i = 0; i < m_gates.size(); ++i)
        if (m_gates[i].gate == kind)
            return index(int(i), 0);
    return {};
}

QVariant RolloutGateModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const bool isGate = index.internalId() == kGateRowId;
    const size_t gateRow = isGate ? size_t(index.row()) : size_t(index.internalId() - 1);
    if (gateRow >= m_gates.size())
        return {};
    const rollout::GateResult &gate = m_gates[gateRow];
    if (!isGate && size_t(index.row()) >= gate.checks.size())
        return {};
    const rollout::Verdict verdict
        = isGate ? gate.verdict : gate.checks[size_t(index.row())].verdict;
    switch (role) {
    case Qt::DisplayRole:
        if (isGate) {
            switch (index.column()) {
            case NameColumn:
                return QString::fromLatin1(rollout::gateName(gate.gate));
            case VerdictColumn:
                return QString::fromLatin1(rollout::verdictName(gate.verdict));
            case EvidenceColumn: {
                const rollout::Check *decisive = gate.decisive();
                QString text = decisive
                    ? gateText(decisive->name + ": " + decisive->evidence)
                    : QStringLiteral("%1 check(s) passed").arg(gate.checks.size());
                if (gate.at)
                    text += QStringLiteral("  (at %1)")
                                .arg(QDateTime::fromMSecsSinceEpoch(gate.at, Qt::UTC)
                                         .toString(QStringLiteral("HH:mm:ss")));
                if (!gate.pictures.empty())
                    text += QStringLiteral("  [%1 picture(s)]").arg(gate.pictures.size());
                return text;
            }
            }
            return {};
        } else {
            const rollout::Check &check = gate.checks[size_t(index.row())];
            switch (index.column()) {
            case NameColumn:
                return gateText(check.name);
            case VerdictColumn:
                return QString::fromLatin1(rollout::verdictName(check.verdict));
            case EvidenceColumn:
                return gateText(check.evidence);
            }
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == EvidenceColumn)
            return isGate ? gateText(gate.summary())
                          : gateText(gate.checks[size_t(index.row())].evidence);
        return {};
    case Qt::ForegroundRole:
        return index.column() == VerdictColumn ? QVariant(QBrush(verdictColour(verdict)))
                                               : QVariant();
    case GateRole:
        return QString::fromLatin1(rollout::gateName(gate.gate));
    case VerdictRole:
        return QString::fromLatin1(rollout::verdictName(verdict));
    case IsGateRole:
        return isGate;
    case PicturesRole: {
        if (!isGate)
            return {};
        QVariantMap pictures;
        for (const auto &[title, svg] : gate.pictures)
            pictures.insert(QString::fromStdString(title), QByteArray::fromStdString(svg));
        return pictures;
    }
    }
    return {};
}

QVariant RolloutGateModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return QStringLiteral("Gate / check");
    case VerdictColumn:
        return QStringLiteral("Verdict");
    case EvidenceColumn:
        return QStringLiteral("Evidence");
    }
    return {};
}

} // namespace dra::views
