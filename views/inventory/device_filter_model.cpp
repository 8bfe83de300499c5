// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/device_filter_model.h"

#include <algorithm>

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentMap>
#include <QtConcurrent/QtConcurrentRun>

#include "core/inventory/device_category.h"
#include "views/inventory/device_table_model.h"

namespace dra::views {
namespace {

// Runs `read(row)` for rows 0..rows-1 spread over the cores: reading a row only reads the
// shared, immutable snapshot, and each row writes its own element.
template <typename Read> void readRowsInParallel(int rows, Read read)
{
    constexpr int kChunk = 4096;
    std::vector<std::pair<int, int>> chunks;
    for (int first = 0; first < rows; first += kChunk)
        chunks.emplace_back(first, std::min(rows, first + kChunk));
    QtConcurrent::blockingMap(chunks, [&read](const std::pair<int, int> &chunk) {
        for (int row = chunk.first; row < chunk.second; ++row)
            read(row);
    });
}

// Inserts `read(row)` for rows first..last at `first`; false when `rows` does not reach there.
template <typename T, typename Read>
bool insertRead(std::vector<T> &rows, int first, int last, Read read)
{
    if (size_t(first) > rows.size())
        return false;
    std::vector<T> added;
    added.reserve(size_t(last - first + 1));
    for (int row = first; row <= last; ++row)
        added.push_back(read(row));
    rows.insert(rows.begin() + first, std::make_move_iterator(added.begin()),
        std::make_move_iterator(added.end()));
    return true;
}

} // namespace

DeviceFilterModel::DeviceFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setDynamicSortFilter(true); // sorting compares SortKeys (lessThan), not the proxy's sort role
}

void DeviceFilterModel::setSourceModel(QAbstractItemModel *model)
{
    if (sourceModel())
        disconnect(sourceModel(), nullptr, this, nullptr);
    forgetRows();
    if (model) {
        // Connected before the proxy's own handlers (the base class connects below): slots run
        // in connection order, so the proxy re-sorts and re-filters with values already fresh.
        connect(model, &QAbstractItemModel::modelReset, this, &DeviceFilterModel::forgetRows);
        connect(model, &QAbstractItemModel::layoutChanged, this, &DeviceFilterModel::forgetRows);
        connect(
            model, &QAbstractItemModel::rowsInserted, this, &DeviceFilterModel::sourceRowsInserted);
        connect(
            model, &QAbstractItemModel::rowsRemoved, this, &DeviceFilterModel::sourceRowsRemoved);
        connect(model, &QAbstractItemModel::rowsMoved, this, &DeviceFilterModel::forgetRows);
        connect(model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                rereadRows(topLeft, bottomRight);
            });
    }
    QSortFilterProxyModel::setSourceModel(model);
}

const DeviceTableModel *DeviceFilterModel::table() const
{
    return qobject_cast<const DeviceTableModel *>(sourceModel());
}

void DeviceFilterModel::setText(const QString &text)
{
    m_words = text.toCaseFolded().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    invalidateRowsFilter();
}

void DeviceFilterModel::setSelectorMatches(
    std::optional<std::unordered_set<inventory::DeviceKey>> matches)
{
    m_matches = std::move(matches);
    invalidateRowsFilter();
}

void DeviceFilterModel::setCategory(std::optional<inventory::DeviceCategory> category)
{
    m_category = category;
    invalidateRowsFilter();
}

void DeviceFilterModel::prepareSearch(inventory::SnapshotPtr snapshot)
{
    if (!snapshot)
        return;
    const int generation = m_rowsGeneration;
    auto *watcher = new QFutureWatcher<std::vector<QString>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        std::vector<QString> texts = watcher->result();
        // The table lists the snapshot's devices in browse order until it changes.
        if (generation != m_rowsGeneration || !m_rowTexts.empty() || !table()
            || texts.size() != size_t(table()->rowCount()))
            return;
        m_rowTexts = std::move(texts);
        Q_EMIT searchPrepared();
    });
    watcher->setFuture(QtConcurrent::run([snapshot] {
        std::vector<QString> texts;
        texts.reserve(snapshot->devices().size());
        for (const inventory::Device *device : inventory::devicesInBrowseOrder(*snapshot))
            texts.push_back(DeviceTableModel::searchText(*snapshot, *device).toCaseFolded());
        return texts;
    }));
}

void DeviceFilterModel::forgetRows()
{
    ++m_rowsGeneration;
    m_sortKeys.clear();
    m_keyColumn = -1;
    m_rowTexts.clear();
}

