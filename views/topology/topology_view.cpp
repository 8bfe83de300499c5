// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/topology/topology_view.h"

#include <QFileInfo>
#include <QGraphicsItem>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QWheelEvent>

#include "views/topology/topology_scene.h"

namespace dra::views {

TopologyView::TopologyView(TopologyScene *scene, QWidget *parent)
    : QGraphicsView(scene, parent)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::BoundingRectViewportUpdate);
}

void TopologyView::zoomBy(qreal factor)
{
    const qreal current = transform().m11();
    const qreal next = std::clamp(current * factor, 0.1, 6.0);
    scale(next / current, next / current);
}

void TopologyView::fitAll()
{
    if (scene())
        fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
}

void TopologyView::wheelEvent(QWheelEvent *event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        zoomBy(event->angleDelta().y() > 0 ? 1.15 : 1 / 1.15);
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

Result<void> exportScene(QGraphicsScene &scene, const QString &path)
{
    const QRectF source = scene.sceneRect();
    const QList<QGraphicsItem *> selected = scene.selectedItems();
    scene.clearSelection(); // an export shows the cluster, not the user's cursor
    auto restore = [&] {
        for (QGraphicsItem *item : selected)
            item->setSelected(true);
    };
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(source.size().toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
        svg.setTitle(QStringLiteral("GPU topology"));
        QPainter painter;
        if (!painter.begin(&svg)) {
            restore();
            return fail(common::Error::Code::Internal,
                QStringLiteral("%1: cannot write the SVG file").arg(path));
        }
        scene.render(&painter, QRectF(QPointF(0, 0), source.size()), source);
        painter.end();
        restore();
        return {};
    }
    QImage image((source.size() * 2).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter painter(&image);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        scene.render(&painter, QRectF(image.rect()), source);
    }
    restore();
    if (!image.save(path))
        return fail(
            common::Error::Code::Internal, QStringLiteral("%1: cannot write the image").arg(path));
    return {};
}

} // namespace dra::views
