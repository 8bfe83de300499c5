// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl pools: one driver's resource pools with their device totals, counted from the cache
// as Kubernetes counts them, beside the cluster's own answer to a ResourcePoolStatusRequest
// (created for the question and deleted afterwards) when a cluster is named.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/kube_options.h"
#include "app/dractl/commands/output.h"
#include "core/inventory/pool_status.h"
#include "core/kube/pool_status_request.h"

namespace dra::cli {

namespace {

constexpr int kAnswerTimeoutMs = 20'000;

// The cluster's answer, or why there is none.
Result<inventory::PoolCount> askPoolStatus(
    const QCommandLineParser &parser, const inventory::PoolQuery &query)
{
    Result<nlohmann::json> status = askCluster<nlohmann::json>(
        parser, [&](kube::RestClient &client, QObject *context, auto done) {
            kube::requestPoolStatus(client, inventory::poolStatusRequest(query), kAnswerTimeoutMs,
                context, std::move(done));
        });
    if (!status)
        return dra::fail(status.error());
    return inventory::poolCountFromStatus(*status);
}

void printComparison(const inventory::PoolComparison &c)
{
    std::vector<std::vector<std::string>> rows;
    for (const inventory::PoolComparisonRow &row : c.rows)
        rows.push_back(inventory::poolComparisonCells(c, row));
    printTable(inventory::poolComparisonHeaders(c), rows,
        QStringLiteral("No pool of driver %1.").arg(qs(c.query.driver)));
    out(qs(inventory::poolComparisonSummary(c)) + QLatin1Char('\n'));
}

int runPools(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addOption({ QStringLiteral("driver"), QStringLiteral("The DRA driver (required)."),
        QStringLiteral("name") });
    parser.addOption(
        { QStringLiteral("pool"), QStringLiteral("Only this pool."), QStringLiteral("name") });
    parser.addOption({ QStringLiteral("limit"),
        QStringLiteral("At most this many pools, 1 to 1000 (default 100)."), QStringLiteral("n"),
        QStringLiteral("100") });
    addAskClusterOptions(parser);
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "A driver's resource pools with their devices: total, allocated (held by a claim "
                "other than for admin access; a shareable device once), unavailable (tainted "
                "NoSchedule or NoExecute) and available, counted from the cache as Kubernetes' "
                "resource pool status controller counts them; a pool missing slices is "
                "reported incomplete. With --context or --kubeconfig the cluster is asked too: "
                "a ResourcePoolStatusRequest (resource.k8s.io/v1alpha3, Kubernetes 1.36) is "
                "created with your credentials, read once answered and deleted, and each "
                "pool's totals are set beside ours with the differences named. Without a "
                "cluster that serves it, or the right to create one, ours are shown alone "
                "and the reason is said."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(
            format, { QStringLiteral("text"), QStringLiteral("json") }, QStringLiteral("pools")))
        return Failed;
    bool limitOk = false;
    inventory::PoolQuery query { parser.value(QStringLiteral("driver")).toStdString(),
        parser.value(QStringLiteral("pool")).toStdString(),
        parser.value(QStringLiteral("limit")).toInt(&limitOk) };
    if (!limitOk)
        query.limit = 0;
    if (const std::vector<std::string> errors = inventory::poolQueryErrors(query); !errors.empty())
        return err(QStringLiteral("dractl pools: %1\n").arg(qs(errors.front()))), Usage;

    Result<inventory::SnapshotPtr> snapshot = loadCachedSnapshot(parser);
    if (!snapshot)
        return reportFailure(snapshot.error());
    const inventory::PoolCount ours
        = inventory::countPools(**snapshot, query, inventory::TaintCounting::Counted);
    std::optional<inventory::PoolCount> cluster;
    std::string why = "name a cluster with --context or --kubeconfig to compare with its own "
                      "answer";
    if (namesCluster(parser)) {
        Result<inventory::PoolCount> asked = askPoolStatus(parser, query);
        if (asked)
            cluster = std::move(*asked);
        else
            why = "the cluster gave no answer: " + asked.error().message.toStdString();
    }
    const inventory::PoolComparison comparison = inventory::comparePools(query, ours, cluster, why);
    if (format == QLatin1String("json"))
        printJson(inventory::poolComparisonJson(comparison));
    else
        printComparison(comparison);
    return Ok;
}

const CommandRegistration poolsRegistration({ .path = "pools",
    .summary = "Show a driver's pools with their device totals, and the cluster's own",
    .run = runPools,
    .order = 54 });

} // namespace

} // namespace dra::cli
