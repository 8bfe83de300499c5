// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl free: what can still be allocated, per pool, node, DeviceClass or GPU model.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/output.h"
#include "core/common/json_text.h"
#include "core/inventory/free_capacity.h"
#include "core/inventory/snapshot_builder.h"
#include "core/server/console_api_json.h"

namespace dra::cli {

namespace {

// "1g.10gb:7 3g.40gb:2": how many of each partition profile fit at once.
std::string fitText(const inventory::FreeCapacity &capacity)
{
    std::string text;
    for (const inventory::ProfileCapacity &profile : capacity.profiles) {
        text += text.empty() ? "" : " ";
        text += profile.profile + ":" + std::to_string(profile.fit);
    }
    return text.empty() ? "-" : text;
}

std::vector<std::string> row(const inventory::FreeCapacity &capacity)
{
    return { capacity.group,
        std::to_string(capacity.wholeFree) + "/" + std::to_string(capacity.wholeTotal),
        std::to_string(capacity.devices), std::to_string(capacity.allocated),
        std::to_string(capacity.blocked), std::to_string(capacity.tainted), fitText(capacity) };
}

int runFree(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addOption({ QStringLiteral("by"),
        QStringLiteral("Group by pool, node, class or model (default pool)."),
        QStringLiteral("grouping"), QStringLiteral("pool") });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Free capacity: whole devices free of total, devices allocated, blocked (their "
                "shared counters are used by allocated siblings) or tainted, and how many MIG "
                "partitions of each profile still fit at once."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(
            format, { QStringLiteral("text"), QStringLiteral("json") }, QStringLiteral("free")))
        return Failed;
    const std::optional<inventory::FreeGrouping> grouping
        = inventory::parseGrouping(parser.value(QStringLiteral("by")).toStdString());
    if (!grouping)
        return reportFailure(
            QStringLiteral("free: unknown grouping '%1' (pool, node, class, model)")
                .arg(parser.value(QStringLiteral("by"))));

    Result<inventory::SnapshotPtr> snapshot = loadCachedSnapshot(parser);
    if (!snapshot)
        return reportFailure(snapshot.error());
    if (format == QLatin1String("json")) {
        // The web console's /console/v1/free answers the same document.
        printJson(server::console::freeDocument(**snapshot, *grouping));
        return Ok;
    }
    const std::vector<inventory::FreeCapacity> groups
        = inventory::freeCapacity(**snapshot, *grouping);
    // Classes overlap, so only the other groupings add up to a total.
    const bool withTotal = *grouping != inventory::FreeGrouping::Class;
    const inventory::FreeCapacity total
        = inventory::freeCapacityOf(**snapshot, "TOTAL", (*snapshot)->devices());

    std::vector<std::vector<std::string>> rows;
    for (const inventory::FreeCapacity &group : groups)
        rows.push_back(row(group));
    if (withTotal && !rows.empty())
        rows.push_back(row(total));
    printTable({ std::string(inventory::groupingName(*grouping)), "whole free", "devices",
                   "allocated", "blocked", "tainted", "partitions that fit" },
        rows, QStringLiteral("No devices found."));
    return Ok;
}

const CommandRegistration freeRegistration(
    { "free", "Show free capacity per pool, node, class or GPU model", runFree, 52 });

} // namespace

} // namespace dra::cli
