// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/topology/topology_render.h"

#include <nlohmann/json.hpp>

namespace dra::topology {

namespace {

using nlohmann::json;

json str(const QString &text)
{
    return text.isEmpty() ? json(nullptr) : json(text.toStdString());
}

json optInt(std::optional<int> value)
{
    return value ? json(*value) : json(nullptr);
}

json strings(const QStringList &list)
{
    json out = json::array();
    for (const QString &s : list)
        out.push_back(s.toStdString());
    return out;
}

json holderJson(const Holder &holder)
{
    if (!holder.isHeld())
        return nullptr;
    return { { "claim", holder.claim.toStdString() }, { "pods", strings(holder.pods) } };
}

QString holderText(const Holder &holder)
{
    if (!holder.isHeld())
        return QStringLiteral("free");
    QString text = QStringLiteral("held by %1").arg(holder.claim);
    if (!holder.pods.isEmpty())
        text += QStringLiteral(" (pod %1)").arg(holder.pods.join(QStringLiteral(", ")));
    return text;
}

QString linkLabel(const Link &link)
{
    return linkKindName(link.kind) + (link.count > 0 ? QString::number(link.count) : QString());
}

QString dotQuote(const QString &text)
{
    QString escaped = text;
    escaped.replace(u'\\', QStringLiteral("\\\\")).replace(u'"', QStringLiteral("\\\""));
    return u'"' + escaped + u'"';
}

QString sliceText(const MigDevice &mig)
{
    if (mig.sliceStart < 0)
        return QStringLiteral("slices unknown");
    return mig.sliceCount == 1 ? QStringLiteral("slice %1").arg(mig.sliceStart)
                               : QStringLiteral("slices %1-%2")
                                     .arg(mig.sliceStart)
                                     .arg(mig.sliceStart + mig.sliceCount - 1);
}

} // namespace

json toJson(const NodeTopology &topology)
{
    json devices = json::array();
    for (const GpuNode &gpu : topology.gpus) {
        json migs = json::array();
        for (const MigDevice &mig : gpu.migs) {
            json placement = mig.sliceStart < 0
                ? json(nullptr)
                : json { { "start", mig.sliceStart }, { "count", mig.sliceCount } };
            migs.push_back({ { "device", mig.device.toStdString() },
                { "profile", str(mig.profile) }, { "uuid", str(mig.uuid) },
                { "memory", str(mig.memory) }, { "memorySlices", placement },
                { "allocatedTo", holderJson(mig.holder) }, { "free", mig.free } });
        }
        devices.push_back({ { "name", gpu.name.toStdString() }, { "kind", "gpu" },
            { "device", str(gpu.device) }, { "driver", str(gpu.driver) }, { "pool", str(gpu.pool) },
            { "mapping",
                topology.imported ? json(mapMethodName(gpu.mapping).toStdString())
                                  : json(nullptr) },
            { "mappingNote", str(gpu.mappingNote) }, { "model", str(gpu.model) },
            { "memory", str(gpu.memory) }, { "uuid", str(gpu.uuid) },
            { "pciBusID", str(gpu.pciBusId) }, { "pcieRoot", str(gpu.pcieRoot) },
            { "numa", optInt(gpu.numa) }, { "cpuAffinity", str(gpu.cpuAffinity) },
            { "memorySlices", gpu.memorySlices }, { "allocatedTo", holderJson(gpu.holder) },
            { "mig", std::move(migs) } });
    }
    json numa = json::array();
    for (const NumaNode &n : topology.numa)
        numa.push_back({ { "id", n.id }, { "cpuAffinity", str(n.cpuAffinity) },
            { "pcieRoots", strings(n.pcieRoots) }, { "gpus", strings(n.gpus) },
            { "nics", strings(n.nics) } });
    json roots = json::array();
    for (const PcieRootNode &r : topology.pcieRoots)
        roots.push_back({ { "name", r.name.toStdString() }, { "numa", optInt(r.numa) },
            { "gpus", strings(r.gpus) }, { "nics", strings(r.nics) } });
    json nics = json::array();
    for (const NicNode &nic : topology.nics)
        nics.push_back({ { "name", nic.name.toStdString() }, { "device", str(nic.device) },
            { "driver", str(nic.driver) }, { "pool", str(nic.pool) },
            { "interface", str(nic.interfaceName) }, { "pciBusID", str(nic.pciBusId) },
            { "pcieRoot", str(nic.pcieRoot) }, { "numa", optInt(nic.numa) },
            { "allocatedTo", holderJson(nic.holder) } });
    json links = json::array();
    for (const Link &link : topology.links)
        links.push_back({ { "from", link.from.toStdString() }, { "to", link.to.toStdString() },
            { "kind", linkKindName(link.kind).toStdString() }, { "count", link.count },
            { "source", linkSourceName(link.source).toStdString() } });
    return { { "node", topology.node.toStdString() }, { "imported", topology.imported },
        { "devices", std::move(devices) }, { "numa", std::move(numa) },
        { "pcieRoots", std::move(roots) }, { "nics", std::move(nics) },
        { "links", std::move(links) }, { "notes", strings(topology.notes) } };
}

QString toDot(const NodeTopology &topology)
{
    QString out = QStringLiteral("graph %1 {\n  node [shape=box, fontname=\"sans-serif\"];\n")
                      .arg(dotQuote(topology.node));
    auto gpuLine = [&](const GpuNode &gpu) -> QString {
        QString label = gpu.name;
        if (!gpu.device.isEmpty() && gpu.device != gpu.name)
            label += QStringLiteral("\\n") + gpu.device;
        if (!gpu.model.isEmpty())
            label += QStringLiteral("\\n") + gpu.model;
        if (!gpu.migs.empty())
            label += QStringLiteral("\\n%1 MIG devices").arg(gpu.migs.size());
        const QString fill
            = gpu.holder.isHeld() ? QStringLiteral("#f6bd60") : QStringLiteral("#d8f3dc");
        return QStringLiteral("%1 [label=%2, style=filled, fillcolor=\"%3\"%4];\n")
            .arg(dotQuote(gpu.name), dotQuote(label), fill,
                gpu.device.isEmpty() ? QStringLiteral(", color=gray") : QString());
    };
    auto nicLine = [&](const NicNode &nic) -> QString {
        const QString label = nic.interfaceName.isEmpty() || nic.interfaceName == nic.name
            ? nic.name
            : nic.name + QStringLiteral("\\n") + nic.interfaceName;
        return QStringLiteral("%1 [label=%2, shape=ellipse%3];\n")
            .arg(dotQuote(nic.name), dotQuote(label),
                nic.holder.isHeld() ? QStringLiteral(", style=filled, fillcolor=\"#f6bd60\"")
                                    : QString());
    };
    QStringList placed;
    for (const NumaNode &numa : topology.numa) {
        out += QStringLiteral("  subgraph \"cluster_numa%1\" {\n    label=\"NUMA %1\";\n")
                   .arg(numa.id);
        for (const QString &rootName : numa.pcieRoots) {
            out += QStringLiteral("    subgraph %1 {\n      label=%2;\n")
                       .arg(dotQuote(QStringLiteral("cluster_") + rootName), dotQuote(rootName));
            for (const GpuNode &gpu : topology.gpus)
                if (gpu.pcieRoot == rootName && gpu.numa == numa.id && !placed.contains(gpu.name)) {
                    out += QStringLiteral("      ") + gpuLine(gpu);
                    placed.append(gpu.name);
                }
            for (const NicNode &nic : topology.nics)
                if (nic.pcieRoot == rootName && nic.numa == numa.id && !placed.contains(nic.name)) {
                    out += QStringLiteral("      ") + nicLine(nic);
                    placed.append(nic.name);
                }
            out += QStringLiteral("    }\n");
        }
        for (const GpuNode &gpu : topology.gpus)
            if (gpu.numa == numa.id && !placed.contains(gpu.name)) {
                out += QStringLiteral("    ") + gpuLine(gpu);
                placed.append(gpu.name);
            }
        for (const NicNode &nic : topology.nics)
            if (nic.numa == numa.id && !placed.contains(nic.name)) {
                out += QStringLiteral("    ") + nicLine(nic);
                placed.append(nic.name);
            }
        out += QStringLiteral("  }\n");
    }
    for (const GpuNode &gpu : topology.gpus)
        if (!placed.contains(gpu.name))
            out += QStringLiteral("  ") + gpuLine(gpu);
    for (const NicNode &nic : topology.nics)
        if (!placed.contains(nic.name))
            out += QStringLiteral("  ") + nicLine(nic);
    for (const Link &link : topology.links) {
        const QString style = link.source == LinkSource::Imported ? QStringLiteral("solid")
            : link.source == LinkSource::Inferred                 ? QStringLiteral("dashed")
                                                                  : QStringLiteral("dotted");
        out += QStringLiteral("  %1 -- %2 [label=%3, style=%4];\n")
                   .arg(dotQuote(link.from), dotQuote(link.to), dotQuote(linkLabel(link)), style);
    }
    out += QStringLiteral("}\n");
    return out;
}

QString toText(const NodeTopology &topology)
{
    QString out = QStringLiteral("Node %1 (%2)\n")
                      .arg(topology.node,
                          topology.imported ? QStringLiteral("imported nvidia-smi topo -m")
                                            : QStringLiteral("from ResourceSlice attributes"));
    QStringList shown;
    auto gpuText = [&](const GpuNode &gpu, const QString &indent) -> QString {
        QString line = indent + gpu.name;
        if (!gpu.device.isEmpty() && gpu.device != gpu.name)
            line += QStringLiteral(" = ") + gpu.device;
        if (gpu.device.isEmpty())
            line += QStringLiteral(" (no DRA device)");
        for (const QString &part : { gpu.model, gpu.memory, gpu.uuid })
            if (!part.isEmpty())
                line += QStringLiteral("  ") + part;
        if (!gpu.device.isEmpty())
            line += QStringLiteral("  ") + holderText(gpu.holder);
        line += u'\n';
        for (const MigDevice &mig : gpu.migs)
            line += QStringLiteral("%1  MIG %2  %3  %4  %5\n")
                        .arg(indent, mig.device, mig.profile, sliceText(mig),
                            mig.holder.isHeld() ? holderText(mig.holder)
                                : mig.free      ? QStringLiteral("free")
                                                : QStringLiteral("blocked"));
        shown.append(gpu.name);
        return line;
    };
    auto nicText = [&](const NicNode &nic, const QString &indent) -> QString {
        QString line = indent + QStringLiteral("NIC ") + nic.name;
        if (!nic.interfaceName.isEmpty() && nic.interfaceName != nic.name)
            line += QStringLiteral(" (%1)").arg(nic.interfaceName);
        if (!nic.driver.isEmpty())
            line += QStringLiteral("  ") + nic.driver;
        if (nic.holder.isHeld())
            line += QStringLiteral("  ") + holderText(nic.holder);
        shown.append(nic.name);
        return line + u'\n';
    };
    for (const NumaNode &numa : topology.numa) {
        out += QStringLiteral("NUMA %1").arg(numa.id);
        if (!numa.cpuAffinity.isEmpty())
            out += QStringLiteral("  CPUs %1").arg(numa.cpuAffinity);
        out += u'\n';
        for (const QString &root : numa.pcieRoots) {
            out += QStringLiteral("  PCIe root %1\n").arg(root);
            for (const GpuNode &gpu : topology.gpus)
                if (gpu.pcieRoot == root && !shown.contains(gpu.name))
                    out += gpuText(gpu, QStringLiteral("    "));
            for (const NicNode &nic : topology.nics)
                if (nic.pcieRoot == root && !shown.contains(nic.name))
                    out += nicText(nic, QStringLiteral("    "));
        }
        for (const GpuNode &gpu : topology.gpus)
            if (gpu.numa == numa.id && !shown.contains(gpu.name))
                out += gpuText(gpu, QStringLiteral("  "));
        for (const NicNode &nic : topology.nics)
            if (nic.numa == numa.id && !shown.contains(nic.name))
                out += nicText(nic, QStringLiteral("  "));
    }
    QString rest;
    for (const GpuNode &gpu : topology.gpus)
        if (!shown.contains(gpu.name))
            rest += gpuText(gpu, QStringLiteral("  "));
    for (const NicNode &nic : topology.nics)
        if (!shown.contains(nic.name))
            rest += nicText(nic, QStringLiteral("  "));
    if (!rest.isEmpty())
        out += QStringLiteral("NUMA unknown\n") + rest;
    if (!topology.links.empty()) {
        out += QStringLiteral("Links\n");
        for (const Link &link : topology.links)
            out += QStringLiteral("  %1 -- %2  %3  %4\n")
                       .arg(link.from, link.to, linkLabel(link), linkSourceName(link.source));
    }
    if (!topology.notes.isEmpty()) {
        out += QStringLiteral("Notes\n");
        for (const QString &note : topology.notes)
            out += QStringLiteral("  ") + note + u'\n';
    }
    return out;
}

} // namespace dra::topology
