// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl topology: one node's GPU topology from the cache, with the `nvidia-smi topo -m` text
// imported for it (dractl topology import) or given with --topo.
#include <QDateTime>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/output.h"
#include "core/common/json_text.h"
#include "core/inventory/snapshot_builder.h"
#include "core/store/state_db.h"
#include "core/topology/gpu_map.h"
#include "core/topology/node_topology.h"
#include "core/topology/topo_matrix_parser.h"
#include "core/topology/topology_layout.h"
#include "core/topology/topology_render.h"

namespace dra::cli {

namespace {

using common::qs;

Result<QString> readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return dra::fail(
            common::Error::Code::NotFound, QStringLiteral("%1: %2").arg(path, file.errorString()));
    return QString::fromUtf8(file.readAll());
}

QCommandLineOption gpusOption()
{
    return { QStringLiteral("gpus"),
        QStringLiteral("`nvidia-smi --query-gpu=index,pci.bus_id,uuid --format=csv` output, to map "
                       "nvidia-smi indices to DRA devices."),
        QStringLiteral("file") };
}

// The stored import of `node`, if the state file exists and has one.
Result<std::optional<store::ImportedTopology>> storedImport(
    const QCommandLineParser &parser, const std::string &cluster, const std::string &node)
{
    Result<QString> path = statePath(parser);
    if (!path)
        return dra::fail(path.error());
    if (!QFileInfo::exists(*path))
        return std::optional<store::ImportedTopology>();
    Result<store::StateDb> state = store::StateDb::open(*path, store::OpenMode::ReadOnly);
    if (!state)
        return dra::fail(state.error());
    return state->importedTopology(cluster, node);
}

int runTopologyImport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(stateOption());
    parser.addOption(gpusOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addPositionalArgument(
        QStringLiteral("node"), QStringLiteral("The node the text was taken on."));
    parser.addPositionalArgument(
        QStringLiteral("file"), QStringLiteral("`nvidia-smi topo -m` output of the node."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Store a node's `nvidia-smi topo -m` text (and GPU listing) in the state file; "
                "`dractl topology NODE` then draws its links as imported."),
            &exitCode))
        return exitCode;
    if (parser.positionalArguments().size() != 2)
        return reportFailure(QStringLiteral("topology import: name one node and one file"));
    const QString node = parser.positionalArguments().at(0);
    const QString file = parser.positionalArguments().at(1);
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(format, { QStringLiteral("text"), QStringLiteral("json") },
            QStringLiteral("topology import")))
        return Failed;

    // Checked before storing, so a stored text always parses.
    Result<QString> text = readText(file);
    if (!text)
        return reportFailure(text.error());
    Result<topology::TopoMatrix> matrix = topology::parseTopoMatrix(*text, file);
    if (!matrix)
        return reportFailure(matrix.error());
    QString gpusCsv;
    if (parser.isSet(QStringLiteral("gpus"))) {
        Result<QString> csv = readText(parser.value(QStringLiteral("gpus")));
        if (!csv)
            return reportFailure(csv.error());
        Result<std::vector<topology::GpuIdentity>> parsed
            = topology::parseGpuQuery(*csv, parser.value(QStringLiteral("gpus")));
        if (!parsed)
            return reportFailure(parsed.error());
        gpusCsv = *csv;
    }

    // The cluster names the import; the cache, when there is one, says whether the node is known.
    std::string cluster;
    bool nodeKnown = true;
    if (Result<ClusterCache> opened = openClusterCache(parser)) {
        cluster = opened->cluster;
        Result<std::vector<store::SliceDevice>> devices
            = opened->cache.devices(cluster, node.toStdString());
        nodeKnown = devices && !devices->empty();
    } else if (parser.isSet(QStringLiteral("cluster"))) {
        cluster = parser.value(QStringLiteral("cluster")).toStdString();
        nodeKnown = false;
    } else {
        return reportFailure(opened.error());
    }

    Result<QString> path = statePath(parser);
    if (!path)
        return reportFailure(path.error());
    Result<store::StateDb> state = store::StateDb::open(*path, store::OpenMode::ReadWrite);
    if (!state)
        return reportFailure(state.error());
    const store::ImportedTopology import { cluster, node.toStdString(), text->toStdString(),
        gpusCsv.toStdString(), 0 };
    if (Result<void> saved = state->saveImportedTopology(import); !saved)
        return reportFailure(saved.error());

    int gpus = 0;
    int nics = 0;
    for (const topology::TopoDevice &device : matrix->devices)
        ++(device.kind == topology::TopoDevice::Kind::Gpu ? gpus : nics);
    if (format == QLatin1String("json")) {
        nlohmann::json warnings = nlohmann::json::array();
        for (const QString &warning : matrix->warnings)
            warnings.push_back(warning.toStdString());
        printJson({ { "cluster", cluster }, { "node", node.toStdString() }, { "gpus", gpus },
            { "nics", nics }, { "links", matrix->links.size() },
            { "gpuListing", !gpusCsv.isEmpty() }, { "nodeInCache", nodeKnown },
            { "warnings", std::move(warnings) }, { "state", path->toStdString() } });
        return Ok;
    }
    out(QStringLiteral("imported the topology of %1 (%2 GPUs, %3 NICs, %4 links%5) into %6\n")
            .arg(node)
            .arg(gpus)
            .arg(nics)
            .arg(matrix->links.size())
            .arg(gpusCsv.isEmpty() ? QString() : QStringLiteral(", with a GPU listing"), *path));
    for (const QString &warning : matrix->warnings)
        err(QStringLiteral("dractl: warning: %1\n").arg(warning));
    if (!nodeKnown)
        err(QStringLiteral("dractl: warning: the cache has no devices of node %1 (yet)\n")
                .arg(node));
    return Ok;
}

} // namespace

