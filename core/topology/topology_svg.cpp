// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The topology layout written as SVG text, so the headless dractl, the console's export and the
// rollout evidence need no Qt Gui and write the same bytes for the same node.
#include "core/topology/topology_layout.h"
#include "core/topology/topology_render.h"

namespace dra::topology {

namespace {

constexpr double kHeader = 36; // the title line above the drawing
constexpr double kFooter = 28; // the legend below it
constexpr double kMinWidth = 480;
constexpr double kFontSize = 12; // the drawing's own (its <svg> sets font-size="12")

const char *const kNvColour = "#2a9d8f";
const char *const kPcieColour = "#264653";

QString esc(const QString &text)
{
    QString out = text.toHtmlEscaped();
    return out.replace(u'\'', QStringLiteral("&apos;"));
}

// A coordinate as printed: hundredths at most, no trailing zeros.
QString num(double value)
{
    QString text = QString::number(value, 'f', 2);
    while (text.endsWith(u'0'))
        text.chop(1);
    if (text.endsWith(u'.'))
        text.chop(1);
    return text == QStringLiteral("-0") ? QStringLiteral("0") : text;
}

// The advance of `c` in em, as DejaVu Sans (the widest of the usual sans-serif fonts, so
// text fitted with it fits in the others too) draws it; `bold` is about a tenth wider.
double advanceEm(QChar c)
{
    const char16_t u = c.unicode();
    if (u == u' ')
        return 0.32;
    if (QStringLiteral("iIjl.,:;|!'`").contains(c) || u == 0x00b7 /* · */)
        return 0.32;
    if (QStringLiteral("frt-()[]/\\").contains(c))
        return 0.41;
    if (u == u'm' || u == u'M' || u == u'W')
        return 0.99;
    if (u == u'w')
        return 0.82;
    if (u >= u'0' && u <= u'9')
        return 0.64;
    if (u >= u'a' && u <= u'z')
        return 0.62;
    if (u >= u'A' && u <= u'Z')
        return 0.76;
    return 0.8; // symbols and other scripts: generously
}

double textWidth(const QString &text, double fontSize, bool bold)
{
    double em = 0;
    for (const QChar c : text)
        em += advanceEm(c);
    return em * fontSize * (bold ? 1.1 : 1.0);
}

// Box text is cut to the width it may take; the full text is in the element's <title> tooltip.
// Widths are estimated (a file has no fonts to measure), on the wide side.
QString fitToWidth(const QString &text, double room, double fontSize, bool bold = false)
{
    if (textWidth(text, fontSize, bold) <= room)
        return text;
    const QString ellipsis(QChar(0x2026));
    QString cut = text;
    while (!cut.isEmpty() && textWidth(cut + ellipsis, fontSize, bold) > room)
        cut.chop(1);
    return cut.isEmpty() ? QString() : cut + ellipsis;
}

QString text(double x, double y, const QString &content, const QString &extra = {})
{
    return QStringLiteral("<text x=\"%1\" y=\"%2\"%3>%4</text>\n")
        .arg(num(x), num(y), extra, esc(content));
}

QString rect(const LayoutRect &r, const QString &attributes)
{
    return QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" %5/>\n")
        .arg(num(r.x), num(r.y), num(r.w), num(r.h), attributes);
}

QString fillOf(const LayoutDevice &device)
{
    if (device.kind == LayoutDevice::Kind::Mig)
        switch (device.fill) {
        case DeviceFill::Held:
            return QStringLiteral("#e76f51");
        case DeviceFill::Free:
            return QStringLiteral("#ffffff");
        default:
            return QStringLiteral("#e5e5e5");
        }
    switch (device.fill) {
    case DeviceFill::Held:
        return QStringLiteral("#f6bd60");
    case DeviceFill::PartlyHeld:
        return QStringLiteral("#fbe3b4");
    case DeviceFill::Unmapped:
    case DeviceFill::Blocked:
        return QStringLiteral("#e5e5e5");
    case DeviceFill::Free:
        break;
    }
    return QString::fromLatin1(device.kind == LayoutDevice::Kind::Nic ? "#e9f1fb" : "#d8f3dc");
}

// Solid when imported (a measurement), dotted from attributes, dashed when inferred (a guess).
QString dashOf(LinkSource source)
{
    switch (source) {
    case LinkSource::Imported:
        return {};
    case LinkSource::Attribute:
        return QStringLiteral(" stroke-dasharray=\"2 4\"");
    case LinkSource::Inferred:
        return QStringLiteral(" stroke-dasharray=\"8 5\"");
    }
    return {};
}

QString frameSvg(const LayoutFrame &frame)
{
    const bool numa = frame.kind == LayoutFrame::Kind::Numa;
    QString out = QStringLiteral("<g class=\"%1\">\n").arg(numa ? u"numa" : u"pcie-root");
    out += rect(frame.rect,
        numa ? QStringLiteral("rx=\"8\" fill=\"#f7f7f7\" stroke=\"#555\"")
             : QStringLiteral("rx=\"8\" fill=\"#fcfcfc\" stroke=\"#999\""));
    QString label = esc(frame.label);
    if (!frame.detail.isEmpty())
        label += QStringLiteral("<tspan font-weight=\"normal\" fill=\"#666\">  %1</tspan>")
                     .arg(esc(frame.detail));
    out += QStringLiteral("<text x=\"%1\" y=\"%2\" font-weight=\"bold\">%3</text>\n</g>\n")
               .arg(
                   num(frame.rect.x + layout_metrics::groupPadding), num(frame.rect.y + 16), label);
    return out;
}

QString deviceSvg(const LayoutDevice &device)
{
    const LayoutRect &r = device.rect;
    if (device.kind == LayoutDevice::Kind::Mig) {
        QString out
            = QStringLiteral("<rect class=\"mig\" x=\"%1\" y=\"%2\" width=\"%3\" "
                             "height=\"%4\" rx=\"2\" fill=\"%5\" stroke=\"#404040\">"
                             "<title>%6</title></rect>\n")
                  .arg(num(r.x), num(r.y), num(r.w), num(r.h), fillOf(device), esc(device.tooltip));
        const QString label = fitToWidth(device.title, r.w - 2, 9);
        if (r.h >= 11 && label.size() >= 2)
            out += text(r.x + r.w / 2, r.y + r.h / 2 + 3, label,
                QStringLiteral(" font-size=\"9\" text-anchor=\"middle\""));
        return out;
    }
    const bool gpu = device.kind == LayoutDevice::Kind::Gpu;
    QString out = QStringLiteral("<g class=\"%1\" id=\"%2\">\n<title>%3</title>\n")
                      .arg(gpu ? u"gpu" : u"nic", esc(device.endpoint), esc(device.tooltip));
    out += rect(r,
        QStringLiteral("rx=\"6\" fill=\"%1\" stroke=\"#333\"%2")
            .arg(fillOf(device),
                device.fill == DeviceFill::Unmapped ? QStringLiteral(" stroke-dasharray=\"4 3\"")
                                                    : QString()));
    if (gpu) {
        const double room = r.w - 16;
        out += text(r.x + 8, r.y + 18, fitToWidth(device.title, room, kFontSize, true),
            QStringLiteral(" font-weight=\"bold\""));
        out += text(r.x + 8, r.y + 34, fitToWidth(device.subtitle, room, kFontSize));
        if (!device.holder.isEmpty())
            out += text(r.x + 8, r.y + 50, fitToWidth(device.holder, room, kFontSize));
    } else {
        const double room = r.w - 12;
        out += text(r.x + 6, r.y + 16, fitToWidth(device.title, room, kFontSize, true),
            QStringLiteral(" font-weight=\"bold\""));
        out += text(r.x + 6, r.bottom() - 8, fitToWidth(device.subtitle, room, kFontSize));
    }
    return out;
}

QString linkSvg(const LayoutLink &link)
{
    const bool nv = link.kind == LinkKind::NV;
    const QString colour = QString::fromLatin1(nv ? kNvColour : kPcieColour);
    const QString classes
        = QStringLiteral("link %1 %2")
              .arg(link.to == QStringLiteral("fabric") ? QStringLiteral("fabric-drop")
                                                       : linkKindName(link.kind).toLower(),
                  linkSourceName(link.source));
    if (link.shape == LayoutLink::Shape::Line)
        return QStringLiteral("<line class=\"%1\" x1=\"%2\" y1=\"%3\" x2=\"%4\" y2=\"%5\" "
                              "stroke=\"%6\" stroke-width=\"%7\"%8><title>%9</title></line>\n")
            .arg(classes, num(link.start.x), num(link.start.y), num(link.end.x), num(link.end.y),
                colour, num(link.width), dashOf(link.source), esc(link.tooltip));
    QString out = QStringLiteral("<path class=\"%1\" d=\"M %2 %3 C %4 %5 %6 %7 %8 %9\" "
                                 "fill=\"none\" stroke=\"%10\" stroke-width=\"%11\"%12>"
                                 "<title>%13</title></path>\n")
                      .arg(classes, num(link.start.x), num(link.start.y), num(link.control1.x),
                          num(link.control1.y), num(link.control2.x), num(link.control2.y),
                          num(link.end.x), num(link.end.y))
                      .arg(colour, num(link.width), dashOf(link.source), esc(link.tooltip));
    out += text(link.labelAt.x, link.labelAt.y + 11, link.label,
        QStringLiteral(" fill=\"%1\" font-size=\"11\"").arg(colour));
    return out;
}

} // namespace

