// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/common/navigation_delegate.h"

#include <QApplication>
#include <QPainter>

#include "views/common/theme.h"

namespace dra::views {
namespace {

constexpr int kGap = 8; // between the name and the shortcut, and after the shortcut

QFont shortcutFont(const QFont &font)
{
    QFont smaller = font;
    smaller.setPointSizeF(font.pointSizeF() * 0.9);
    return smaller;
}

} // namespace

void NavigationDelegate::paint(
    QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QString shortcut = index.data(ShortcutRole).toString();
    if (shortcut.isEmpty()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem row(option);
    initStyleOption(&row, index);
    const QStyle *style = row.widget ? row.widget->style() : QApplication::style();
    const QFont font = shortcutFont(row.font);
    const int shortcutWidth = QFontMetrics(font).horizontalAdvance(shortcut);

    // The row's background (and selection) across its whole width, then the icon and the name
    // in what is left beside the shortcut: the style cuts a long name there.
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &row, painter, row.widget);
    QStyleOptionViewItem named(row);
    named.rect.setRight(row.rect.right() - shortcutWidth - 2 * kGap);
    style->drawControl(QStyle::CE_ItemViewItem, &named, painter, row.widget);

    painter->save();
    painter->setFont(font);
    const bool selected = row.state & QStyle::State_Selected;
    painter->setPen(
        selected ? row.palette.color(QPalette::HighlightedText) : themeColors().mutedText);
    painter->drawText(
        QRect(named.rect.right() + kGap, row.rect.top(), shortcutWidth, row.rect.height()),
        Qt::AlignRight | Qt::AlignVCenter, shortcut);
    painter->restore();
}

} // namespace dra::views