int runTopology(const QStringList &arguments)
{
    if (arguments.value(1) == QLatin1String("import"))
        return runTopologyImport(
            QStringList { arguments.value(0) + QStringLiteral(" import") } + arguments.mid(2));

    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(stateOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addOption({ QStringLiteral("topo"),
        QStringLiteral("`nvidia-smi topo -m` output of the node (instead of the imported one)."),
        QStringLiteral("file") });
    parser.addOption(gpusOption());
    parser.addPositionalArgument(QStringLiteral("node"), QStringLiteral("The node to draw."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "A node's GPUs, MIG devices, PCIe roots, NUMA nodes, NICs and links, with who "
                "holds what. Formats: text, json, dot, svg, layout-json (the drawing's boxes and "
                "links with their coordinates, as the console and the SVG place them).\n"
                "Links come from the `nvidia-smi topo -m` text stored by `dractl topology "
                "import NODE FILE [--gpus FILE]` (or --topo), else from device attributes."),
            &exitCode))
        return exitCode;
    if (parser.positionalArguments().size() != 1)
        return reportFailure(
            QStringLiteral("topology: name one node (or `topology import NODE FILE`)"));
    const QString node = parser.positionalArguments().front();
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(format,
            { QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("dot"),
                QStringLiteral("svg"), QStringLiteral("layout-json") },
            QStringLiteral("topology")))
        return Failed;

    Result<ClusterCache> opened = openClusterCache(parser);
    if (!opened)
        return reportFailure(opened.error());
    Result<std::optional<store::ImportedTopology>> stored
        = storedImport(parser, opened->cluster, node.toStdString());
    if (!stored)
        return reportFailure(stored.error());

    // --topo and --gpus override what was imported.
    std::optional<topology::TopoMatrix> matrix;
    QString importNote;
    if (parser.isSet(QStringLiteral("topo"))) {
        Result<QString> text = readText(parser.value(QStringLiteral("topo")));
        if (!text)
            return reportFailure(text.error());
        Result<topology::TopoMatrix> parsed
            = topology::parseTopoMatrix(*text, parser.value(QStringLiteral("topo")));
        if (!parsed)
            return reportFailure(parsed.error());
        matrix = std::move(*parsed);
    } else if (*stored) {
        Result<topology::TopoMatrix> parsed = topology::parseTopoMatrix(
            qs((*stored)->text), QStringLiteral("the imported topology of %1").arg(node));
        if (!parsed)
            return reportFailure(parsed.error());
        matrix = std::move(*parsed);
        importNote = QStringLiteral("links imported with `dractl topology import` on %1")
                         .arg(QDateTime::fromMSecsSinceEpoch((*stored)->importedAt, Qt::UTC)
                                  .toString(Qt::ISODate));
    }
    std::optional<std::vector<topology::GpuIdentity>> gpus;
    QString gpusText;
    QString gpusSource;
    if (parser.isSet(QStringLiteral("gpus"))) {
        gpusSource = parser.value(QStringLiteral("gpus"));
        Result<QString> text = readText(gpusSource);
        if (!text)
            return reportFailure(text.error());
        gpusText = *text;
    } else if (*stored && !(*stored)->gpusCsv.empty()) {
        gpusSource = QStringLiteral("the imported GPU listing of %1").arg(node);
        gpusText = qs((*stored)->gpusCsv);
    }
    if (!gpusSource.isEmpty()) {
        Result<std::vector<topology::GpuIdentity>> parsed
            = topology::parseGpuQuery(gpusText, gpusSource);
        if (!parsed)
            return reportFailure(parsed.error());
        gpus = std::move(*parsed);
    }

    Result<inventory::SnapshotPtr> snapshot
        = inventory::loadSnapshot(opened->cache, opened->cluster);
    if (!snapshot)
        return reportFailure(snapshot.error());
    Result<topology::NodeTopology> graph = topology::buildNodeTopology(
        node, **snapshot, { matrix ? &*matrix : nullptr, gpus ? &*gpus : nullptr });
    if (!graph)
        return reportFailure(graph.error());
    if (graph->gpus.empty() && graph->nics.empty() && !matrix)
        return reportFailure(
            QStringLiteral("topology: no devices of node %1 in the cache").arg(node));
    if (!importNote.isEmpty())
        graph->notes.append(importNote);

    if (format == QLatin1String("json"))
        printJson(topology::toJson(*graph));
    else if (format == QLatin1String("dot"))
        out(topology::toDot(*graph));
    else if (format == QLatin1String("svg"))
        out(topology::toSvg(*graph));
    else if (format == QLatin1String("layout-json"))
        printJson(topology::toJson(topology::layoutTopology(*graph)));
    else
        out(topology::toText(*graph));
    return Ok;
}

namespace {
const CommandRegistration topologyRegistration({ "topology",
    "Draw a node's GPU topology (text, json, dot, svg, layout-json)", runTopology, 50 });
} // namespace

} // namespace dra::cli
