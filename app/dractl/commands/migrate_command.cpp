// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl migrate plan: the workloads still on a device plugin, the DRA form proposed for each
// under the cluster's release, and whether it would be allocated on the DRA nodes, or why not.
// With --rollout-plan, the RolloutPlan that moves one of them.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/command_registry.h"
#include "app/dractl/commands/output.h"
#include "app/dractl/commands/release_options.h"
#include "app/dractl/commands/simulation_inventory.h"
#include "core/alloc/migration_plan.h"
#include "core/common/json_text.h"
#include "core/inventory/snapshot_builder.h"
#include "core/model/record_codec.h"
#include "core/rollout/migration_rollout.h"
#include "core/sandbox/demo_cluster.h"
#include "core/sandbox/presets.h"

namespace dra::cli {

namespace {

using common::qs;

// The demo cluster of a preset in its release, as `dractl serve --demo=PRESET` seeds it,
// without a server.
Result<inventory::SnapshotPtr> demoSnapshot(const QString &preset)
{
    const sandbox::PresetOptions options { preset.toStdString() };
    Result<std::string> version = sandbox::presetKubernetesVersion(options);
    if (!version)
        return fail(version.error());
    Result<nlohmann::json> list = sandbox::generateInventory(options);
    if (!list)
        return fail(list.error());
    inventory::SnapshotSource source;
    source.cluster = std::string(sandbox::kDemoCluster);
    source.kubernetesVersion = *version;
    for (const nlohmann::json &item : (*list)["items"]) {
        Result<model::Object> object = model::decodeObject(item);
        if (!object)
            return fail(object.error());
        source.objects.push_back(model::toRecord(*object));
        source.objects.back().rev = int64_t(source.objects.size());
    }
    source.rev = int64_t(source.objects.size());
    return inventory::buildSnapshot(std::move(source));
}

int runMigratePlan(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({ QStringLiteral("namespace"),
        QStringLiteral("Only the workloads of this namespace."), QStringLiteral("ns") });
    parser.addOption({ QStringLiteral("demo"),
        QStringLiteral("Plan for the demo cluster of PRESET (`dractl serve --help` lists them; "
                       "mixed has device-plugin nodes and workloads) instead of the cache."),
        QStringLiteral("preset") });
    parser.addOption({ QStringLiteral("rollout-plan"),
        QStringLiteral("Write the RolloutPlan that moves this workload (NAME, NS/NAME or "
                       "KIND/NAME, a Deployment) to its ResourceClaimTemplate form, for "
                       "`dractl rollout plan|start`."),
        QStringLiteral("workload") });
    parser.addOption({ QStringLiteral("plan-name"),
        QStringLiteral("metadata.name of the RolloutPlan (default: <workload>-to-dra)."),
        QStringLiteral("name") });
    addSimulationInventoryOptions(parser);
    parser.addOption(outputOption(QStringLiteral("text")));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Find the workloads (Deployments, StatefulSets, Jobs, DaemonSets, bare pods) that "
                "ask a device plugin for extended resources (nvidia.com/gpu, "
                "nvidia.com/mig-<profile>, ...), propose the DRA form of each under the "
                "cluster's release (a DeviceClass with extendedResourceName where the release "
                "serves DRA-backed extended resources, else a ResourceClaimTemplate and the pod "
                "template change), and simulate it on the DRA nodes: where it would run, or why "
                "not. Reads the cache (--cache/--cluster), an inventory file (--inventory) or a "
                "demo preset (--demo). Exit status 1 when a proposal does not fit."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(format,
            { QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("yaml") },
            QStringLiteral("migrate plan")))
        return Usage;

    Result<inventory::SnapshotPtr> snapshot = parser.isSet(QStringLiteral("demo"))
        ? demoSnapshot(parser.value(QStringLiteral("demo")))
        : loadSimulationSnapshot(parser);
    if (!snapshot)
        return reportFailure(snapshot.error());
    Result<alloc::SimulationCluster> cluster
        = alloc::simulationCluster(**snapshot, releaseChoiceOf(parser));
    if (!cluster)
        return reportFailure(cluster.error());
    Result<alloc::MigrationPlan> plan = alloc::planMigration(
        **snapshot, *cluster, parser.value(QStringLiteral("namespace")).toStdString());
    if (!plan)
        return reportFailure(plan.error());

    if (parser.isSet(QStringLiteral("rollout-plan"))) {
        const std::string name = parser.value(QStringLiteral("rollout-plan")).toStdString();
        const alloc::WorkloadMigration *migration = alloc::findWorkload(*plan, name);
        if (!migration)
            return reportFailure(
                QStringLiteral("no workload %1 asks for extended resources; `dractl migrate plan` "
                               "lists those that do")
                    .arg(qs(name)));
        const QString planName = parser.isSet(QStringLiteral("plan-name"))
            ? parser.value(QStringLiteral("plan-name"))
            : qs(migration->workload.name + "-to-dra");
        Result<nlohmann::json> rollout
            = rollout::migrationRolloutPlan(**snapshot, *migration, planName.toStdString());
        if (!rollout)
            return reportFailure(rollout.error());
        format == QLatin1String("json") ? printJson(*rollout) : printYaml(*rollout);
        return Ok;
    }

    const nlohmann::json document = alloc::toJson(*plan);
    if (format == QLatin1String("json"))
        printJson(document);
    else if (format == QLatin1String("yaml"))
        printYaml(document);
    else
        out(alloc::toText(*plan));
    for (const alloc::WorkloadMigration &w : plan->workloads)
        if (!w.verdict.fits)
            return Failed;
    return Ok;
}

const CommandRegistration migrateRegistration({ .path = "migrate",
    .summary = "Plan the move of device-plugin workloads to DRA",
    .order = 57 });

const CommandRegistration migratePlanRegistration({ .path = "migrate plan",
    .summary = "workloads on extended resources, their DRA form, and whether it fits",
    .run = runMigratePlan,
    .order = 10,
    .synopsis = "[--namespace NS] [--rollout-plan WORKLOAD]" });

} // namespace

} // namespace dra::cli
