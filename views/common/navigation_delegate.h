// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QStyledItemDelegate>

namespace dra::views {

// The sidebar's rows: the page's icon and name (with its live count) as the style draws them,
// and the keyboard shortcut that opens the page right-aligned in the muted colour, so shortcuts
// are seen without hovering. A long name is cut before the shortcut, never drawn under it, so
// the sidebar keeps its width rather than scrolling sideways.
class NavigationDelegate final : public QStyledItemDelegate
{
public:
    // The shortcut's text, e.g. "Ctrl+4"; rows without one are drawn as usual.
    static constexpr int ShortcutRole = Qt::UserRole + 40;

    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;
};

} // namespace dra::views
