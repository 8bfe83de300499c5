// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/device_filter_model.h"

#include "views/inventory/device_table_model.h"

namespace dra::views {

DeviceFilterModel::DeviceFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(DeviceTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setDynamicSortFilter(true);
}

void DeviceFilterModel::setText(const QString &text)
{
    m_text = text.trimmed();
    invalidateRowsFilter();
}

void DeviceFilterModel::setSelectorMatches(std::optional<std::unordered_set<inventory::DeviceKey>> matches)
{
    m_matches = std::move(matches);
    invalidateRowsFilter();
}

bool DeviceFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const auto *table = qobject_cast<const DeviceTableModel *>(sourceModel());
    if (!table)
        return true;
    if (m_matches) {
        const inventory::Device *device = table->deviceAt(sourceRow);
        if (!device || !m_matches->contains(device->key))
            return false;
    }
    if (m_text.isEmpty())
        return true;
    // Every word must appear in some column: "h100 free" finds free H100s.
    const QStringList words = m_text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &word : words) {
        bool found = false;
        for (int column = 0; column < DeviceTableModel::ColumnCount && !found; ++column)
            found = table->index(sourceRow, column, sourceParent).data().toString().contains(word, Qt::CaseInsensitive);
        if (!found)
            return false;
    }
    return true;
}

} // namespace dra::views
