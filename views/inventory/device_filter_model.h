// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <unordered_set>
#include <vector>

#include <QSortFilterProxyModel>

#include "core/inventory/device.h"
#include "core/inventory/device_category.h"
#include "core/inventory/snapshot.h"

namespace dra::views {

class DeviceTableModel;

// Filters the device table by plain text (any column) or by the set of devices a CEL selector
// matched, and sorts numbers and quantities by value.
//
// What sorting and text filtering read of a row is computed once per row and kept, not once per
// comparison: a sort of 100,000 rows makes about two million comparisons, and asking the table
// for two cells each time would stall the window for seconds. The kept values follow the table:
// changed and added rows are read (before the proxy re-sorts them), removed rows dropped, and a
// reset or a new layout drops them all.
class DeviceFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit DeviceFilterModel(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *model) override;
    // Reads the search text of every device of `snapshot` off the GUI thread, so that the first
    // word typed after a reset does not wait for 100,000 rows to be read. Call right after the
    // table was reset to `snapshot`; a change to the table before the reading ends voids it.
    void prepareSearch(inventory::SnapshotPtr snapshot);
    void setText(const QString &text);
    // Shows only devices of this kind (GPUs, MIG devices, ...); std::nullopt shows all kinds.
    void setCategory(std::optional<inventory::DeviceCategory> category);
    std::optional<inventory::DeviceCategory> category() const { return m_category; }
    // Shows only these devices; std::nullopt shows all again.
    void setSelectorMatches(std::optional<std::unordered_set<inventory::DeviceKey>> matches);

Q_SIGNALS:
    // The search texts prepareSearch() read are in place.
    void searchPrepared();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    struct SortKey
    {
        enum Kind { Empty, Number, Text };
        Kind kind = Empty;
        double number = 0;
        QString text; // case-folded
    };
    const DeviceTableModel *table() const;
    SortKey sortKeyOf(int sourceRow, int column) const;
    QString rowTextOf(int sourceRow) const;
    void forgetRows();
    void sourceRowsInserted(const QModelIndex &parent, int first, int last);
    void sourceRowsRemoved(const QModelIndex &parent, int first, int last);
    void rereadRows(const QModelIndex &topLeft, const QModelIndex &bottomRight);

    QStringList m_words; // of the text filter, case-folded
    std::optional<std::unordered_set<inventory::DeviceKey>> m_matches;
    std::optional<inventory::DeviceCategory> m_category;
    mutable std::vector<SortKey> m_sortKeys; // by source row, of m_keyColumn; empty until a sort
    mutable int m_keyColumn = -1;
    mutable std::vector<QString> m_rowTexts; // by source row: every column, case-folded
    int m_rowsGeneration = 0; // counts changes of the rows, for prepareSearch()
};

} // namespace dra::views
