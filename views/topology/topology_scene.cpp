// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/topology/topology_scene.h"

#include <algorithm>
#include <map>
#include <set>

#include <QGraphicsPathItem>
#include <QGraphicsSimpleTextItem>
#include <QPainterPath>

#include "views/common/theme.h"
#include "views/topology/topology_items.h"

namespace dra::views {
namespace {

using namespace topo_metrics;

// The devices drawn in one PCIe-root frame.
struct RootGroup
{
    QString name;
    std::vector<const topology::GpuNode *> gpus;
    std::vector<const topology::NicNode *> nics;
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

// Groups devices by NUMA node then PCIe root; devices without either go to an "unknown" column,
// labelled as such, rather than being placed where the data does not say.
std::vector<NumaGroup> groupDevices(const topology::NodeTopology &topo)
{
    std::map<int, NumaGroup> byNuma;
    NumaGroup unknown { QStringLiteral("NUMA ?"), QStringLiteral("not published"), {} };
    auto numaFor = [&](const std::optional<int> &numa) -> NumaGroup & {
        if (!numa)
            return unknown;
        NumaGroup &group = byNuma[*numa];
        if (group.label.isEmpty()) {
            group.label = QStringLiteral("NUMA %1").arg(*numa);
            for (const auto &node : topo.numa)
                if (node.id == *numa && !node.cpuAffinity.isEmpty())
                    group.detail = QStringLiteral("CPUs %1").arg(node.cpuAffinity);
        }
        return group;
    };
    const QString noRoot = QStringLiteral("PCIe root ?");
    for (const auto &gpu : topo.gpus)
        rootOf(numaFor(gpu.numa), gpu.pcieRoot.isEmpty() ? noRoot : gpu.pcieRoot)
            .gpus.push_back(&gpu);
    for (const auto &nic : topo.nics)
        rootOf(numaFor(nic.numa), nic.pcieRoot.isEmpty() ? noRoot : nic.pcieRoot)
            .nics.push_back(&nic);

    std::vector<NumaGroup> groups;
    for (auto &[id, group] : byNuma)
        groups.push_back(std::move(group));
    if (!unknown.roots.empty())
        groups.push_back(std::move(unknown));
    return groups;
}

QSizeF rootSize(const RootGroup &root)
{
    const int gpuCount = int(root.gpus.size());
    const int gpuCols = std::min(gpuCount, gpusPerRow);
    const int gpuRows = (gpuCount + gpusPerRow - 1) / gpusPerRow;
    const int nicCols = std::min(int(root.nics.size()), gpusPerRow + 1);
    const int nicRows = (int(root.nics.size()) + gpusPerRow) / (gpusPerRow + 1);
    const qreal width
        = std::max({ gpuCols * (gpuWidth + gap) - gap, nicCols * (nicWidth + gap) - gap, 140.0 });
    qreal height = gpuRows * (gpuHeight + gap) + nicRows * (nicHeight + gap);
    if (height > 0)
        height -= gap;
    return { width + 2 * groupPadding, height + groupLabel + 2 * groupPadding };
}

// True when every pair of the mapped GPUs is joined by NVLinks of one count and source: an
// NVSwitch fabric (or a full mesh), drawn as one bar instead of n·(n-1)/2 crossing lines.
bool isUniformFabric(const topology::NodeTopology &topo, int *count, topology::LinkSource *source)
{
    std::set<QString> gpus;
    for (const auto &gpu : topo.gpus)
        gpus.insert(gpu.name);
    if (gpus.size() < 3)
        return false;
    std::set<std::pair<QString, QString>> pairs;
    std::optional<int> seenCount;
    std::optional<topology::LinkSource> seenSource;
    for (const auto &link : topo.links) {
        if (link.kind != topology::LinkKind::NV || !gpus.contains(link.from)
            || !gpus.contains(link.to))
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
    *source = seenSource.value_or(topology::LinkSource::Inferred);
    return true;
}

QPen linkPen(const QColor &color, topology::LinkSource source, qreal width)
{
    QPen pen(color, width);
    pen.setCapStyle(Qt::RoundCap);
    if (source == topology::LinkSource::Inferred)
        pen.setStyle(Qt::DashLine); // a guess is never drawn like a measurement
    return pen;
}

QString nvLabel(int count)
{
    return count > 0 ? QStringLiteral("NV%1").arg(count) : QStringLiteral("NVLink");
}

void tagLink(QGraphicsItem *item, const topology::Link &link)
{
    item->setData(TopologyScene::ItemKindKey, TopologyScene::LinkItem);
    item->setData(TopologyScene::EndpointKey, QStringList { link.from, link.to });
    item->setData(TopologyScene::LinkSourceKey, topology::linkSourceName(link.source));
    item->setToolTip(
        QStringLiteral("%1 ↔ %2: %3 (%4)")
            .arg(link.from, link.to,
                link.kind == topology::LinkKind::NV ? nvLabel(link.count)
                                                    : topology::linkKindName(link.kind),
                topology::linkSourceName(link.source)));
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
    std::map<QString, QGraphicsItem *> endpoints; // endpoint name -> its box, for links

    int fabricCount = 0;
    topology::LinkSource fabricSource = topology::LinkSource::Inferred;
    const bool fabric = isUniformFabric(m_topology, &fabricCount, &fabricSource);
    const qreal top = fabric ? 70 : 40; // room for the fabric bar or the arcs of pair links

    qreal x = 0;
    for (const NumaGroup &numa : groupDevices(m_topology)) {
        qreal numaWidth = 0, y = top + groupLabel + groupPadding;
        std::vector<std::pair<const RootGroup *, QSizeF>> roots;
        for (const RootGroup &root : numa.roots) {
            const QSizeF size = rootSize(root);
            roots.emplace_back(&root, size);
            numaWidth = std::max(numaWidth, size.width());
        }
        const qreal rootX = x + groupPadding;
        for (const auto &[root, size] : roots) {
            const QRectF frame(rootX, y, numaWidth, size.height());
            auto *rootItem = new GroupFrameItem(frame, root->name, QString());
            rootItem->setData(ItemKindKey, GroupItem);
            addItem(rootItem);
            qreal cy = y + groupLabel + groupPadding;
            for (size_t i = 0; i < root->gpus.size(); ++i) {
                const topology::GpuNode &gpu = *root->gpus[i];
                auto *box = new GpuBoxItem(gpu);
                box->setPos(rootX + groupPadding + qreal(i % gpusPerRow) * (gpuWidth + gap),
                    cy + qreal(i / gpusPerRow) * (gpuHeight + gap));
                box->setData(ItemKindKey, GpuItem);
                box->setData(DeviceKey, gpu.device);
                box->setData(EndpointKey, gpu.name);
                addItem(box);
                endpoints[gpu.name] = box;
                // MIG devices along the bottom strip, at their memory slices when published.
                // Dynamic-MIG placements overlap; each goes to the first lane where it fits, so
                // every placement stays visible.
                const int slots = gpu.memorySlices > 0 ? gpu.memorySlices
                                                       : std::max<int>(1, int(gpu.migs.size()));
                std::vector<std::tuple<const topology::MigDevice *, int, int, int>>
                    placed; // mig, start, span, lane
                std::vector<std::vector<std::pair<int, int>>> lanes;
                int next = 0;
                for (const auto &mig : gpu.migs) {
                    const int start = mig.sliceStart >= 0 ? mig.sliceStart : next;
                    const int span = mig.sliceStart >= 0 ? std::max(1, mig.sliceCount) : 1;
                    next = start + span;
                    size_t lane = 0;
                    for (; lane < lanes.size(); ++lane) {
                        const bool clash = std::ranges::any_of(
                            lanes[lane], [&](const std::pair<int, int> &taken) {
                                return start < taken.first + taken.second
                                    && taken.first < start + span;
                            });
                        if (!clash)
                            break;
                    }
                    if (lane == lanes.size())
                        lanes.emplace_back();
                    lanes[lane].emplace_back(start, span);
                    placed.emplace_back(&mig, start, span, int(lane));
                }
                const int laneCount = std::max<int>(1, int(lanes.size()));
                const qreal stripHeight = std::max<qreal>(
                    migStripHeight, std::min<qreal>(laneCount * 9.0, gpuHeight * 0.55));
                const QRectF strip(6, gpuHeight - stripHeight - 5, gpuWidth - 12, stripHeight);
                const qreal slotWidth = strip.width() / slots;
                const qreal laneHeight = strip.height() / laneCount;
                for (const auto &[mig, start, span, lane] : placed) {
                    auto *migItem = new MigBoxItem(*mig,
                        QRectF(strip.x() + start * slotWidth, strip.y() + lane * laneHeight,
                            span * slotWidth, laneHeight),
                        box);
                    migItem->setData(ItemKindKey, MigItem);
                    migItem->setData(DeviceKey, mig->device);
                }
            }
            const int gpuRows = int((root->gpus.size() + gpusPerRow - 1) / gpusPerRow);
            cy += gpuRows * (gpuHeight + gap);
            for (size_t i = 0; i < root->nics.size(); ++i) {
                const topology::NicNode &nic = *root->nics[i];
                auto *box = new NicBoxItem(nic);
                box->setPos(rootX + groupPadding + qreal(i % (gpusPerRow + 1)) * (nicWidth + gap),
                    cy + qreal(i / (gpusPerRow + 1)) * (nicHeight + gap));
                box->setData(ItemKindKey, NicItem);
                box->setData(DeviceKey, nic.device);
                box->setData(EndpointKey, nic.name);
                addItem(box);
                endpoints[nic.name] = box;
            }
            y += size.height() + gap;
        }
        const QRectF numaFrame(x, top, numaWidth + 2 * groupPadding, y - top - gap + groupPadding);
        auto *numaItem = new GroupFrameItem(numaFrame, numa.label, numa.detail);
        numaItem->setData(ItemKindKey, GroupItem);
        numaItem->setZValue(-2);
        addItem(numaItem);
        x += numaFrame.width() + 2 * gap;
    }

    auto anchorTop = [](QGraphicsItem *item) {
        const QRectF r = item->sceneBoundingRect();
        return QPointF(r.center().x(), r.top());
    };
    auto anchorBottom = [](QGraphicsItem *item) {
        const QRectF r = item->sceneBoundingRect();
        return QPointF(r.center().x(), r.bottom());
    };

    if (fabric) {
        const qreal width = std::max<qreal>(x - 2 * gap, 200);
        const QRectF bar(0, 6, width, 22);
        auto *barItem = addRect(bar, linkPen(colors.linkNvlink, fabricSource, 1.5),
            QBrush(colors.linkNvlink.lighter(170)));
        barItem->setData(ItemKindKey, FabricItem);
        barItem->setData(LinkSourceKey, topology::linkSourceName(fabricSource));
        auto *label
            = addSimpleText(QStringLiteral("NVSwitch fabric · %1 per GPU · %2")
                                .arg(nvLabel(fabricCount), topology::linkSourceName(fabricSource)));
        label->setBrush(Qt::black);
        label->setPos(bar.left() + 8, bar.top() + 3);
        for (const auto &gpu : m_topology.gpus) {
            auto it = endpoints.find(gpu.name);
            if (it == endpoints.end())
                continue;
            const QPointF to = anchorTop(it->second);
            auto *line = addLine(QLineF(QPointF(to.x(), bar.bottom()), to),
                linkPen(colors.linkNvlink, fabricSource, 2));
            line->setZValue(-3);
            line->setData(ItemKindKey, LinkItem);
            line->setData(LinkSourceKey, topology::linkSourceName(fabricSource));
            line->setToolTip(QStringLiteral("%1 to the NVSwitch fabric: %2")
                                 .arg(gpu.name, nvLabel(fabricCount)));
        }
    }

    for (const auto &link : m_topology.links) {
        auto from = endpoints.find(link.from), to = endpoints.find(link.to);
        if (from == endpoints.end() || to == endpoints.end())
            continue;
        const bool toNic = from->second->data(ItemKindKey) == NicItem
            || to->second->data(ItemKindKey) == NicItem;
        if (link.kind == topology::LinkKind::NV && !fabric && !toNic) {
            // Pairwise NVLinks arc above the boxes so they do not cross the labels.
            const QPointF a = anchorTop(from->second), b = anchorTop(to->second);
            QPainterPath path(a);
            const qreal lift = 24 + std::abs(a.x() - b.x()) * 0.08;
            path.cubicTo(a - QPointF(0, lift), b - QPointF(0, lift), b);
            auto *item = addPath(path,
                linkPen(colors.linkNvlink, link.source, 1.5 + std::min(link.count, 18) / 6.0));
            item->setZValue(1);
            tagLink(item, link);
            auto *label = addSimpleText(nvLabel(link.count));
            label->setBrush(colors.linkNvlink);
            label->setPos((a + b) / 2 - QPointF(14, lift * 0.75 + 12));
            label->setZValue(1);
        } else if (toNic
            && (link.kind == topology::LinkKind::PIX || link.kind == topology::LinkKind::PXB)) {
            // GPU ↔ NIC through a PCIe switch: the GPUDirect RDMA path worth seeing.
            QGraphicsItem *gpu
                = from->second->data(ItemKindKey) == NicItem ? to->second : from->second;
            QGraphicsItem *nic = gpu == from->second ? to->second : from->second;
            auto *item = addLine(QLineF(anchorBottom(gpu), anchorTop(nic)),
                linkPen(colors.linkPcie, link.source, 1.2));
            item->setZValue(-0.5);
            tagLink(item, link);
        }
    }

    if (m_topology.gpus.empty() && m_topology.nics.empty()) {
        auto *text = addSimpleText(
            QStringLiteral("No devices published for node %1.").arg(m_topology.node));
        text->setBrush(colors.mutedText);
    }
    setSceneRect(itemsBoundingRect().adjusted(-gap, -gap, gap, gap));
}

} // namespace dra::views
