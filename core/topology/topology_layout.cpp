// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/topology/topology_layout.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace dra::topology {

namespace {

using namespace layout_metrics;

// The devices drawn in one PCIe-root frame.
struct RootGroup
{
    QString name;
    std::vector<size_t> gpus, nics; // indexes into the topology
};

// One NUMA column: its roots in order of first appearance.
struct NumaGroup
{
    QString label, detail;
    std::vector<RootGroup> roots;
};

RootGroup &rootOf(NumaGroup &numa, const QString &root)
{
    for (RootGroup &group : numa.roots)
        if (group.name == root)
            return group;
    numa.roots.push_back({ root, {}, {} });
    return numa.roots.back();
}

// Groups devices by NUMA node then PCIe root; devices without either go to a "?" column,
// labelled as such.
std::vector<NumaGroup> groupDevices(const NodeTopology &topo)
{
    std::map<int, NumaGroup> byNuma;
    NumaGroup unknown { QStringLiteral("NUMA ?"), QStringLiteral("not published"), {} };
    auto numaFor = [&](const std::optional<int> &numa) -> NumaGroup & {
        if (!numa)
            return unknown;
        NumaGroup &group = byNuma[*numa];
        if (group.label.isEmpty()) {
            group.label = QStringLiteral("NUMA %1").arg(*numa);
            for (const NumaNode &node : topo.numa)
                if (node.id == *numa && !node.cpuAffinity.isEmpty())
                    group.detail = QStringLiteral("CPUs %1").arg(node.cpuAffinity);
        }
        return group;
    };
    const QString noRoot = QStringLiteral("PCIe root ?");
    for (size_t i = 0; i < topo.gpus.size(); ++i) {
        const GpuNode &gpu = topo.gpus[i];
        rootOf(numaFor(gpu.numa), gpu.pcieRoot.isEmpty() ? noRoot : gpu.pcieRoot).gpus.push_back(i);
    }
    for (size_t i = 0; i < topo.nics.size(); ++i) {
        const NicNode &nic = topo.nics[i];
        rootOf(numaFor(nic.numa), nic.pcieRoot.isEmpty() ? noRoot : nic.pcieRoot).nics.push_back(i);
    }
    std::vector<NumaGroup> groups;
    for (auto &[id, group] : byNuma)
        groups.push_back(std::move(group));
    if (!unknown.roots.empty())
        groups.push_back(std::move(unknown));
    return groups;
}

// Width and height of a root frame.
std::pair<double, double> rootSize(const RootGroup &root)
{
    const int gpuCount = int(root.gpus.size());
    const int gpuCols = std::min(gpuCount, gpusPerRow);
    const int gpuRows = (gpuCount + gpusPerRow - 1) / gpusPerRow;
    const int nicCols = std::min(int(root.nics.size()), gpusPerRow + 1);
    const int nicRows = (int(root.nics.size()) + gpusPerRow) / (gpusPerRow + 1);
    const double width
        = std::max({ gpuCols * (gpuWidth + gap) - gap, nicCols * (nicWidth + gap) - gap, 140.0 });
    double height = gpuRows * (gpuHeight + gap) + nicRows * (nicHeight + gap);
    if (height > 0)
        height -= gap;
    return { width + 2 * groupPadding, height + groupLabel + 2 * groupPadding };
}

// Whether every pair of the GPUs is joined by NVLinks of one count and source: an NVSwitch
// fabric (or a full mesh), drawn as one bar.
bool isUniformFabric(const NodeTopology &topo, int *count, LinkSource *source)
{
    std::set<QString> gpus;
    for (const GpuNode &gpu : topo.gpus)
        gpus.insert(gpu.name);
    if (gpus.size() < 3)
        return false;
    std::set<std::pair<QString, QString>> pairs;
    std::optional<int> seenCount;
    std::optional<LinkSource> seenSource;
    for (const Link &link : topo.links) {
        if (link.kind != LinkKind::NV || !gpus.contains(link.from) || !gpus.contains(link.to))
            continue;
        if ((seenCount && *seenCount != link.count) || (seenSource && *seenSource != link.source))
            return false;
        seenCount = link.count;
        seenSource = link.source;
        pairs.insert(std::minmax(link.from, link.to));
    }
    if (pairs.size() != gpus.size() * (gpus.size() - 1) / 2)
        return false;
    *count = seenCount.value_or(0);
    *source = seenSource.value_or(LinkSource::Inferred);
    return true;
}

QString nvLabel(int count)
{
    return count > 0 ? QStringLiteral("NV%1").arg(count) : QStringLiteral("NVLink");
}

QString holderSentence(const Holder &holder)
{
    if (!holder.isHeld())
        return QStringLiteral("free");
    return QStringLiteral("held by ") + holder.claim
        + (holder.pods.isEmpty()
                ? QString()
                : QStringLiteral(" (pod ") + holder.pods.join(QStringLiteral(", ")) + u')');
}

LayoutDevice gpuBox(const GpuNode &gpu, size_t index, const LayoutRect &rect)
{
    LayoutDevice box;
    box.kind = LayoutDevice::Kind::Gpu;
    box.index = index;
    box.endpoint = gpu.name;
    box.device = gpu.device;
    box.title = gpu.device.isEmpty() ? gpu.name : gpu.device;
    if (!gpu.device.isEmpty() && gpu.name != gpu.device)
        box.title += QStringLiteral("  (%1)").arg(gpu.name);
    QStringList facts;
    for (const QString &fact : { gpu.model, gpu.memory })
        if (!fact.isEmpty())
            facts << fact;
    box.subtitle = facts.join(QStringLiteral(" · "));
    box.holder = gpu.holder.isHeld()
        ? gpu.holder.claim
        : (gpu.device.isEmpty() ? QStringLiteral("unmapped") : QString());
    box.tooltip = gpu.name + QStringLiteral(": ")
        + (gpu.device.isEmpty() ? gpu.mappingNote : holderSentence(gpu.holder));
    const bool anyMigHeld
        = std::ranges::any_of(gpu.migs, [](const MigDevice &mig) { return mig.holder.isHeld(); });
    box.fill = gpu.device.isEmpty() ? DeviceFill::Unmapped
        : gpu.holder.isHeld()       ? DeviceFill::Held
        : anyMigHeld                ? DeviceFill::PartlyHeld
                                    : DeviceFill::Free;
    box.claim = gpu.holder.claim;
    box.selectable = !gpu.device.isEmpty();
    box.rect = rect;
    return box;
}

// The MIG devices along the bottom strip of `gpuRect`, at their memory slices when published.
// Dynamic-MIG placements overlap; each goes to the first lane where it fits, so every placement
// stays visible.
std::vector<LayoutDevice> migBoxes(const GpuNode &gpu, size_t index, const LayoutRect &gpuRect)
{
    const int slots
        = gpu.memorySlices > 0 ? gpu.memorySlices : std::max<int>(1, int(gpu.migs.size()));
    std::vector<std::tuple<size_t, int, int, int>> placed; // mig, start, span, lane
    std::vector<std::vector<std::pair<int, int>>> lanes;
    int next = 0;
    for (size_t m = 0; m < gpu.migs.size(); ++m) {
        const MigDevice &mig = gpu.migs[m];
        const int start = mig.sliceStart >= 0 ? mig.sliceStart : next;
        const int span = mig.sliceStart >= 0 ? std::max(1, mig.sliceCount) : 1;
        next = start + span;
        size_t lane = 0;
        for (; lane < lanes.size(); ++lane) {
            const bool clash = std::ranges::any_of(lanes[lane], [&](const auto &taken) {
                return start < taken.first + taken.second && taken.first < start + span;
            });
            if (!clash)
                break;
        }
        if (lane == lanes.size())
            lanes.emplace_back();
        lanes[lane].emplace_back(start, span);
        placed.emplace_back(m, start, span, int(lane));
    }
    const int laneCount = std::max<int>(1, int(lanes.size()));
    const double stripHeight
        = std::max<double>(migStripHeight, std::min<double>(laneCount * 9.0, gpuHeight * 0.55));
    const LayoutRect strip { gpuRect.x + 6, gpuRect.y + gpuHeight - stripHeight - 5, gpuWidth - 12,
        stripHeight };
    const double slotWidth = strip.w / slots;
    const double laneHeight = strip.h / laneCount;
    std::vector<LayoutDevice> boxes;
    for (const auto &[m, start, span, lane] : placed) {
        const MigDevice &mig = gpu.migs[m];
        LayoutDevice box;
        box.kind = LayoutDevice::Kind::Mig;
        box.index = index;
        box.mig = m;
        box.endpoint = mig.device;
        box.device = mig.device;
        box.title = mig.profile.isEmpty() ? mig.device : mig.profile;
        box.tooltip = mig.device + QStringLiteral(" (") + mig.profile + QStringLiteral("): ")
            + (mig.holder.isHeld() ? holderSentence(mig.holder)
                    : mig.free     ? QStringLiteral("free")
                                   : QStringLiteral("blocked by a sibling or the parent"));
        box.fill = mig.holder.isHeld() ? DeviceFill::Held
            : mig.free                 ? DeviceFill::Free
                                       : DeviceFill::Blocked;
        box.claim = mig.holder.claim;
        box.selectable = true;
        box.rect = { strip.x + start * slotWidth, strip.y + lane * laneHeight, span * slotWidth,
            laneHeight };
        boxes.push_back(std::move(box));
    }
    return boxes;
}

LayoutDevice nicBox(const NicNode &nic, size_t index, const LayoutRect &rect)
{
    LayoutDevice box;
    box.kind = LayoutDevice::Kind::Nic;
    box.index = index;
    box.endpoint = nic.name;
    box.device = nic.device;
    box.title = nic.device.isEmpty() ? nic.name : nic.device;
    box.subtitle = nic.interfaceName.isEmpty() ? nic.driver : nic.interfaceName;
    box.tooltip = nic.name + QStringLiteral(": ") + holderSentence(nic.holder);
    box.fill = nic.device.isEmpty() ? DeviceFill::Unmapped
        : nic.holder.isHeld()       ? DeviceFill::Held
                                    : DeviceFill::Free;
    box.claim = nic.holder.claim;
    box.selectable = !nic.device.isEmpty();
    box.rect = rect;
    return box;
}

QString linkTooltip(const Link &link)
{
    return QStringLiteral("%1 ↔ %2: %3 (%4)")
        .arg(link.from, link.to,
            link.kind == LinkKind::NV ? nvLabel(link.count) : linkKindName(link.kind),
            linkSourceName(link.source));
}

double rounded(double value)
{
    const double r = std::round(value * 100) / 100;
    return r == 0 ? 0 : r; // no "-0"
}

void roundToHundredths(LayoutPoint &p)
{
    p = { rounded(p.x), rounded(p.y) };
}

void roundToHundredths(LayoutRect &r)
{
    r = { rounded(r.x), rounded(r.y), rounded(r.w), rounded(r.h) };
}

void grow(LayoutRect &bounds, bool &empty, const LayoutRect &r)
{
    if (empty) {
        bounds = r;
        empty = false;
        return;
    }
    const double right = std::max(bounds.right(), r.right());
    const double bottom = std::max(bounds.bottom(), r.bottom());
    bounds.x = std::min(bounds.x, r.x);
    bounds.y = std::min(bounds.y, r.y);
    bounds.w = right - bounds.x;
    bounds.h = bottom - bounds.y;
}

} // namespace

