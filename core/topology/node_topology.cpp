// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/topology/node_topology.h"

#include <algorithm>
#include <map>
#include <set>

#include <QRegularExpression>

#include "core/common/json_text.h"
#include "core/inventory/snapshot.h"

namespace dra::topology {

namespace {

using common::qs;

// Attribute names resolve against the slice's driver: "type" and "gpu.nvidia.com/type" are one.
QString stringAttribute(
    const model::Device &device, const std::string &driver, std::string_view name)
{
    const model::DeviceAttribute *a = device.attribute(name, driver);
    return a && a->type == model::DeviceAttribute::Type::String ? qs(a->stringValue) : QString();
}

std::optional<int> intAttribute(
    const model::Device &device, const std::string &driver, std::string_view name)
{
    const model::DeviceAttribute *a = device.attribute(name, driver);
    if (!a)
        return std::nullopt;
    if (a->type == model::DeviceAttribute::Type::Int)
        return int(a->intValue);
    // The driver publishes a one-element list when DRAListTypeAttributes is on.
    if (a->type == model::DeviceAttribute::Type::Ints && a->intValues.size() == 1)
        return int(a->intValues.front());
    return std::nullopt;
}

std::optional<int> numaOf(const model::Device &device, const std::string &driver)
{
    for (const std::string_view name : { "resource.kubernetes.io/numaNode", "numaNode", "numa" })
        if (const std::optional<int> numa = intAttribute(device, driver, name))
            return numa;
    return std::nullopt;
}

QString pciBusIdOf(const model::Device &device, const std::string &driver)
{
    QString busId = stringAttribute(device, driver, "resource.kubernetes.io/pciBusID");
    return busId.isEmpty() ? stringAttribute(device, driver, "pcieBusID") : busId;
}

QString capacityText(const model::Device &device, std::string_view name)
{
    const model::DeviceCapacity *c = device.capacityOf(name);
    return c ? qs(c->value.toString()) : QString();
}

// Memory slices of a MIG device: `memorySlice<i>` capacities of static MIG, or the
// `memory-slice-<i>` counters a partitionable device consumes.
std::set<int> memorySlicesOf(const model::Device &device)
{
    static const QRegularExpression capacity(QStringLiteral("^(?:.*/)?memorySlice(\\d+)$"));
    static const QRegularExpression counter(QStringLiteral("^memory-slice-(\\d+)$"));
    std::set<int> slices;
    for (const auto &[name, value] : device.capacity) {
        const QRegularExpressionMatch m = capacity.match(qs(name));
        if (m.hasMatch())
            slices.insert(m.captured(1).toInt());
    }
    for (const model::DeviceCounterConsumption &consumption : device.consumesCounters)
        for (const auto &[name, value] : consumption.counters) {
            const QRegularExpressionMatch m = counter.match(qs(name));
            if (m.hasMatch() && !value.isZero())
                slices.insert(m.captured(1).toInt());
        }
    return slices;
}

QString counterSetOf(const model::Device &device)
{
    return device.consumesCounters.empty() ? QString()
                                           : qs(device.consumesCounters.front().counterSet);
}

struct PendingMig
{
    MigDevice mig;
    QString parentUuid, counterSet, driver, pool;
};

// HGX baseboards carry NVSwitch: every GPU reaches every other one over NVLink. The product
// name tells an SXM part from a PCIe card; nothing else is assumed.
std::optional<int> sxmLinkCount(const QString &model, size_t gpuCount)
{
    const bool h100 = model.contains(u"H100") && !model.contains(u"PCIe", Qt::CaseInsensitive)
        && !model.contains(u"NVL") && (model.contains(u"SXM") || model.contains(u"HBM3"));
    const bool a100 = model.contains(u"A100") && model.contains(u"SXM");
    if (!h100 && !a100)
        return std::nullopt;
    // 18 (H100) and 12 (A100) NVLinks per GPU hold for 8-GPU boards; smaller boards vary.
    if (gpuCount != 8)
        return 0;
    return h100 ? 18 : 12;
}

void addAttributeLinks(NodeTopology &topology)
{
    struct Endpoint
    {
        QString name, pcieRoot;
    };
    std::vector<Endpoint> endpoints;
    for (const GpuNode &gpu : topology.gpus)
        if (!gpu.device.isEmpty() && !gpu.pcieRoot.isEmpty())
            endpoints.push_back({ gpu.name, gpu.pcieRoot });
    for (const NicNode &nic : topology.nics)
        if (!nic.device.isEmpty() && !nic.pcieRoot.isEmpty())
            endpoints.push_back({ nic.name, nic.pcieRoot });
    // An imported cell already states how the pair connects; an inferred NVLink does not say
    // anything about PCIe, so it hides no attribute fact.
    std::set<std::pair<QString, QString>> known;
    for (const Link &link : topology.links)
        if (link.source == LinkSource::Imported)
            known.insert(std::minmax(link.from, link.to));
    for (size_t i = 0; i < endpoints.size(); ++i)
        for (size_t j = i + 1; j < endpoints.size(); ++j)
            if (endpoints[i].pcieRoot == endpoints[j].pcieRoot
                && !known.contains(std::minmax(endpoints[i].name, endpoints[j].name)))
                // The attribute says only "same root complex": PXB (bridges, no host bridge) is
                // what that guarantees; PIX would claim a single bridge nobody published.
                topology.links.push_back({ endpoints[i].name, endpoints[j].name, LinkKind::PXB, 0,
                    LinkSource::Attribute });
}

void addInferredNvLinks(NodeTopology &topology)
{
    std::vector<const GpuNode *> sxm;
    std::optional<int> count;
    for (const GpuNode &gpu : topology.gpus) {
        const std::optional<int> c = sxmLinkCount(gpu.model, topology.gpus.size());
        if (c) {
            sxm.push_back(&gpu);
            count = c;
        }
    }
    if (sxm.size() < 2)
        return;
    for (size_t i = 0; i < sxm.size(); ++i)
        for (size_t j = i + 1; j < sxm.size(); ++j)
            topology.links.push_back(
                { sxm[i]->name, sxm[j]->name, LinkKind::NV, *count, LinkSource::Inferred });
    topology.notes.append(
        QStringLiteral("NVLink links are inferred from the product name (%1 is an SXM "
                       "baseboard part with NVSwitch); import `nvidia-smi topo -m` to confirm them")
            .arg(sxm.front()->model));
}

void collectGroups(NodeTopology &topology)
{
    std::map<QString, PcieRootNode> roots;
    std::map<int, NumaNode> numa;
    auto place = [&](const QString &name, const QString &root, std::optional<int> node, bool isGpu,
                     const QString &cpuAffinity) {
        if (!root.isEmpty()) {
            PcieRootNode &r = roots[root];
            r.name = root;
            if (!r.numa)
                r.numa = node;
            (isGpu ? r.gpus : r.nics).append(name);
        }
        if (node) {
            NumaNode &n = numa[*node];
            n.id = *node;
            (isGpu ? n.gpus : n.nics).append(name);
            if (!root.isEmpty() && !n.pcieRoots.contains(root))
                n.pcieRoots.append(root);
            if (n.cpuAffinity.isEmpty())
                n.cpuAffinity = cpuAffinity;
        }
    };
    for (const GpuNode &gpu : topology.gpus)
        place(gpu.name, gpu.pcieRoot, gpu.numa, true, gpu.cpuAffinity);
    for (const NicNode &nic : topology.nics)
        place(nic.name, nic.pcieRoot, nic.numa, false, QString());
    for (auto &[name, root] : roots)
        topology.pcieRoots.push_back(std::move(root));
    for (auto &[id, node] : numa)
        topology.numa.push_back(std::move(node));
}

void applyImport(
    NodeTopology &topology, const TopoMatrix &matrix, const std::vector<GpuIdentity> *query)
{
    topology.imported = true;
    std::vector<GpuCandidate> candidates;
    for (const GpuNode &gpu : topology.gpus)
        candidates.push_back({ gpu.device, gpu.pciBusId, gpu.uuid, gpu.index });
    std::vector<GpuMapping> mappings = mapGpus(matrix, query, candidates);
    for (const GpuMapping &mapping : mappings) {
        const TopoDevice *row = matrix.device(mapping.topoName);
        auto gpu = std::ranges::find(topology.gpus, mapping.device, &GpuNode::device);
        if (mapping.device.isEmpty() || gpu == topology.gpus.end()) {
            GpuNode unmapped;
            unmapped.name = mapping.topoName;
            unmapped.numa = row->numaNode;
            unmapped.cpuAffinity = row->cpuAffinity;
            unmapped.mappingNote = mapping.note;
            topology.gpus.push_back(std::move(unmapped));
            topology.notes.append(
                QStringLiteral("%1 is unmapped: %2").arg(mapping.topoName, mapping.note));
            continue;
        }
        gpu->name = mapping.topoName;
        gpu->mapping = mapping.method;
        gpu->mappingNote = mapping.note;
        gpu->cpuAffinity = row->cpuAffinity;
        if (!gpu->numa)
            gpu->numa = row->numaNode;
    }
    for (const TopoDevice &device : matrix.devices) {
        if (device.kind != TopoDevice::Kind::Nic)
            continue;
        NicNode nic;
        nic.name = device.name;
        nic.interfaceName = matrix.nicInterface(device.name);
        if (nic.interfaceName.isEmpty() && !device.name.startsWith(u"NIC"))
            nic.interfaceName = device.name; // old drivers name the column after the interface
        nic.numa = device.numaNode;
        topology.nics.push_back(std::move(nic));
    }
    for (const TopoLink &link : matrix.links)
        topology.links.push_back(
            { link.from, link.to, link.kind, link.count, LinkSource::Imported });
    for (const QString &warning : matrix.warnings)
        topology.notes.append(warning);
}

} // namespace

QString linkSourceName(LinkSource source)
{
    switch (source) {
    case LinkSource::Imported:
        return QStringLiteral("imported");
    case LinkSource::Attribute:
        return QStringLiteral("attribute");
    case LinkSource::Inferred:
        return QStringLiteral("inferred");
    }
    return QString();
}

const GpuNode *NodeTopology::gpu(QStringView name) const
{
    for (const GpuNode &g : gpus)
        if (g.name == name || (!g.device.isEmpty() && g.device == name))
            return &g;
    return nullptr;
}

NodeTopology buildNodeTopology(
    const QString &node, std::span<const model::Object> objects, const TopologyInputs &inputs)
{
    NodeTopology topology;
    topology.node = node;
    const std::string nodeName = node.toStdString();
    std::vector<PendingMig> migs;
    std::vector<QString> gpuCounterSets;
    for (const model::Object &object : objects) {
        const model::ResourceSlice *slice = object.as<model::ResourceSlice>();
        if (!slice || slice->nodeName != nodeName)
            continue;
        const std::string &driver = slice->driver;
        for (const model::Device &device : slice->devices) {
            const QString type = stringAttribute(device, driver, "type");
            const QString pcieRoot
                = stringAttribute(device, driver, "resource.kubernetes.io/pcieRoot");
            if (type == u"gpu" || type == u"vfio") {
                GpuNode gpu;
                gpu.name = gpu.device = qs(device.name);
                gpu.driver = qs(driver);
                gpu.pool = qs(slice->pool.name);
                gpu.model = stringAttribute(device, driver, "productName");
                gpu.memory = capacityText(device, type == u"vfio" ? "addressableMemory" : "memory");
                gpu.uuid = stringAttribute(device, driver, "uuid");
                gpu.pciBusId = pciBusIdOf(device, driver);
                gpu.pcieRoot = pcieRoot;
                gpu.numa = numaOf(device, driver);
                gpu.memorySlices = int(memorySlicesOf(device).size());
                gpuCounterSets.push_back(counterSetOf(device));
                gpu.index = intAttribute(device, driver, "index");
                topology.gpus.push_back(std::move(gpu));
            } else if (type == u"mig") {
                PendingMig pending;
                pending.mig.device = qs(device.name);
                pending.mig.profile = stringAttribute(device, driver, "profile");
                pending.mig.uuid = stringAttribute(device, driver, "uuid");
                pending.mig.memory = capacityText(device, "memory");
                const std::set<int> slices = memorySlicesOf(device);
                if (!slices.empty()) {
                    pending.mig.sliceStart = *slices.begin();
                    pending.mig.sliceCount = int(slices.size());
                }
                pending.parentUuid = stringAttribute(device, driver, "parentUUID");
                pending.counterSet = counterSetOf(device);
                pending.driver = qs(driver);
                pending.pool = qs(slice->pool.name);
                migs.push_back(std::move(pending));
            } else if (!pcieRoot.isEmpty() || !pciBusIdOf(device, driver).isEmpty()) {
                NicNode nic;
                nic.name = nic.device = qs(device.name);
                nic.driver = qs(driver);
                nic.pool = qs(slice->pool.name);
                nic.interfaceName = stringAttribute(device, driver, "ifName");
                nic.pciBusId = pciBusIdOf(device, driver);
                nic.pcieRoot = pcieRoot;
                nic.numa = numaOf(device, driver);
                topology.nics.push_back(std::move(nic));
            }
        }
    }

    for (PendingMig &pending : migs) {
        GpuNode *parent = nullptr;
        for (size_t i = 0; i < topology.gpus.size() && !parent; ++i) {
            GpuNode &gpu = topology.gpus[i];
            if (gpu.driver != pending.driver || gpu.pool != pending.pool)
                continue;
            if ((!pending.parentUuid.isEmpty() && pending.parentUuid == gpu.uuid)
                || (!pending.counterSet.isEmpty() && pending.counterSet == gpuCounterSets[i])
                || (pending.parentUuid.isEmpty()
                    && pending.mig.device.startsWith(gpu.device + QStringLiteral("-mig-"))))
                parent = &gpu;
        }
        if (!parent) {
            topology.notes.append(
                QStringLiteral("MIG device %1: no parent GPU on the node (parentUUID %2)")
                    .arg(pending.mig.device,
                        pending.parentUuid.isEmpty() ? QStringLiteral("-") : pending.parentUuid));
            continue;
        }
        parent->memorySlices
            = std::max(parent->memorySlices, pending.mig.sliceStart + pending.mig.sliceCount);
        parent->migs.push_back(std::move(pending.mig));
    }

    if (inputs.imported) {
        applyImport(topology, *inputs.imported, inputs.gpuQuery);
    } else {
        addInferredNvLinks(topology);
        if (topology.gpus.empty())
            topology.notes.append(QStringLiteral("no GPUs published for node %1").arg(node));
    }
    addAttributeLinks(topology);
    collectGroups(topology);
    overlayAllocations(topology, objects);
    return topology;
}

Result<NodeTopology> buildNodeTopology(
    const QString &node, const inventory::Snapshot &snapshot, const TopologyInputs &inputs)
{
    // The slices publishing the node's current devices; stale generations stay out.
    std::set<std::string> names;
    for (const inventory::Device *device : snapshot.devicesOnNode(node.toStdString()))
        names.insert(device->slice);
    std::vector<model::Object> slices;
    for (const std::string &name : names) {
        Result<model::Object> slice = snapshot.sliceObject(name);
        if (!slice)
            return fail(slice.error());
        slices.push_back(std::move(*slice));
    }
    NodeTopology topology = buildNodeTopology(node, slices, inputs);
    overlayAllocations(topology, snapshot);
    return topology;
}

} // namespace dra::topology
