// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/topology/topology_items.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "views/common/theme.h"

namespace dra::views {
namespace {

QString tooltipRow(const QString &label, const QString &value)
{
    if (value.isEmpty())
        return {};
    return QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
        .arg(label, value.toHtmlEscaped());
}

QString holderRows(const topology::Holder &holder)
{
    if (!holder.isHeld())
        return tooltipRow(QStringLiteral("Holder"), QStringLiteral("free"));
    return tooltipRow(QStringLiteral("Claim"), holder.claim)
        + tooltipRow(QStringLiteral("Pods"), holder.pods.join(QStringLiteral(", ")));
}

QString optionalInt(const std::optional<int> &value)
{
    return value ? QString::number(*value) : QString();
}

// A device's fill: its claim's colour when held, else the theme's colour for the state.
QColor fillFor(const topology::LayoutDevice &box)
{
    switch (box.fill) {
    case topology::DeviceFill::Held:
        return holderColor(box.claim);
    case topology::DeviceFill::PartlyHeld:
        return themeColors().partlyUsed;
    case topology::DeviceFill::Unmapped:
    case topology::DeviceFill::Blocked:
        return themeColors().unmapped;
    case topology::DeviceFill::Free:
        break;
    }
    return themeColors().free;
}

void paintBox(QPainter *painter, const QGraphicsRectItem &item, const QColor &fill, bool selected)
{
    const ThemeColors &colors = themeColors();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setBrush(fill);
    painter->setPen(QPen(selected ? colors.selection : colors.frame, selected ? 3 : 1));
    painter->drawRoundedRect(item.rect().adjusted(1, 1, -1, -1), 6, 6);
}

} // namespace

QString gpuToolTip(const topology::GpuNode &gpu)
{
    QString rows = tooltipRow(QStringLiteral("Device"),
                       gpu.device.isEmpty() ? QStringLiteral("(no DRA device)") : gpu.device)
        + tooltipRow(QStringLiteral("Endpoint"), gpu.name != gpu.device ? gpu.name : QString())
        + tooltipRow(QStringLiteral("Driver"), gpu.driver)
        + tooltipRow(QStringLiteral("Pool"), gpu.pool)
        + tooltipRow(QStringLiteral("Model"), gpu.model)
        + tooltipRow(QStringLiteral("Memory"), gpu.memory)
        + tooltipRow(QStringLiteral("UUID"), gpu.uuid)
        + tooltipRow(QStringLiteral("PCI bus"), gpu.pciBusId)
        + tooltipRow(QStringLiteral("PCIe root"), gpu.pcieRoot)
        + tooltipRow(QStringLiteral("NUMA"), optionalInt(gpu.numa))
        + tooltipRow(QStringLiteral("Index"), optionalInt(gpu.index))
        + tooltipRow(QStringLiteral("CPU affinity"), gpu.cpuAffinity)
        + tooltipRow(QStringLiteral("Mapping"), gpu.mappingNote) + holderRows(gpu.holder);
    return QStringLiteral("<table>%1</table>").arg(rows);
}

QString migToolTip(const topology::MigDevice &mig)
{
    QString slices;
    if (mig.sliceStart >= 0)
        slices
            = QStringLiteral("%1–%2").arg(mig.sliceStart).arg(mig.sliceStart + mig.sliceCount - 1);
    const QString rows = tooltipRow(QStringLiteral("Device"), mig.device)
        + tooltipRow(QStringLiteral("Profile"), mig.profile)
        + tooltipRow(QStringLiteral("Memory"), mig.memory)
        + tooltipRow(QStringLiteral("UUID"), mig.uuid)
        + tooltipRow(QStringLiteral("Memory slices"), slices)
        + (mig.holder.isHeld()
                ? holderRows(mig.holder)
                : tooltipRow(QStringLiteral("Holder"),
                    mig.free ? QStringLiteral("free")
                             : QStringLiteral("blocked by a sibling or the parent")));
    return QStringLiteral("<table>%1</table>").arg(rows);
}

QString nicToolTip(const topology::NicNode &nic)
{
    const QString rows
        = tooltipRow(QStringLiteral("Device"), nic.device.isEmpty() ? nic.name : nic.device)
        + tooltipRow(QStringLiteral("Driver"), nic.driver)
        + tooltipRow(QStringLiteral("Interface"), nic.interfaceName)
        + tooltipRow(QStringLiteral("PCI bus"), nic.pciBusId)
        + tooltipRow(QStringLiteral("PCIe root"), nic.pcieRoot)
        + tooltipRow(QStringLiteral("NUMA"), optionalInt(nic.numa)) + holderRows(nic.holder);
    return QStringLiteral("<table>%1</table>").arg(rows);
}

QRectF toQRectF(const topology::LayoutRect &rect)
{
    return { rect.x, rect.y, rect.w, rect.h };
}

GpuBoxItem::GpuBoxItem(
    const topology::LayoutDevice &box, const topology::GpuNode &gpu, QGraphicsItem *parent)
    : QGraphicsRectItem(0, 0, box.rect.w, box.rect.h, parent)
    , m_title(box.title)
    , m_subtitle(box.subtitle)
    , m_holder(box.holder)
{
    setPos(box.rect.x, box.rect.y);
    setToolTip(gpuToolTip(gpu));
    setFlag(QGraphicsItem::ItemIsSelectable, box.selectable);
    setAcceptHoverEvents(true);
    setBrush(fillFor(box));
}

void GpuBoxItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    paintBox(painter, *this, brush().color(), option->state & QStyle::State_Selected);
    const QRectF text = rect().adjusted(8, 6, -8, -topology::layout_metrics::migStripHeight - 4);
    QFont font = painter->font();
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(textColorOn(brush().color()));
    painter->drawText(text, Qt::AlignLeft | Qt::AlignTop | Qt::TextSingleLine,
        painter->fontMetrics().elidedText(m_title, Qt::ElideMiddle, int(text.width())));
    font.setBold(false);
    painter->setFont(font);
    const int line = painter->fontMetrics().height();
    painter->drawText(text.adjusted(0, line + 2, 0, 0),
        Qt::AlignLeft | Qt::AlignTop | Qt::TextSingleLine,
        painter->fontMetrics().elidedText(m_subtitle, Qt::ElideRight, int(text.width())));
    if (!m_holder.isEmpty()) {
        painter->drawText(text.adjusted(0, 2 * line + 4, 0, 0),
            Qt::AlignLeft | Qt::AlignTop | Qt::TextSingleLine,
            painter->fontMetrics().elidedText(m_holder, Qt::ElideMiddle, int(text.width())));
    }
}

