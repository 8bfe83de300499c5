// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/findings_model.h"

#include <QColor>

#include "core/inventory/free_capacity.h"
#include "core/common/json_text.h"
#include "views/common/theme.h"

namespace dra::views {
namespace {

using common::qs;

} // namespace

FindingsModel::FindingsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void FindingsModel::setFindings(std::vector<inventory::Finding> findings)
{
    beginResetModel(); // findings have no identity across runs: a reset is honest
    m_findings = std::move(findings);
    endResetModel();
}

int FindingsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_findings.size());
}

QVariant FindingsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const inventory::Finding &finding = m_findings[size_t(index.row())];
    if (role == ObjectsRole) {
        QStringList objects;
        for (const auto &key : finding.objects)
            objects << qs(key.kind) + QLatin1Char('|') + qs(key.ns) + QLatin1Char('|')
                    + qs(key.name);
        return objects;
    }
    if (role == Qt::ForegroundRole && index.column() == Severity) {
        if (finding.severity == inventory::Severity::Error)
            return themeColors().errorText;
        if (finding.severity == inventory::Severity::Warning)
            return themeColors().warningText;
        return {};
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (Column(index.column())) {
    case Severity:
        return qs(inventory::severityName(finding.severity));
    case Code:
        return qs(finding.code);
    case Message:
        return qs(finding.message);
    case Objects: {
        QStringList objects;
        for (const auto &key : finding.objects)
            objects << qs(key.display());
        return objects.join(QStringLiteral(", "));
    }
    case ColumnCount:
        break;
    }
    return {};
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const names[ColumnCount] = { "Severity", "Check", "Finding", "Objects" };
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

FreeCapacityModel::FreeCapacityModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void FreeCapacityModel::setCapacity(std::vector<inventory::FreeCapacity> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int FreeCapacityModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant FreeCapacityModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)
        || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    const inventory::FreeCapacity &row = m_rows[size_t(index.row())];
    switch (Column(index.column())) {
    case Group:
        return qs(row.group);
    case Devices:
        return row.devices;
    case WholeFree:
        return QStringLiteral("%1 / %2").arg(row.wholeFree).arg(row.wholeTotal);
    case Allocated:
        return row.allocated;
    case Blocked:
        return row.blocked;
    case Tainted:
        return row.tainted;
    case Partitions: {
        QStringList profiles;
        for (const auto &profile : row.profiles)
            profiles << QStringLiteral("%1: %2 fit of %3")
                            .arg(qs(profile.profile))
                            .arg(profile.fit)
                            .arg(profile.total);
        return profiles.join(QStringLiteral(", "));
    }
    case ColumnCount:
        break;
    }
    return {};
}

QVariant FreeCapacityModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const names[ColumnCount] = { "Group", "Devices", "Whole free", "Allocated",
        "Blocked", "Tainted", "Partitions that still fit" };
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

} // namespace dra::views
