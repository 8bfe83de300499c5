// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/common/table_layout.h"

#include <algorithm>

#include <QAbstractItemView>
#include <QHeaderView>
#include <QHelpEvent>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QTextDocument>
#include <QTimer>
#include <QToolTip>

namespace dra::views {

TableLayout::TableLayout(QTableView *table, const QString &key, int stretchColumn)
    : QObject(table)
    , m_table(table)
    , m_key(key)
    , m_stretchColumn(stretchColumn)
    , m_saveTimer(new QTimer(this))
{
    QHeaderView *header = table->horizontalHeader();
    header->setSectionsMovable(true);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
    table->setTextElideMode(Qt::ElideMiddle);
    table->setItemDelegate(new CellToolTipDelegate(table));

    const QByteArray state = QSettings().value(settingsKey(key)).toByteArray();
    if (!state.isEmpty() && header->restoreState(state)) {
        m_restored = true;
        // The restored indicator is not applied by itself.
        if (table->isSortingEnabled() && header->sortIndicatorSection() >= 0)
            table->sortByColumn(header->sortIndicatorSection(), header->sortIndicatorOrder());
    }

    m_saveTimer->setSingleShot(true);
    m_saveTimer->setInterval(1000);
    connect(m_saveTimer, &QTimer::timeout, this, &TableLayout::save);
    connect(header, &QHeaderView::sectionResized, this, &TableLayout::scheduleSave);
    connect(header, &QHeaderView::sectionMoved, this, &TableLayout::scheduleSave);
    connect(header, &QHeaderView::sortIndicatorChanged, this, &TableLayout::scheduleSave);
}

TableLayout::~TableLayout()
{
    // The table may be half gone by now (this is its child): write what was captured.
    if (m_dirty)
        QSettings().setValue(settingsKey(m_key), m_pending);
}

QString TableLayout::settingsKey(const QString &key)
{
    return QStringLiteral("tables/%1/header").arg(key);
}

void TableLayout::fitToContentsOnce()
{
    if (m_restored || m_fitted || !m_table->model() || m_table->model()->rowCount() == 0)
        return;
    if (!m_table->isVisible()) {
        // A hidden table measures nothing: fit when it is first shown (pages fill before that).
        if (!m_waitingForShow) {
            m_waitingForShow = true;
            m_table->installEventFilter(this);
        }
        return;
    }
    m_fitted = true;
    const bool dirty = m_dirty;
    QHeaderView *header = m_table->horizontalHeader();
    // Measures at most the first rows (QHeaderView::resizeContentsPrecision), so a large table
    // sizes as fast as a small one.
    // The others get their content's width up to a cap (a cut cell has its tooltip); the name
    // column takes the rest, and never less than its own content: names matter most.
    constexpr int kWidest = 240;
    int others = 0;
    for (int column = 0; column < header->count(); ++column) {
        if (column == m_stretchColumn)
            continue;
        m_table->resizeColumnToContents(column);
        if (m_table->columnWidth(column) > kWidest)
            m_table->setColumnWidth(column, kWidest);
        others += m_table->columnWidth(column);
    }
    const QAbstractItemView *view = m_table; // sizeHintForColumn is public there
    const int name = std::max(
        view->sizeHintForColumn(m_stretchColumn), header->sectionSizeHint(m_stretchColumn));
    if (others + name > m_table->viewport()->width()) {
        header->setSectionResizeMode(m_stretchColumn, QHeaderView::Interactive);
        m_table->setColumnWidth(m_stretchColumn, name);
    }
    // Sizing is not a choice of the user's: nothing to remember.
    m_dirty = dirty;
    if (!m_dirty)
        m_saveTimer->stop();
}

bool TableLayout::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table && event->type() == QEvent::Show && m_waitingForShow) {
        m_waitingForShow = false;
        m_table->removeEventFilter(this);
        // After the show has laid the table out, so it measures its visible rows.
        QTimer::singleShot(0, this, &TableLayout::fitToContentsOnce);
    }
    return QObject::eventFilter(watched, event);
}

void TableLayout::scheduleSave()
{
    // Capturing the header is a copy in memory; the settings are written once things settle.
    m_pending = m_table->horizontalHeader()->saveState();
    m_dirty = true;
    m_saveTimer->start();
}

void TableLayout::save()
{
    m_saveTimer->stop();
    m_dirty = false;
    m_pending = m_table->horizontalHeader()->saveState();
    QSettings().setValue(settingsKey(m_key), m_pending);
}

QString plainToolTip(const QString &text)
{
    return Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

QString CellToolTipDelegate::toolTipFor(
    const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem item = option;
    initStyleOption(&item, index);
    const QString text = item.text;
    const QString own = index.data(Qt::ToolTipRole).toString();
    if (!own.isEmpty() && own != text)
        return plainToolTip(own);
    if (text.isEmpty())
        return {};
    // The room the style leaves for text: the cell less its margins and any icon.
    const QWidget *widget = item.widget;
    QStyle *style = widget ? widget->style() : nullptr;
    const QRect textRect
        = style ? style->subElementRect(QStyle::SE_ItemViewItemText, &item, widget) : item.rect;
    const int margin
        = style ? style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1 : 0;
    if (item.fontMetrics.horizontalAdvance(text) <= textRect.width() - 2 * margin)
        return {};
    return plainToolTip(text);
}

bool CellToolTipDelegate::helpEvent(QHelpEvent *event, QAbstractItemView *view,
    const QStyleOptionViewItem &option, const QModelIndex &index)
{
    if (!event || !view || event->type() != QEvent::ToolTip)
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    const QString tip = toolTipFor(option, index);
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPos(), tip, view->viewport(), option.rect);
    return true;
}

void collapseDetailsUntilSelection(QSplitter *splitter, int detailsIndex)
{
    splitter->setCollapsible(detailsIndex, true);
    QList<int> sizes(splitter->count(), 1);
    sizes[detailsIndex] = 0;
    splitter->setSizes(sizes);
}

void openDetails(QSplitter *splitter, int detailsIndex)
{
    QList<int> sizes = splitter->sizes();
    if (sizes.value(detailsIndex) > 0)
        return;
    int total = 0;
    for (int size : sizes)
        total += size;
    const int details = std::max(total / 3, 280);
    if (total < 2 * details) { // not laid out yet, or narrow: proportions
        sizes.fill(2);
        sizes[detailsIndex] = 1;
    } else {
        for (int &size : sizes)
            size = size * (total - details) / total;
        sizes[detailsIndex] = details;
    }
    splitter->setSizes(sizes);
}

} // namespace dra::views