MigBoxItem::MigBoxItem(const topology::LayoutDevice &box, const topology::MigDevice &mig,
    const QRectF &rect, QGraphicsItem *parent)
    : QGraphicsRectItem(rect, parent)
    , m_label(box.title)
{
    setToolTip(migToolTip(mig));
    setFlag(QGraphicsItem::ItemIsSelectable, box.selectable);
    setAcceptHoverEvents(true);
    setBrush(fillFor(box));
}

void MigBoxItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const bool selected = option->state & QStyle::State_Selected;
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setBrush(brush());
    painter->setPen(
        QPen(selected ? themeColors().selection : QColor(0x40, 0x40, 0x40), selected ? 2.5 : 0.8));
    painter->drawRoundedRect(rect().adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
    if (rect().height() < 11)
        return; // a thin lane of stacked placements: the tooltip names it
    QFont font = painter->font();
    font.setPointSizeF(font.pointSizeF() * 0.8);
    painter->setFont(font);
    painter->setPen(textColorOn(brush().color()));
    painter->drawText(rect(), Qt::AlignCenter,
        painter->fontMetrics().elidedText(m_label, Qt::ElideRight, int(rect().width()) - 2));
}

NicBoxItem::NicBoxItem(
    const topology::LayoutDevice &box, const topology::NicNode &nic, QGraphicsItem *parent)
    : QGraphicsRectItem(0, 0, box.rect.w, box.rect.h, parent)
    , m_title(box.title)
    , m_subtitle(box.subtitle)
{
    setPos(box.rect.x, box.rect.y);
    setToolTip(nicToolTip(nic));
    setFlag(QGraphicsItem::ItemIsSelectable, box.selectable);
    setAcceptHoverEvents(true);
    const QColor fill = fillFor(box);
    setBrush(box.fill == topology::DeviceFill::Unmapped ? fill : fill.lighter(112));
}

void NicBoxItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    paintBox(painter, *this, brush().color(), option->state & QStyle::State_Selected);
    painter->setPen(textColorOn(brush().color()));
    const QRectF text = rect().adjusted(6, 4, -6, -4);
    painter->drawText(text, Qt::AlignLeft | Qt::AlignTop,
        painter->fontMetrics().elidedText(m_title, Qt::ElideMiddle, int(text.width())));
    painter->drawText(text, Qt::AlignLeft | Qt::AlignBottom,
        painter->fontMetrics().elidedText(m_subtitle, Qt::ElideRight, int(text.width())));
}

GroupFrameItem::GroupFrameItem(
    const QRectF &rect, QString label, QString detail, QGraphicsItem *parent)
    : QGraphicsRectItem(rect, parent)
    , m_label(std::move(label))
    , m_detail(std::move(detail))
{
    setZValue(-1);
}

void GroupFrameItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const ThemeColors &colors = themeColors();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setBrush(colors.groupFill);
    painter->setPen(QPen(colors.frame, 1, Qt::SolidLine));
    painter->drawRoundedRect(rect(), 8, 8);
    const QRectF label = rect().adjusted(
        topology::layout_metrics::groupPadding, 3, -topology::layout_metrics::groupPadding, 0);
    QFont font = painter->font();
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(colors.text);
    painter->drawText(label, Qt::AlignLeft | Qt::AlignTop, m_label);
    const int labelWidth = painter->fontMetrics().horizontalAdvance(m_label);
    font.setBold(false);
    painter->setFont(font);
    painter->setPen(colors.mutedText);
    painter->drawText(label.adjusted(labelWidth + 10, 0, 0, 0), Qt::AlignLeft | Qt::AlignTop,
        painter->fontMetrics().elidedText(
            m_detail, Qt::ElideRight, int(label.width()) - labelWidth - 10));
}

} // namespace dra::views
