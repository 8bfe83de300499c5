// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QGraphicsRectItem>
#include <QRectF>
#include <QString>

#include "core/topology/node_topology.h"

namespace dra::views {

// Sizes of the topology drawing, in scene units (pixels at 100 %).
namespace topo_metrics {
inline constexpr qreal gpuWidth = 176, gpuHeight = 108, migStripHeight = 28;
inline constexpr qreal nicWidth = 128, nicHeight = 46;
inline constexpr qreal gap = 16, groupPadding = 12, groupLabel = 22;
inline constexpr int gpusPerRow = 4;
} // namespace topo_metrics

// A GPU box: name, model, memory, holder; MIG devices drawn as its children along the bottom.
class GpuBoxItem final : public QGraphicsRectItem
{
public:
    GpuBoxItem(const topology::GpuNode &gpu, QGraphicsItem *parent = nullptr);
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QString m_title, m_subtitle, m_holder;
};

// A MIG device inside its parent's strip.
class MigBoxItem final : public QGraphicsRectItem
{
public:
    MigBoxItem(const topology::MigDevice &mig, const QRectF &rect, QGraphicsItem *parent);
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QString m_label;
};

// A NIC (another driver's device, or an imported NIC column).
class NicBoxItem final : public QGraphicsRectItem
{
public:
    explicit NicBoxItem(const topology::NicNode &nic, QGraphicsItem *parent = nullptr);
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