bool LayoutRect::contains(const LayoutRect &other) const
{
    return other.x >= x && other.y >= y && other.right() <= right() && other.bottom() <= bottom();
}

const char *deviceFillName(DeviceFill fill)
{
    switch (fill) {
    case DeviceFill::Free:
        return "free";
    case DeviceFill::Held:
        return "held";
    case DeviceFill::PartlyHeld:
        return "partly-held";
    case DeviceFill::Unmapped:
        return "unmapped";
    case DeviceFill::Blocked:
        return "blocked";
    }
    return "free";
}

TopologyLayout layoutTopology(const NodeTopology &topology)
{
    TopologyLayout layout;
    layout.node = topology.node;
    layout.imported = topology.imported;
    std::map<QString, const LayoutDevice *> endpoints; // for links, filled once boxes are final

    int fabricCount = 0;
    LinkSource fabricSource = LinkSource::Inferred;
    const bool fabric = isUniformFabric(topology, &fabricCount, &fabricSource);
    const double top = fabric ? 70 : 40; // room for the fabric bar or the arcs of pair links

    std::vector<LayoutFrame> numaFrames, rootFrames;
    double x = 0;
    for (const NumaGroup &numa : groupDevices(topology)) {
        double numaWidth = 0, y = top + groupLabel + groupPadding;
        for (const RootGroup &root : numa.roots)
            numaWidth = std::max(numaWidth, rootSize(root).first);
        const double rootX = x + groupPadding;
        for (const RootGroup &root : numa.roots) {
            const double height = rootSize(root).second;
            rootFrames.push_back(
                { LayoutFrame::Kind::PcieRoot, root.name, {}, { rootX, y, numaWidth, height } });
            double cy = y + groupLabel + groupPadding;
            for (size_t i = 0; i < root.gpus.size(); ++i) {
                const GpuNode &gpu = topology.gpus[root.gpus[i]];
                const LayoutRect rect { rootX + groupPadding
                        + double(i % gpusPerRow) * (gpuWidth + gap),
                    cy + double(i / gpusPerRow) * (gpuHeight + gap), gpuWidth, gpuHeight };
                layout.devices.push_back(gpuBox(gpu, root.gpus[i], rect));
                for (LayoutDevice &mig : migBoxes(gpu, root.gpus[i], rect))
                    layout.devices.push_back(std::move(mig));
            }
            const int gpuRows = int((root.gpus.size() + gpusPerRow - 1) / gpusPerRow);
            cy += gpuRows * (gpuHeight + gap);
            for (size_t i = 0; i < root.nics.size(); ++i)
                layout.devices.push_back(nicBox(topology.nics[root.nics[i]], root.nics[i],
                    { rootX + groupPadding + double(i % (gpusPerRow + 1)) * (nicWidth + gap),
                        cy + double(i / (gpusPerRow + 1)) * (nicHeight + gap), nicWidth,
                        nicHeight }));
            y += height + gap;
        }
        const LayoutRect frame { x, top, numaWidth + 2 * groupPadding,
            y - top - gap + groupPadding };
        numaFrames.push_back({ LayoutFrame::Kind::Numa, numa.label, numa.detail, frame });
        x += frame.w + 2 * gap;
    }
    layout.frames = std::move(numaFrames);
    layout.frames.insert(layout.frames.end(), rootFrames.begin(), rootFrames.end());

    // Rounded before any link reads them, so link ends sit exactly on the boxes as printed.
    for (LayoutFrame &frame : layout.frames)
        roundToHundredths(frame.rect);
    for (LayoutDevice &device : layout.devices) {
        roundToHundredths(device.rect);
        if (device.kind != LayoutDevice::Kind::Mig)
            endpoints[device.endpoint] = &device;
    }

    if (fabric) {
        LayoutFabric bar;
        bar.rect = { 0, 6, std::max<double>(x - 2 * gap, 200), 22 };
        bar.count = fabricCount;
        bar.source = fabricSource;
        bar.label = QStringLiteral("NVSwitch fabric · %1 per GPU · %2")
                        .arg(nvLabel(fabricCount), linkSourceName(fabricSource));
        for (const GpuNode &gpu : topology.gpus) {
            const auto it = endpoints.find(gpu.name);
            if (it == endpoints.end())
                continue;
            LayoutLink drop;
            drop.from = gpu.name;
            drop.to = QStringLiteral("fabric");
            drop.count = fabricCount;
            drop.source = fabricSource;
            drop.end = it->second->rect.topCenter();
            drop.start = { drop.end.x, bar.rect.bottom() };
            drop.width = 2;
            drop.tooltip = QStringLiteral("%1 to the NVSwitch fabric: %2")
                               .arg(gpu.name, nvLabel(fabricCount));
            layout.links.push_back(std::move(drop));
        }
        layout.fabric = std::move(bar);
    }

    for (const Link &link : topology.links) {
        const auto from = endpoints.find(link.from), to = endpoints.find(link.to);
        if (from == endpoints.end() || to == endpoints.end())
            continue;
        const LayoutDevice &a = *from->second, &b = *to->second;
        using Kind = LayoutDevice::Kind;
        const bool gpuPair = a.kind == Kind::Gpu && b.kind == Kind::Gpu;
        const bool gpuToNic = (a.kind == Kind::Gpu && b.kind == Kind::Nic)
            || (a.kind == Kind::Nic && b.kind == Kind::Gpu);
        LayoutLink drawn;
        drawn.from = link.from;
        drawn.to = link.to;
        drawn.kind = link.kind;
        drawn.count = link.count;
        drawn.source = link.source;
        drawn.tooltip = linkTooltip(link);
        if (link.kind == LinkKind::NV && !fabric && gpuPair) {
            // Pairwise NVLinks arc above the boxes so they do not cross the labels.
            drawn.shape = LayoutLink::Shape::Arc;
            drawn.start = a.rect.topCenter();
            drawn.end = b.rect.topCenter();
            const double lift = 24 + std::abs(drawn.start.x - drawn.end.x) * 0.08;
            drawn.control1 = { drawn.start.x, drawn.start.y - lift };
            drawn.control2 = { drawn.end.x, drawn.end.y - lift };
            drawn.width = 1.5 + std::min(link.count, 18) / 6.0;
            drawn.label = nvLabel(link.count);
            drawn.labelAt = { (drawn.start.x + drawn.end.x) / 2 - 14,
                (drawn.start.y + drawn.end.y) / 2 - (lift * 0.75 + 12) };
        } else if (gpuToNic && (link.kind == LinkKind::PIX || link.kind == LinkKind::PXB)) {
            // GPU ↔ NIC through a PCIe switch: the GPUDirect RDMA path worth seeing.
            const LayoutDevice &gpu = a.kind == Kind::Nic ? b : a;
            const LayoutDevice &nic = &gpu == &a ? b : a;
            drawn.start = gpu.rect.bottomCenter();
            drawn.end = nic.rect.topCenter();
            drawn.width = 1.2;
        } else {
            continue; // NODE, SYS, PHB and PCIe between peers: the frames already say it
        }
        layout.links.push_back(std::move(drawn));
    }

    if (topology.gpus.empty() && topology.nics.empty())
        layout.emptyText = QStringLiteral("No devices published for node %1.").arg(topology.node);

    // Everything drawn, arcs at their highest and labels with room for their text, plus a gap.
    bool empty = true;
    LayoutRect bounds;
    for (const LayoutFrame &frame : layout.frames)
        grow(bounds, empty, frame.rect);
    for (const LayoutDevice &device : layout.devices)
        grow(bounds, empty, device.rect);
    if (layout.fabric)
        grow(bounds, empty, layout.fabric->rect);
    for (LayoutLink &link : layout.links) {
        for (LayoutPoint *p :
            { &link.start, &link.end, &link.control1, &link.control2, &link.labelAt })
            roundToHundredths(*p);
        link.width = rounded(link.width);
        if (link.shape == LayoutLink::Shape::Arc) {
            // A cubic with both controls `lift` above its ends rises 3/4 of the way to them.
            const double highest
                = std::min(link.start.y, link.end.y) - 0.75 * (link.start.y - link.control1.y);
            grow(bounds, empty,
                { std::min(link.start.x, link.end.x), highest, std::abs(link.end.x - link.start.x),
                    1 });
            grow(bounds, empty, { link.labelAt.x, link.labelAt.y, 40, 14 });
        }
    }
    if (!layout.emptyText.isEmpty())
        grow(bounds, empty, { 0, 0, 8.0 * double(layout.emptyText.size()), 16 });
    bounds = { bounds.x - gap, bounds.y - gap, bounds.w + 2 * gap, bounds.h + 2 * gap };
    roundToHundredths(bounds);
    layout.bounds = bounds;
    return layout;
}

} // namespace dra::topology
