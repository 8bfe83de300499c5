// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStyledItemDelegate>

class QSplitter;
class QTableView;
class QTimer;

namespace dra::views {

// How a console table uses its width: columns sized to their content with one (the name)
// taking what is left, and the user's widths, order and sort remembered per table.
//
// The layout is kept in QSettings under "tables/<key>/header". A header change only marks it
// dirty; it is written a moment after the last change (and when the layout goes), so dragging a
// column border never writes settings on every step.
class TableLayout final : public QObject
{
    Q_OBJECT
public:
    TableLayout(QTableView *table, const QString &key, int stretchColumn);
    ~TableLayout() override;

    // Sizes the columns to their content unless the user's layout was restored: call when rows
    // first arrive (the content is then known). Later calls do nothing, so a refresh never
    // undoes what the user set.
    void fitToContentsOnce();
    // True when a saved layout was applied at construction.
    bool restored() const { return m_restored; }
    // Writes the layout now (normally left to the timer).
    void save();

    static QString settingsKey(const QString &key);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void scheduleSave();

    QTableView *m_table;
    QString m_key;
    int m_stretchColumn;
    bool m_restored = false;
    bool m_fitted = false;
    bool m_waitingForShow = false;
    bool m_dirty = false;
    QByteArray m_pending; // the header's state as last changed
    QTimer *m_saveTimer;
};

// Shows a cell's full text as a tooltip when the column is too narrow for it, and the model's
// own tooltip otherwise; never rich text, since cells hold cluster data.
class CellToolTipDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    // The tooltip for `index` drawn in `option` (its rect); "" when there is none.
    QString toolTipFor(const QStyleOptionViewItem &option, const QModelIndex &index) const;

    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
        const QModelIndex &index) override;
};

// `text` as a tooltip that shows it literally: Qt renders tooltips that look like HTML as HTML.
QString plainToolTip(const QString &text);

// A details pane beside a table: collapsed until something is selected, then opened to a
// third of the splitter (once; the user's later sizes stand).
void collapseDetailsUntilSelection(QSplitter *splitter, int detailsIndex);
void openDetails(QSplitter *splitter, int detailsIndex);

} // namespace dra::views
