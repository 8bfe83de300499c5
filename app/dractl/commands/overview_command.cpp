// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl overview: the cluster in a few lines, as the consoles' overview shows it (GPUs, MIG
// partitions by profile, NICs, device-plugin-only nodes, pending claims, lint, streams).
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/output.h"
#include "core/inventory/overview.h"
#include "core/server/console_api_inventory.h"
#include "core/server/console_api_json.h"

namespace dra::cli {

namespace {

std::string overviewText(
    const inventory::ClusterOverview &overview, const nlohmann::json &unhealthyStreams)
{
    const auto n = [](auto value) { return std::to_string(value); };
    const inventory::CategoryCapacity &totals = overview.totals;
    std::string text = "GPUs: " + n(totals.gpus.wholeTotal) + " total, " + n(totals.gpus.wholeFree)
        + " free, " + n(totals.gpus.allocated) + " allocated\n";
    if (!totals.profiles.empty()) {
        text += "MIG partitions free:";
        for (const inventory::ProfileCapacity &profile : totals.profiles)
            text += " " + profile.profile + " " + n(profile.free);
        text += "\n";
    }
    text += "NICs: " + n(totals.nics.devices) + " (" + n(totals.nics.free)
        + " free); other devices: " + n(totals.other.devices) + "\n";
    if (overview.devicePluginOnlyNodes > 0)
        text += "Device-plugin-only nodes: " + n(overview.devicePluginOnlyNodes) + " ("
            + n(overview.devicePluginGpus) + " GPUs)\n";
    text += "Claims: " + n(overview.claims) + ", " + n(overview.pendingClaims) + " pending\n";
    text += "Lint: " + n(overview.lintErrors) + " error(s), " + n(overview.lintWarnings)
        + " warning(s), " + n(overview.lintInfo) + " info\n";
    text += "Streams not current: " + n(unhealthyStreams.size()) + "\n";
    for (const nlohmann::json &stream : unhealthyStreams)
        text += "    " + stream.value("kind", std::string()) + " "
            + stream.value("namespace", std::string()) + ": " + stream.value("state", std::string())
            + " " + stream.value("reason", std::string()) + "\n";
    return text;
}

int runOverview(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Summarize the cached cluster as the consoles' overview does: GPUs total, free "
                "and allocated (NICs and other devices apart), MIG partitions free by profile, "
                "device-plugin-only nodes, pending claims, lint findings and streams that are not "
                "current. -o json prints /console/v1/overview (per node too)."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(
            format, { QStringLiteral("text"), QStringLiteral("json") }, QStringLiteral("overview")))
        return Failed;
    Result<server::console::ConsoleState> state = loadCachedConsoleState(parser);
    if (!state)
        return reportFailure(state.error());
    const nlohmann::json document = server::console::overviewDocument(*state);
    if (format == QLatin1String("json")) {
        printJson(document);
        return Ok;
    }
    out(overviewText(inventory::clusterOverview(*state->snapshot), document["streams"]));
    return Ok;
}

const CommandRegistration overviewRegistration({ "overview",
    "Summarize GPUs, MIG partitions, pending claims, lint and streams", runOverview, 54 });

} // namespace

} // namespace dra::cli
