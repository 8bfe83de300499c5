// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QGraphicsRectItem>
#include <QRectF>
#include <QString>

#include "core/topology/node_topology.h"
#include "core/topology/topology_layout.h"

namespace dra::views {

// A layout rectangle in scene units.
QRectF toQRectF(const topology::LayoutRect &rect);

// A GPU box as the layout places it: name, model, memory, holder; MIG devices drawn as its
// children along the bottom. The item's position is the box's corner.
class GpuBoxItem final : public QGraphicsRectItem
{
public:
    GpuBoxItem(const topology::LayoutDevice &box, const topology::GpuNode &gpu,
        QGraphicsItem *parent = nullptr);
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QString m_title, m_subtitle, m_holder;
};

// A MIG device inside its parent's strip; `rect` in the parent's coordinates.
class MigBoxItem final : public QGraphicsRectItem
{
public:
    MigBoxItem(const topology::LayoutDevice &box, const topology::MigDevice &mig,
        const QRectF &rect, QGraphicsItem *parent);
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QString m_label;
};

// A NIC (another driver's device, or an imported NIC column).
class NicBoxItem final : public QGraphicsRectItem
{
public:
    NicBoxItem(const topology::LayoutDevice &box, const topology::NicNode &nic,
        QGraphicsItem *parent = nullptr);
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QString m_title, m_subtitle;
};

// A labelled frame around a NUMA node or a PCIe root.
class GroupFrameItem final : public QGraphicsRectItem
{
public:
    GroupFrameItem(
        const QRectF &rect, QString label, QString detail, QGraphicsItem *parent = nullptr);
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QString m_label, m_detail;
};

// Rich-text tooltips listing what is known of a device, shared by the items.
QString gpuToolTip(const topology::GpuNode &gpu);
QString migToolTip(const topology::MigDevice &mig);
QString nicToolTip(const topology::NicNode &nic);

} // namespace dra::views