QString toSvg(const TopologyLayout &layout)
{
    const LayoutRect &b = layout.bounds;
    const double width = std::max(b.w, kMinWidth);
    const double height = kHeader + b.h + kFooter;
    QString out = QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" "
                                 "height=\"%2\" viewBox=\"0 0 %1 %2\" "
                                 "font-family=\"sans-serif\" font-size=\"12\">\n")
                      .arg(num(width), num(height));
    out += QStringLiteral("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    out += text(layout_metrics::gap, 24,
        QStringLiteral("Node %1 — %2")
            .arg(layout.node,
                layout.imported ? QStringLiteral("imported nvidia-smi topo -m")
                                : QStringLiteral("from ResourceSlice attributes")),
        QStringLiteral(" font-size=\"15\" font-weight=\"bold\""));
    out += QStringLiteral("<g transform=\"translate(%1 %2)\">\n")
               .arg(num(-b.x), num(kHeader - b.y));
    for (const LayoutFrame &frame : layout.frames)
        out += frameSvg(frame);
    // Lines go under the boxes, arcs over them: all-to-all lines would cover the labels.
    for (const LayoutLink &link : layout.links)
        if (link.shape == LayoutLink::Shape::Line)
            out += linkSvg(link);
    if (const std::optional<LayoutFabric> &fabric = layout.fabric) {
        out += QStringLiteral("<g class=\"fabric\">\n");
        out += rect(fabric->rect,
            QStringLiteral("fill=\"#bfe6e1\" stroke=\"%1\" stroke-width=\"1.5\"%2")
                .arg(QString::fromLatin1(kNvColour), dashOf(fabric->source)));
        out += text(fabric->rect.x + 8, fabric->rect.y + 15, fabric->label);
        out += QStringLiteral("</g>\n");
    }
    const std::vector<LayoutDevice> &devices = layout.devices;
    for (size_t i = 0; i < devices.size(); ++i) {
        out += deviceSvg(devices[i]);
        // A GPU's group closes after its MIG devices, so they are drawn inside it.
        if (devices[i].kind == LayoutDevice::Kind::Nic || i + 1 == devices.size()
            || devices[i + 1].kind != LayoutDevice::Kind::Mig)
            out += QStringLiteral("</g>\n");
    }
    for (const LayoutLink &link : layout.links)
        if (link.shape == LayoutLink::Shape::Arc)
            out += linkSvg(link);
    if (!layout.emptyText.isEmpty())
        out += text(0, 14, layout.emptyText, QStringLiteral(" fill=\"#666\""));
    out += QStringLiteral("</g>\n");
    out += text(layout_metrics::gap, height - 10,
        QStringLiteral("fill: orange held, green free, grey unmapped or blocked; links: solid "
                       "imported, dotted attribute, dashed inferred"),
        QStringLiteral(" font-size=\"11\""));
    return out + QStringLiteral("</svg>\n");
}

QString toSvg(const NodeTopology &topology)
{
    return toSvg(layoutTopology(topology));
}

} // namespace dra::topology
