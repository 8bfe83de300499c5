// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl lint: what in the cached inventory makes allocation fail or wastes devices.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/output.h"
#include "core/common/json_text.h"
#include "core/inventory/lint.h"
#include "core/inventory/snapshot_builder.h"
#include "core/server/console_api_json.h"

namespace dra::cli {

namespace {

using common::qs;

std::string objectList(const std::vector<common::ObjectKey> &objects)
{
    std::string text;
    for (const common::ObjectKey &key : objects) {
        text += text.empty() ? "" : ", ";
        text += key.display();
    }
    return text;
}

int runLint(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Check the cached inventory: incomplete or inconsistent pools, MIG devices "
                "advertised beside their whole GPU, leaked claims, reservations for pods that "
                "are gone, mixed driver versions on a node, slices of missing nodes, DeviceClasses "
                "that match nothing. Each finding names the objects it is about.\n"
                "Exit status 1 when there is an error-level finding."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(
            format, { QStringLiteral("text"), QStringLiteral("json") }, QStringLiteral("lint")))
        return Failed;

    Result<inventory::SnapshotPtr> snapshot = loadCachedSnapshot(parser);
    if (!snapshot)
        return reportFailure(snapshot.error());
    const std::vector<inventory::Finding> findings = inventory::lint(**snapshot);

    int counts[3] = { 0, 0, 0 };
    for (const inventory::Finding &finding : findings)
        ++counts[int(finding.severity)];
    const int errors = counts[int(inventory::Severity::Error)];
    if (format == QLatin1String("json")) {
        // The web console's /console/v1/lint answers the same document.
        printJson(server::console::lintDocument(**snapshot));
        return errors > 0 ? Failed : Ok;
    }
    std::string text;
    for (const inventory::Finding &finding : findings) {
        text += std::string(inventory::severityName(finding.severity)) + ": [" + finding.code + "] "
            + finding.message + "\n";
        if (!finding.objects.empty())
            text += "    " + objectList(finding.objects) + "\n";
    }
    text += std::to_string(findings.size()) + " finding(s): " + std::to_string(errors)
        + " error(s), " + std::to_string(counts[int(inventory::Severity::Warning)])
        + " warning(s), " + std::to_string(counts[int(inventory::Severity::Info)]) + " info\n";
    out(text);
    return errors > 0 ? Failed : Ok;
}

const CommandRegistration lintRegistration(
    { "lint", "Check the inventory for broken pools, leaked claims and more", runLint, 55 });

} // namespace

} // namespace dra::cli
