// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/console_api_migration.h"

#include "core/alloc/migration_plan.h"

namespace dra::server::console {

Answer migrationAnswer(
    const ConsoleState &state, const QueryParams &query, alloc::SimulationClusterCache &clusters)
{
    Result<release::ChosenRelease> chosen = release::chooseRelease(state.kubernetesVersion,
        { query.value("kubernetesVersion").value_or(""),
            query.value("featureGates").value_or("") });
    if (!chosen)
        return errorAnswer(400, chosen.error().message.toStdString());
    Result<alloc::SimulationCluster> cluster = clusters.of(state.snapshot, *chosen);
    if (!cluster)
        return errorAnswer(500, cluster.error().message.toStdString());
    Result<alloc::MigrationPlan> plan
        = alloc::planMigration(*state.snapshot, *cluster, query.value("namespace").value_or(""));
    if (!plan)
        return errorAnswer(500, plan.error().message.toStdString());
    return { 200, alloc::toJson(*plan) };
}

} // namespace dra::server::console
