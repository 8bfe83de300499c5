// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/topology/topology_scene.h"

#include <QGraphicsPathItem>
#include <QGraphicsSimpleTextItem>
#include <QPainterPath>

#include "views/common/table_layout.h"
#include "views/common/theme.h"
#include "views/topology/topology_items.h"

namespace dra::views {
namespace {

QPointF scenePoint(const topology::LayoutPoint &point)
{
    return { point.x, point.y };
}

QPen linkPen(const QColor &color, topology::LinkSource source, qreal width)
{
    QPen pen(color, width);
    pen.setCapStyle(Qt::RoundCap);
    // A guess is never drawn like a measurement; attribute links are dotted, as in the SVG.
    if (source == topology::LinkSource::Inferred)
        pen.setStyle(Qt::DashLine);
    else if (source == topology::LinkSource::Attribute)
        pen.setStyle(Qt::DotLine);
    return pen;
}

void tagLink(QGraphicsItem *item, const topology::LayoutLink &link)
{
    item->setData(TopologyScene::ItemKindKey, TopologyScene::LinkItem);
    item->setData(TopologyScene::EndpointKey, QStringList { link.from, link.to });
    item->setData(TopologyScene::LinkSourceKey, topology::linkSourceName(link.source));
    item->setToolTip(plainToolTip(link.tooltip)); // endpoint names are cluster data
}

} // namespace

TopologyScene::TopologyScene(QObject *parent)
    : QGraphicsScene(parent)
{
    connect(this, &QGraphicsScene::selectionChanged, this, &TopologyScene::onSelectionChanged);
}

TopologyScene::~TopologyScene()
{
    // QGraphicsScene's destructor deselects the items it deletes; this part is gone by then.
    disconnect(this, &QGraphicsScene::selectionChanged, this, &TopologyScene::onSelectionChanged);
}

void TopologyScene::setTopology(topology::NodeTopology topology)
{
    const QString selected = selectedDevice();
    m_topology = std::move(topology);
    rebuild();
    if (!selected.isEmpty())
        selectDevice(selected);
}

bool TopologyScene::selectDevice(const QString &device)
{
    m_selectingProgrammatically = true;
    clearSelection();
    bool found = false;
    for (QGraphicsItem *item : items()) {
        if (!device.isEmpty() && item->data(DeviceKey).toString() == device) {
            item->setSelected(true);
            found = true;
            break;
        }
    }
    m_selectingProgrammatically = false;
    return found;
}

QString TopologyScene::selectedDevice() const
{
    const QList<QGraphicsItem *> selection = selectedItems();
    return selection.isEmpty() ? QString() : selection.first()->data(DeviceKey).toString();
}

void TopologyScene::onSelectionChanged()
{
    if (!m_selectingProgrammatically)
        Q_EMIT deviceSelected(selectedDevice());
}

void TopologyScene::rebuild()
{
    clear();
    const ThemeColors &colors = themeColors();
    // Where everything goes is core's (the SVG export and dractl draw the same layout); this
    // only paints it with the theme's colours.
    const topology::TopologyLayout layout = topology::layoutTopology(m_topology);

    for (const topology::LayoutFrame &frame : layout.frames) {
        auto *item = new GroupFrameItem(toQRectF(frame.rect), frame.label, frame.detail);
        item->setData(ItemKindKey, GroupItem);
        if (frame.kind == topology::LayoutFrame::Kind::Numa)
            item->setZValue(-2);
        addItem(item);
    }

    GpuBoxItem *parent = nullptr; // the GPU whose MIG devices follow
    for (const topology::LayoutDevice &box : layout.devices) {
        QGraphicsItem *item = nullptr;
        switch (box.kind) {
        case topology::LayoutDevice::Kind::Gpu:
            parent = new GpuBoxItem(box, m_topology.gpus[box.index]);
            parent->setData(ItemKindKey, GpuItem);
            item = parent;
            addItem(item);
            break;
        case topology::LayoutDevice::Kind::Mig: {
            const QRectF inParent = toQRectF(box.rect).translated(-parent->pos());
            item = new MigBoxItem(box, m_topology.gpus[box.index].migs[box.mig], inParent, parent);
            item->setData(ItemKindKey, MigItem);
            break;
        }
        case topology::LayoutDevice::Kind::Nic:
            item = new NicBoxItem(box, m_topology.nics[box.index]);
            item->setData(ItemKindKey, NicItem);
            addItem(item);
            break;
        }
        item->setData(DeviceKey, box.device);
        if (box.kind != topology::LayoutDevice::Kind::Mig)
            item->setData(EndpointKey, box.endpoint);
    }

    if (const std::optional<topology::LayoutFabric> &fabric = layout.fabric) {
        auto *barItem
            = addRect(toQRectF(fabric->rect), linkPen(colors.linkNvlink, fabric->source, 1.5),
                QBrush(colors.linkNvlink.lighter(170)));
        barItem->setData(ItemKindKey, FabricItem);
        barItem->setData(LinkSourceKey, topology::linkSourceName(fabric->source));
        auto *label = addSimpleText(fabric->label);
        label->setBrush(textColorOn(colors.linkNvlink.lighter(170)));
        label->setPos(fabric->rect.x + 8, fabric->rect.y + 3);
    }

    for (const topology::LayoutLink &link : layout.links) {
        const bool nv = link.kind == topology::LinkKind::NV;
        const QPen pen = linkPen(nv ? colors.linkNvlink : colors.linkPcie, link.source, link.width);
        if (link.shape == topology::LayoutLink::Shape::Arc) {
            QPainterPath path(scenePoint(link.start));
            path.cubicTo(
                scenePoint(link.control1), scenePoint(link.control2), scenePoint(link.end));
            auto *item = addPath(path, pen);
            item->setZValue(1);
            tagLink(item, link);
            auto *label = addSimpleText(link.label);
            label->setBrush(colors.linkNvlink);
            label->setPos(scenePoint(link.labelAt));
            label->setZValue(1);
        } else {
            auto *item = addLine(QLineF(scenePoint(link.start), scenePoint(link.end)), pen);
            // Drops to the fabric under the frames' contents; PCIe paths just under the boxes.
            item->setZValue(nv ? -3 : -0.5);
            tagLink(item, link);
        }
    }

    if (!layout.emptyText.isEmpty()) {
        auto *text = addSimpleText(layout.emptyText);
        text->setBrush(colors.mutedText);
    }
    setSceneRect(toQRectF(layout.bounds));
}

} // namespace dra::views
