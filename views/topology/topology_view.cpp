// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/topology/topology_view.h"

#include <QFileInfo>
#include <QGraphicsItem>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QWheelEvent>

#include "core/topology/topology_render.h"
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

Result<void> exportScene(TopologyScene &scene, const QString &path)
{
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        // Written beside and renamed over: a failed write leaves an older file as it was.
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly)
            || file.write(topology::toSvg(scene.topology()).toUtf8()) < 0 || !file.commit())
            return fail(common::Error::Code::Internal,
                QStringLiteral("%1: cannot write the SVG file: %2").arg(path, file.errorString()));
        return {};
    }
    const QRectF source = scene.sceneRect();
    const QList<QGraphicsItem *> selected = scene.selectedItems();
    scene.clearSelection(); // an export shows the cluster, not the user's cursor
    auto restore = [&] {
        for (QGraphicsItem *item : selected)
            item->setSelected(true);
    };
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
