// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QListView>
#include <QStyledItemDelegate>

namespace dra::views {

class NodeTileModel;

// Paints a node tile: name, GPU model, a bar of whole devices (free / allocated) and the
// partitions still free.
class NodeTileDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

// The cluster at a glance: every node as a compact tile, in a grid that reflows with the
// window. Activating a tile asks for that node's topology.
class NodeOverview final : public QListView
{
    Q_OBJECT
public:
    explicit NodeOverview(NodeTileModel *model, QWidget *parent = nullptr);

Q_SIGNALS:
    void nodeActivated(const QString &node);
};

} // namespace dra::views
