// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/node_overview.h"

#include <QPainter>

#include "views/common/theme.h"
#include "views/inventory/node_tile_model.h"

namespace dra::views {

void NodeTileDelegate::paint(
    QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const ThemeColors &colors = themeColors();
    const QRectF tile = QRectF(option.rect).adjusted(4, 4, -4, -4);
    const bool selected = option.state & QStyle::State_Selected;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(selected ? colors.selection : colors.frame, selected ? 2.5 : 1));
    painter->setBrush(option.palette.base());
    painter->drawRoundedRect(tile, 6, 6);

    const QRectF text = tile.adjusted(8, 6, -8, -6);
    QFont font = option.font;
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(option.palette.color(QPalette::Text));
    const QFontMetrics bold(font);
    painter->drawText(text, Qt::AlignLeft | Qt::AlignTop,
        bold.elidedText(
            index.data(NodeTileModel::NodeRole).toString(), Qt::ElideMiddle, int(text.width())));
    painter->setFont(option.font);
    painter->setPen(colors.mutedText);
    const int line = option.fontMetrics.height();
    painter->drawText(text.adjusted(0, line + 2, 0, 0), Qt::AlignLeft | Qt::AlignTop,
        option.fontMetrics.elidedText(
            index.data(NodeTileModel::ModelRole).toString(), Qt::ElideRight, int(text.width())));

    // One cell per whole device: free cells green, the rest in the allocated colour.
    const int total = index.data(NodeTileModel::WholeTotalRole).toInt();
    const int free = index.data(NodeTileModel::WholeFreeRole).toInt();
    const qreal barTop = text.top() + 2 * line + 8;
    if (total > 0) {
        const qreal cell = std::min<qreal>(18, (text.width() - (total - 1) * 3) / total);
        for (int i = 0; i < total; ++i) {
            const QRectF box(text.left() + i * (cell + 3), barTop, cell, 12);
            painter->setPen(Qt::NoPen);
            painter->setBrush(i < free ? colors.free : colors.linkPcie);
            painter->drawRoundedRect(box, 2, 2);
        }
    }
    const int partitionsTotal = index.data(NodeTileModel::PartitionsTotalRole).toInt();
    QString summary = total > 0 ? QStringLiteral("%1/%2 GPUs free").arg(free).arg(total)
                                : QStringLiteral("no DRA GPUs");
    if (index.data(NodeTileModel::DevicePluginOnlyRole).toBool())
        summary = QStringLiteral("%1 GPUs · device plugin only")
                      .arg(index.data(NodeTileModel::DevicePluginGpusRole).toLongLong());
    if (partitionsTotal > 0)
        summary += QStringLiteral(" · MIG %1 fit")
                       .arg(index.data(NodeTileModel::PartitionsFreeRole).toInt());
    if (const int unhealthy = index.data(NodeTileModel::UnhealthyRole).toInt())
        summary += QStringLiteral(" · %1 unhealthy").arg(unhealthy);
    if (const int tainted = index.data(NodeTileModel::TaintedRole).toInt())
        summary += QStringLiteral(" · %1 tainted").arg(tainted);
    if (const int nics = index.data(NodeTileModel::NicsRole).toInt())
        summary += QStringLiteral(" · %1 NICs").arg(nics);
    if (const int other = index.data(NodeTileModel::OtherDevicesRole).toInt())
        summary += QStringLiteral(" · %1 other").arg(other);
    painter->setPen(option.palette.color(QPalette::Text));
    painter->drawText(QRectF(text.left(), barTop + 16, text.width(), line),
        Qt::AlignLeft | Qt::AlignTop,
        option.fontMetrics.elidedText(summary, Qt::ElideRight, int(text.width())));
    painter->restore();
}

QSize NodeTileDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    return { 210, option.fontMetrics.height() * 3 + 46 };
}

NodeOverview::NodeOverview(NodeTileModel *model, QWidget *parent)
    : QListView(parent)
{
    setModel(model);
    setItemDelegate(new NodeTileDelegate(this));
    setViewMode(QListView::IconMode);
    setResizeMode(QListView::Adjust);
    setMovement(QListView::Static);
    setUniformItemSizes(true); // 5,000 tiles lay out without measuring each
    setSelectionMode(QAbstractItemView::SingleSelection);
    setSpacing(2);
    setLayoutMode(QListView::Batched);
    connect(this, &QListView::activated, this, [this](const QModelIndex &index) {
        Q_EMIT nodeActivated(index.data(NodeTileModel::NodeRole).toString());
    });
}

} // namespace dra::views
