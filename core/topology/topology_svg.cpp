// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// SVG written as text so the headless dractl and reports need no Qt Gui. The layout is a fixed
// grid (NUMA columns, PCIe-root bands, GPU boxes in a row, NICs under them): predictable output
// that diffs well and stays readable for an 8-GPU HGX node.
#include "core/topology/topology_render.h"

#include <limits>
#include <map>

namespace dra::topology {

namespace {

constexpr int kMargin = 20;
constexpr int kGpuWidth = 190;
constexpr int kGpuHeaderHeight = 58;
constexpr int kMigRowHeight = 14;
constexpr int kNicWidth = 120;
constexpr int kNicHeight = 34;
constexpr int kGap = 12;
constexpr int kRootLabel = 22;
constexpr int kNumaLabel = 26;
// Sorts after every real node, so devices without NUMA information come last.
constexpr int kUnknownNuma = std::numeric_limits<int>::max();

const char *const kHeldFill = "#f6bd60";
const char *const kFreeFill = "#d8f3dc";
const char *const kBlockedFill = "#e5e5e5";
const char *const kMigHeldFill = "#e76f51";

QString esc(const QString &text)
{
    QString out = text.toHtmlEscaped();
    return out.replace(u'\'', QStringLiteral("&apos;"));
}

struct Box
{
    int x = 0, y = 0, w = 0, h = 0;
    int cx() const { return x + w / 2; }
    int cy() const { return y + h / 2; }
};

// Distinct MIG profiles in the order first published: one row each inside the GPU box.
QStringList migRows(const GpuNode &gpu)
{
    QStringList rows;
    for (const MigDevice &mig : gpu.migs)
        if (!rows.contains(mig.profile))
            rows.append(mig.profile);
    return rows;
}

int gpuHeight(const GpuNode &gpu)
{
    const qsizetype rows = migRows(gpu).size();
    return kGpuHeaderHeight + (rows ? int(rows) * kMigRowHeight + 8 : 0);
}

QString holderTitle(const Holder &holder)
{
    if (!holder.isHeld())
        return QStringLiteral("free");
    return QStringLiteral("held by ") + holder.claim
        + (holder.pods.isEmpty()
                ? QString()
                : QStringLiteral(" (pod ") + holder.pods.join(QStringLiteral(", ")) + u')');
}

// Box text is cut to fit; the full text is in the element's <title> tooltip.
QString elide(const QString &text, qsizetype chars)
{
    return text.size() <= chars ? text : text.left(chars - 1) + QChar(0x2026);
}

QString text(int x, int y, const QString &content, const char *extra = "")
{
    return QStringLiteral("<text x=\"%1\" y=\"%2\"%3>%4</text>\n")
        .arg(x)
        .arg(y)
        .arg(QString::fromLatin1(extra), esc(content));
}

QString gpuSvg(const GpuNode &gpu, const Box &box)
{
    const QString fill = gpu.device.isEmpty()
        ? QString::fromLatin1(kBlockedFill)
        : QString::fromLatin1(gpu.holder.isHeld() ? kHeldFill : kFreeFill);
    QString out
        = QStringLiteral("<g class=\"gpu\" id=\"%1\">\n<title>%2</title>\n")
              .arg(esc(gpu.name),
                  esc(gpu.name + QStringLiteral(": ")
                      + (gpu.device.isEmpty() ? gpu.mappingNote : holderTitle(gpu.holder))));
    out += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" rx=\"4\" fill=\"%5\" "
                          "stroke=\"#333\"%6/>\n")
               .arg(box.x)
               .arg(box.y)
               .arg(box.w)
               .arg(box.h)
               .arg(fill,
                   gpu.device.isEmpty() ? QStringLiteral(" stroke-dasharray=\"4 3\"") : QString());
    QString title = gpu.name;
    if (!gpu.device.isEmpty() && gpu.device != gpu.name)
        title += QStringLiteral(" = ") + gpu.device;
    if (gpu.device.isEmpty())
        title += QStringLiteral(" (unmapped)");
    out += text(box.x + 6, box.y + 16, elide(title, 24), " font-weight=\"bold\"");
    out += text(box.x + 6, box.y + 32, elide(gpu.model, 28));
    QString detail = gpu.memory;
    if (gpu.holder.isHeld())
        detail += (detail.isEmpty() ? QString() : QStringLiteral("  ")) + gpu.holder.claim;
    out += text(box.x + 6, box.y + 48, elide(detail, 28));

