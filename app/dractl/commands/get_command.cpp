// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl get: objects and devices from the cache, as kubectl shows them.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/output.h"
#include "core/common/json_text.h"
#include "core/inventory/age.h"
#include "core/inventory/device_rows.h"
#include "core/inventory/object_table.h"

namespace dra::cli {

namespace {

using common::qs;

bool isDevices(const QString &kind)
{
    return kind == QLatin1String("devices") || kind == QLatin1String("device")
        || kind == QLatin1String("dev");
}

int printDevices(
    store::CacheDb &cache, const std::string &cluster, const QCommandLineParser &parser)
{
    const model::KindInfo &slicesKind = model::kindInfo(model::Kind::ResourceSlice);
    const model::KindInfo &claimsKind = model::kindInfo(model::Kind::ResourceClaim);
    Result<std::vector<model::Object>> slices = loadObjects(cache, cluster, slicesKind);
    if (!slices)
        return reportFailure(slices.error());
    Result<std::vector<model::Object>> claims = loadObjects(cache, cluster, claimsKind);
    if (!claims)
        return reportFailure(claims.error());
    const std::vector<inventory::DeviceRow> rows = inventory::deviceRows(
        *slices, *claims, parser.value(QStringLiteral("node")).toStdString());

    const QString format = parser.value(QStringLiteral("output"));
    if (isStructured(format)) {
        nlohmann::json list = nlohmann::json::array();
        for (const inventory::DeviceRow &row : rows)
            list.push_back(inventory::deviceJson(row));
        const nlohmann::json document = { { "devices", std::move(list) } };
        format == QLatin1String("json") ? printJson(document) : printYaml(document);
        return Ok;
    }
    const bool wide = format == QLatin1String("wide");
    std::vector<std::string> headers;
    std::vector<size_t> shown;
    for (size_t i = 0; i < inventory::deviceColumns().size(); ++i) {
        if (wide || inventory::deviceColumns()[i].priority == 0) {
            headers.push_back(inventory::deviceColumns()[i].name);
            shown.push_back(i);
        }
    }
    std::vector<std::vector<std::string>> table;
    for (const inventory::DeviceRow &row : rows) {
        const std::vector<std::string> cells = inventory::deviceCells(row);
        std::vector<std::string> picked;
        for (size_t i : shown)
            picked.push_back(cells[i]);
        table.push_back(std::move(picked));
    }
    printTable(headers, table, QStringLiteral("No devices found."));
    return Ok;
}

// The object as kubectl prints it with -o json: kind and apiVersion always set.
nlohmann::json withTypeMeta(const model::Object &object)
{
    nlohmann::json json = *object.raw;
    if (!json.contains("kind"))
        json["kind"] = std::string(object.info().name);
    if (!json.contains("apiVersion"))
        json["apiVersion"] = object.apiVersion;
    return json;
}

} // namespace

int runGet(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("table")));
    parser.addOption({ { QStringLiteral("n"), QStringLiteral("namespace") },
        QStringLiteral("The namespace of namespaced kinds (default: default)."),
        QStringLiteral("ns"), QStringLiteral("default") });
    parser.addOption({ { QStringLiteral("A"), QStringLiteral("all-namespaces") },
        QStringLiteral("List namespaced kinds across all namespaces.") });
    parser.addOption({ QStringLiteral("node"),
        QStringLiteral("Devices of this node only (get devices)."), QStringLiteral("name") });
    parser.addPositionalArgument(QStringLiteral("kind"),
        QStringLiteral("deviceclasses, resourceslices, resourceclaims, resourceclaimtemplates, "
                       "devicetaintrules, nodes, pods, namespaces, events (kubectl's names "
                       "and short names), or devices."));
    parser.addPositionalArgument(
        QStringLiteral("name"), QStringLiteral("One object by name."), QStringLiteral("[NAME]"));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments, QStringLiteral("Show objects or devices from the cache."),
            &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty() || positional.size() > 2)
        return reportFailure(QStringLiteral("get: usage: dractl get KIND [NAME] (see --help)"));
    const QString format = parser.value(QStringLiteral("output"));
    if (format != QLatin1String("table") && format != QLatin1String("wide")
        && !isStructured(format))
        return reportFailure(
            QStringLiteral("get: unknown output format '%1' (table, wide, json, yaml)")
                .arg(format));

    Result<ClusterCache> opened = openClusterCache(parser);
    if (!opened)
        return reportFailure(opened.error());
    store::CacheDb &cache = opened->cache;
    const std::string &cluster = opened->cluster;

    if (isDevices(positional[0]))
        return printDevices(cache, cluster, parser);

    const model::KindInfo *kind = model::findKind(positional[0].toStdString());
    if (!kind)
        return reportFailure(QStringLiteral("get: the server doesn't have a resource type \"%1\"")
                                 .arg(positional[0]));
    const bool allNamespaces = kind->namespaced && parser.isSet(QStringLiteral("all-namespaces"));
    const std::string ns = kind->namespaced && !allNamespaces
        ? parser.value(QStringLiteral("namespace")).toStdString()
        : std::string();
    Result<std::vector<model::Object>> objects = loadObjects(cache, cluster, *kind, ns);
    if (!objects)
        return reportFailure(objects.error());

    const std::string resource
        = std::string(kind->plural) + (kind->group.empty() ? "" : "." + std::string(kind->group));
    if (positional.size() == 2) {
        const std::string name = positional[1].toStdString();
        std::erase_if(*objects, [&](const model::Object &o) { return o.meta.name != name; });
        if (objects->empty())
            return reportFailure(
                QStringLiteral("%1 \"%2\" not found").arg(qs(resource), positional[1]));
    }

    if (isStructured(format)) {
        nlohmann::json document;
        if (positional.size() == 2) {
            document = withTypeMeta(objects->front());
        } else {
            document = { { "apiVersion", "v1" }, { "kind", "List" },
                { "metadata", { { "resourceVersion", "" } } },
                { "items", nlohmann::json::array() } };
            for (const model::Object &object : *objects)
                document["items"].push_back(withTypeMeta(object));
        }
        format == QLatin1String("json") ? printJson(document) : printYaml(document);
        return Ok;
    }

    const bool wide = format == QLatin1String("wide");
    const auto &columns = inventory::tableColumns(kind->kind);
    std::vector<std::string> headers;
    if (allNamespaces)
        headers.push_back("Namespace");
    for (const auto &column : columns)
        if (wide || column.priority == 0)
            headers.push_back(column.name);
    const int64_t now = inventory::nowSeconds();
    std::vector<std::vector<std::string>> rows;
    for (const model::Object &object : *objects) {
        const std::vector<std::string> cells = inventory::tableRow(object, now);
        std::vector<std::string> row;
        if (allNamespaces)
            row.push_back(object.meta.ns);
        for (size_t i = 0; i < columns.size() && i < cells.size(); ++i)
            if (wide || columns[i].priority == 0)
                row.push_back(cells[i]);
        rows.push_back(std::move(row));
    }
    const QString empty = kind->namespaced && !allNamespaces
        ? QStringLiteral("No resources found in %1 namespace.").arg(qs(ns))
        : QStringLiteral("No resources found");
    printTable(headers, rows, empty);
    return Ok;
}

namespace {
const CommandRegistration getRegistration(
    { "get", "Show objects or devices from the cache", runGet, 20 });
} // namespace

} // namespace dra::cli
