// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl topology: one node's GPU topology from the cache, optionally with `nvidia-smi topo -m`.
#include <QFile>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/output.h"
#include "core/topology/gpu_map.h"
#include "core/topology/node_topology.h"
#include "core/topology/topo_matrix_parser.h"
#include "core/topology/topology_render.h"

namespace dra::cli {

namespace {

Result<QString> readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return dra::fail(common::Error::Code::NotFound, QStringLiteral("%1: %2").arg(path, file.errorString()));
    return QString::fromUtf8(file.readAll());
}

} // namespace

int runTopology(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addOption({QStringLiteral("topo"), QStringLiteral("`nvidia-smi topo -m` output of the node: links as imported."),
                      QStringLiteral("file")});
    parser.addOption({QStringLiteral("gpus"),
                      QStringLiteral("`nvidia-smi --query-gpu=index,pci.bus_id,uuid --format=csv` output, to map "
                                     "nvidia-smi indices to DRA devices."),
                      QStringLiteral("file")});
    parser.addPositionalArgument(QStringLiteral("node"), QStringLiteral("The node to draw."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
                     QStringLiteral("A node's GPUs, MIG devices, PCIe roots, NUMA nodes, NICs and links, with who "
                                    "holds what. Formats: text, json, dot, svg."),
                     &exitCode))
        return exitCode;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("topology: name one node"));
    const QString node = parser.positionalArguments().front();
    const QString format = parser.value(QStringLiteral("output"));
    if (format != QLatin1String("text") && format != QLatin1String("json") && format != QLatin1String("dot")
        && format != QLatin1String("svg"))
        return fail(QStringLiteral("topology: unknown output format '%1' (text, json, dot, svg)").arg(format));

    std::optional<topology::TopoMatrix> matrix;
    if (parser.isSet(QStringLiteral("topo"))) {
        Result<QString> text = readText(parser.value(QStringLiteral("topo")));
        if (!text)
            return fail(text.error());
        Result<topology::TopoMatrix> parsed = topology::parseTopoMatrix(*text, parser.value(QStringLiteral("topo")));
        if (!parsed)
            return fail(parsed.error());
        matrix = std::move(*parsed);
    }
    std::optional<std::vector<topology::GpuIdentity>> gpus;
    if (parser.isSet(QStringLiteral("gpus"))) {
        Result<QString> text = readText(parser.value(QStringLiteral("gpus")));
        if (!text)
            return fail(text.error());
        Result<std::vector<topology::GpuIdentity>> parsed =
            topology::parseGpuQuery(*text, parser.value(QStringLiteral("gpus")));
        if (!parsed)
            return fail(parsed.error());
        gpus = std::move(*parsed);
    }

    Result<ClusterCache> opened = openClusterCache(parser);
    if (!opened)
        return fail(opened.error());
    std::vector<model::Object> objects;
    for (model::Kind kind : {model::Kind::ResourceSlice, model::Kind::ResourceClaim}) {
        Result<std::vector<model::Object>> loaded = loadObjects(opened->cache, opened->cluster, model::kindInfo(kind));
        if (!loaded)
            return fail(loaded.error());
        std::move(loaded->begin(), loaded->end(), std::back_inserter(objects));
    }
    const topology::NodeTopology graph = topology::buildNodeTopology(
        node, objects, {matrix ? &*matrix : nullptr, gpus ? &*gpus : nullptr});
    if (graph.gpus.empty() && graph.nics.empty() && !matrix)
        return fail(QStringLiteral("topology: no devices of node %1 in the cache").arg(node));

    if (format == QLatin1String("json"))
        printJson(topology::toJson(graph));
    else if (format == QLatin1String("dot"))
        out(topology::toDot(graph));
    else if (format == QLatin1String("svg"))
        out(topology::toSvg(graph));
    else
        out(topology::toText(graph));
    return Ok;
}

namespace {
const CommandRegistration registration({"topology", "Draw a node's GPU topology (text, json, dot, svg)", runTopology, 50});
} // namespace

} // namespace dra::cli