    const QStringList rows = migRows(gpu);
    const int slices = std::max(gpu.memorySlices, 1);
    const int sliceWidth = (box.w - 12) / slices;
    std::map<QString, int> nextSlot;
    for (const MigDevice &mig : gpu.migs) {
        const int row = int(rows.indexOf(mig.profile));
        // Without published slices a MIG device takes the next free cell of its row.
        const int start = mig.sliceStart >= 0 ? mig.sliceStart : nextSlot[mig.profile]++;
        const int count = std::max(mig.sliceCount, 1);
        const int x = box.x + 6 + start * sliceWidth;
        const int y = box.y + kGpuHeaderHeight + row * kMigRowHeight;
        const char *fill = mig.holder.isHeld() ? kMigHeldFill : mig.free ? "#ffffff" : kBlockedFill;
        out += QStringLiteral("<rect class=\"mig\" x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" "
                              "fill=\"%5\" stroke=\"#555\">"
                              "<title>%6</title></rect>\n")
                   .arg(x)
                   .arg(y)
                   .arg(count * sliceWidth - 2)
                   .arg(kMigRowHeight - 3)
                   .arg(QString::fromLatin1(fill),
                       esc(mig.device + QStringLiteral(" (") + mig.profile + QStringLiteral("): ")
                           + (mig.holder.isHeld() ? holderTitle(mig.holder)
                                   : mig.free     ? QStringLiteral("free")
                                                  : QStringLiteral("blocked"))));
    }
    return out + QStringLiteral("</g>\n");
}

QString nicSvg(const NicNode &nic, const Box &box)
{
    QString out
        = QStringLiteral("<g class=\"nic\" id=\"%1\">\n<title>%2</title>\n")
              .arg(esc(nic.name), esc(nic.name + QStringLiteral(": ") + holderTitle(nic.holder)));
    out += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" rx=\"12\" "
                          "fill=\"%5\" stroke=\"#333\"/>\n")
               .arg(box.x)
               .arg(box.y)
               .arg(box.w)
               .arg(box.h)
               .arg(QString::fromLatin1(nic.holder.isHeld() ? kHeldFill : "#e9f1fb"));
    out += text(box.x + 8, box.y + 15, elide(nic.name, 15), " font-weight=\"bold\"");
    out += text(box.x + 8, box.y + 28,
        elide(nic.interfaceName.isEmpty() || nic.interfaceName == nic.name ? nic.driver
                                                                           : nic.interfaceName,
            17));
    return out + QStringLiteral("</g>\n");
}

} // namespace

