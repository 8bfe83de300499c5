// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl quota: per namespace, how many devices of each DeviceClass its ResourceQuotas allow
// and how many its claims are charged, counted as Kubernetes' quota evaluator counts them.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/output.h"
#include "core/inventory/device_quota.h"
#include "core/inventory/snapshot_builder.h"

namespace dra::cli {

namespace {

int runQuota(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addOption({ { QStringLiteral("n"), QStringLiteral("namespace") },
        QStringLiteral("Only this namespace's quotas."), QStringLiteral("ns") });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Device quotas: per namespace and ResourceQuota, each limit DRA claims are "
                "charged against (<class>.deviceclass.resource.k8s.io/devices, "
                "requests.<extended resource> of a class that has one, "
                "count/resourceclaims.resource.k8s.io), its hard limit, what the namespace's "
                "claims are charged now (ExactCount: the count; All: 32, the most one request "
                "can get; firstAvailable: per class the most any subrequest takes; admin "
                "access counts the same) and what the cluster's quota controller reported. A "
                "hard limit of 0 keeps a class out of the namespace."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(
            format, { QStringLiteral("text"), QStringLiteral("json") }, QStringLiteral("quota")))
        return Failed;
    Result<inventory::SnapshotPtr> snapshot = loadCachedSnapshot(parser);
    if (!snapshot)
        return reportFailure(snapshot.error());
    const std::vector<inventory::DeviceQuota> quotas = inventory::deviceQuotas(
        **snapshot, parser.value(QStringLiteral("namespace")).toStdString());
    if (format == QLatin1String("json")) {
        // The web console's /console/v1/quota answers the same document.
        printJson(inventory::quotasJson(**snapshot, quotas));
        return Ok;
    }
    std::vector<std::vector<std::string>> rows;
    for (const inventory::DeviceQuota &quota : quotas)
        for (const inventory::QuotaLine &line : quota.lines)
            rows.push_back({ quota.ns, quota.name, line.resource,
                std::to_string(line.used) + "/" + std::to_string(line.hard),
                line.reported ? std::to_string(*line.reported) : std::string("-"),
                line.hard == 0 && !line.className.empty() ? "class blocked"
                    : line.used > line.hard               ? "over"
                                                          : "" });
    printTable({ "namespace", "quota", "resource", "used/hard", "reported", "note" }, rows,
        QStringLiteral("No ResourceQuota limits DRA claims."));
    return Ok;
}

const CommandRegistration quotaRegistration(
    { "quota", "Show device quotas per namespace and DeviceClass", runQuota, 53 });

} // namespace

} // namespace dra::cli