void DeviceFilterModel::sourceRowsInserted(const QModelIndex &parent, int first, int last)
{
    ++m_rowsGeneration;
    // A live cluster adds devices a slice at a time: only those rows are read.
    if (parent.isValid() || first < 0 || last < first)
        return forgetRows();
    const bool keysKept = m_sortKeys.empty()
        || insertRead(
            m_sortKeys, first, last, [this](int row) { return sortKeyOf(row, m_keyColumn); });
    const bool textsKept = m_rowTexts.empty()
        || insertRead(m_rowTexts, first, last, [this](int row) { return rowTextOf(row); });
    if (!keysKept || !textsKept)
        forgetRows();
}

void DeviceFilterModel::sourceRowsRemoved(const QModelIndex &parent, int first, int last)
{
    ++m_rowsGeneration;
    const auto erase = [first, last](auto &rows) {
        if (rows.empty())
            return true;
        if (size_t(last) >= rows.size())
            return false;
        rows.erase(rows.begin() + first, rows.begin() + last + 1);
        return true;
    };
    if (parent.isValid() || first < 0 || last < first || !erase(m_sortKeys) || !erase(m_rowTexts))
        forgetRows();
}

void DeviceFilterModel::rereadRows(const QModelIndex &topLeft, const QModelIndex &bottomRight)
{
    ++m_rowsGeneration;
    const bool keyColumnChanged
        = topLeft.column() <= m_keyColumn && m_keyColumn <= bottomRight.column();
    for (int row = std::max(topLeft.row(), 0); row <= bottomRight.row(); ++row) {
        if (keyColumnChanged && size_t(row) < m_sortKeys.size())
            m_sortKeys[size_t(row)] = sortKeyOf(row, m_keyColumn);
        if (size_t(row) < m_rowTexts.size())
            m_rowTexts[size_t(row)] = rowTextOf(row);
    }
}

DeviceFilterModel::SortKey DeviceFilterModel::sortKeyOf(int sourceRow, int column) const
{
    const QVariant value = table() ? table()->sortValue(sourceRow, column) : QVariant();
    SortKey key;
    if (!value.isValid() || value.isNull())
        return key;
    if (value.typeId() == QMetaType::Double || value.typeId() == QMetaType::Int
        || value.typeId() == QMetaType::LongLong) {
        key.kind = SortKey::Number;
        key.number = value.toDouble();
    } else {
        key.kind = SortKey::Text;
        key.text = value.toString().toCaseFolded();
    }
    return key;
}

QString DeviceFilterModel::rowTextOf(int sourceRow) const
{
    return table() ? table()->searchText(sourceRow).toCaseFolded() : QString();
}

bool DeviceFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const DeviceTableModel *table = this->table();
    if (!table || sourceParent.isValid())
        return true;
    if (m_category) {
        const inventory::Device *device = table->deviceAt(sourceRow);
        if (!device || inventory::categoryOf(*device) != *m_category)
            return false;
    }
    if (m_matches) {
        const inventory::Device *device = table->deviceAt(sourceRow);
        if (!device || !m_matches->contains(device->key))
            return false;
    }
    if (m_words.isEmpty())
        return true;
    if (m_rowTexts.size() != size_t(table->rowCount())) {
        m_rowTexts.resize(size_t(table->rowCount()));
        readRowsInParallel(
            table->rowCount(), [this](int row) { m_rowTexts[size_t(row)] = rowTextOf(row); });
    }
    // Every word must appear in some column: "h100 free" finds free H100s.
    const QString &text = m_rowTexts[size_t(sourceRow)];
    return std::ranges::all_of(
        m_words, [&text](const QString &word) { return text.contains(word); });
}

bool DeviceFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const int rows = sourceModel()->rowCount();
    if (left.column() != m_keyColumn || m_sortKeys.size() != size_t(rows)) {
        m_keyColumn = left.column();
        m_sortKeys.resize(size_t(rows));
        readRowsInParallel(
            rows, [this](int row) { m_sortKeys[size_t(row)] = sortKeyOf(row, m_keyColumn); });
    }
    const SortKey &a = m_sortKeys[size_t(left.row())];
    const SortKey &b = m_sortKeys[size_t(right.row())];
    // Empty cells first, as the table shows no value for them; then by value.
    if (a.kind != b.kind)
        return a.kind < b.kind;
    if (a.kind == SortKey::Number)
        return a.number < b.number;
    return a.text < b.text;
}

} // namespace dra::views