QString toSvg(const NodeTopology &topology)
{
    // Group endpoints: NUMA id (kUnknownNuma when not published) -> PCIe root ("" none) -> GPUs and
    // NICs.
    struct Band
    {
        std::vector<const GpuNode *> gpus;
        std::vector<const NicNode *> nics;
    };
    std::map<int, std::map<QString, Band>> groups;
    for (const GpuNode &gpu : topology.gpus)
        groups[gpu.numa.value_or(kUnknownNuma)][gpu.pcieRoot].gpus.push_back(&gpu);
    for (const NicNode &nic : topology.nics)
        groups[nic.numa.value_or(kUnknownNuma)][nic.pcieRoot].nics.push_back(&nic);

    std::map<QString, Box> boxes;
    QString body;
    int x = kMargin;
    int height = 0;
    for (const auto &[numa, bands] : groups) {
        int y = kMargin + 30 + kNumaLabel;
        int numaWidth = 0;
        QString inner;
        for (const auto &[root, band] : bands) {
            int bandHeight = 0;
            for (const GpuNode *gpu : band.gpus)
                bandHeight = std::max(bandHeight, gpuHeight(*gpu));
            const int gpuRow = int(band.gpus.size()) * (kGpuWidth + kGap);
            const int nicRow = int(band.nics.size()) * (kNicWidth + kGap);
            const int bandWidth = std::max({ gpuRow, nicRow, 160 }) + kGap;
            const int top = y;
            int cx = x + kGap + kGap / 2;
            for (const GpuNode *gpu : band.gpus) {
                boxes[gpu->name] = { cx, top + kRootLabel, kGpuWidth, gpuHeight(*gpu) };
                cx += kGpuWidth + kGap;
            }
            const int nicTop = top + kRootLabel + (bandHeight ? bandHeight + kGap : 0);
            cx = x + kGap + kGap / 2;
            for (const NicNode *nic : band.nics) {
                boxes[nic->name] = { cx, nicTop, kNicWidth, kNicHeight };
                cx += kNicWidth + kGap;
            }
            const int bottom = nicTop + (band.nics.empty() ? 0 : kNicHeight + kGap);
            inner += QStringLiteral("<rect class=\"pcie-root\" x=\"%1\" y=\"%2\" width=\"%3\" "
                                    "height=\"%4\" fill=\"#fafafa\" stroke=\"#999\"/>\n")
                         .arg(x + kGap / 2)
                         .arg(top)
                         .arg(bandWidth)
                         .arg(bottom - top);
            inner += text(x + kGap, top + 15,
                root.isEmpty() ? QStringLiteral("no PCIe root published")
                               : QStringLiteral("PCIe root ") + root);
            for (const GpuNode *gpu : band.gpus)
                inner += gpuSvg(*gpu, boxes[gpu->name]);
            for (const NicNode *nic : band.nics)
                inner += nicSvg(*nic, boxes[nic->name]);
            numaWidth = std::max(numaWidth, bandWidth + kGap);
            y = bottom + kGap;
        }
        QString label = numa == kUnknownNuma ? QStringLiteral("NUMA unknown")
                                             : QStringLiteral("NUMA %1").arg(numa);
        for (const NumaNode &n : topology.numa)
            if (n.id == numa && !n.cpuAffinity.isEmpty())
                label += QStringLiteral("  CPUs ") + n.cpuAffinity;
        body += QStringLiteral("<g class=\"numa\">\n<rect x=\"%1\" y=\"%2\" width=\"%3\" "
                               "height=\"%4\" fill=\"none\" stroke=\"#555\" rx=\"6\"/>\n")
                    .arg(x)
                    .arg(kMargin + 30)
                    .arg(numaWidth)
                    .arg(y - kMargin - 30);
        body += text(x + 8, kMargin + 48, label, " font-weight=\"bold\"");
        body += inner + QStringLiteral("</g>\n");
        x += numaWidth + kGap;
        height = std::max(height, y);
    }

    // NODE and SYS are what the NUMA and root grouping already shows; drawing them would bury
    // the NVLink and same-switch links that matter.
    QString lines;
    for (const Link &link : topology.links) {
        if (link.kind == LinkKind::Node || link.kind == LinkKind::Sys || link.kind == LinkKind::PHB)
            continue;
        const auto a = boxes.find(link.from), b = boxes.find(link.to);
        if (a == boxes.end() || b == boxes.end())
            continue;
        const QString dash = link.source == LinkSource::Imported ? QString()
            : link.source == LinkSource::Inferred ? QStringLiteral(" stroke-dasharray=\"8 5\"")
                                                  : QStringLiteral(" stroke-dasharray=\"2 4\"");
        const char *colour = link.kind == LinkKind::NV ? "#2a9d8f" : "#264653";
        lines += QStringLiteral(
            "<line class=\"link %1\" x1=\"%2\" y1=\"%3\" x2=\"%4\" y2=\"%5\" stroke=\"%6\" "
            "stroke-opacity=\"0.6\"%7><title>%8</title></line>\n")
                     .arg(linkSourceName(link.source))
                     .arg(a->second.cx())
                     .arg(a->second.cy())
                     .arg(b->second.cx())
                     .arg(b->second.cy())
                     .arg(QString::fromLatin1(colour), dash,
                         esc(QStringLiteral("%1 - %2: %3%4 (%5)")
                                 .arg(link.from, link.to, linkKindName(link.kind),
                                     link.count ? QString::number(link.count) : QString(),
                                     linkSourceName(link.source))));
    }

    const int width = std::max(x + kMargin, 480);
    height += 40;
    QString legend = text(kMargin, height - 14,
        QStringLiteral("fill: orange held, green free, grey unmapped or blocked; links: solid "
                       "imported, dashed inferred, dotted attribute"),
        " font-size=\"11\"");
    QString out = QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" "
                                 "height=\"%2\" viewBox=\"0 0 %1 %2\" "
                                 "font-family=\"sans-serif\" font-size=\"12\">\n")
                      .arg(width)
                      .arg(height);
    out += QStringLiteral("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    out += text(kMargin, kMargin + 14,
        QStringLiteral("Node %1 — %2")
            .arg(topology.node,
                topology.imported ? QStringLiteral("imported nvidia-smi topo -m")
                                  : QStringLiteral("from ResourceSlice attributes")),
        " font-size=\"15\" font-weight=\"bold\"");
    // Links go under the boxes: all-to-all NVLink lines would otherwise cover the labels.
    out += lines + body + legend + QStringLiteral("</svg>\n");
    return out;
}

} // namespace dra::topology
