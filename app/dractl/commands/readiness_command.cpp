// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl readiness: is the cached cluster ready for DRA, check by check, and what to do next.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/output.h"
#include "core/inventory/readiness.h"
#include "core/server/console_api_inventory.h"

namespace dra::cli {

namespace {

int runReadiness(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Check whether the cached cluster is ready for DRA, in the order to fix things: "
                "its release and the DRA features it offers and uses, the resource.k8s.io API "
                "it serves, kubelet skew, drivers per node and incomplete pools, nodes where the "
                "device plugin and DRA offer the same GPUs, DeviceClasses, admin access "
                "namespaces, claims. Each check says why and what to do next.\n"
                "-o html writes the report as one page to keep or send. "
                "Exit status 1 when a check is not ready."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(format,
            { QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("html") },
            QStringLiteral("readiness")))
        return Usage;

    // The snapshot and the states of the mirrored streams, as the web console's page reads them.
    Result<server::console::ConsoleState> state = loadCachedConsoleState(parser);
    if (!state)
        return reportFailure(state.error());
    const inventory::Readiness report = inventory::readiness(*state->snapshot, state->streams);
    if (format == QLatin1String("json"))
        printJson(inventory::toJson(report));
    else if (format == QLatin1String("html"))
        out(inventory::toHtml(report));
    else
        out(inventory::toText(report));
    return report.overall() == inventory::Verdict::NotReady ? Failed : Ok;
}

const CommandRegistration readinessRegistration({ .path = "readiness",
    .summary = "Check whether the cluster is ready for DRA, and what to do next",
    .run = runReadiness,
    .order = 56 });

} // namespace

} // namespace dra::cli
