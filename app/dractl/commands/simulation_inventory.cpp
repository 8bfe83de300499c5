// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/commands/simulation_inventory.h"

#include "app/dractl/cli.h"
#include "app/dractl/commands/cel_inventory.h"
#include "app/dractl/commands/release_options.h"
#include "core/common/json_text.h"
#include "core/model/manifest_reader.h"

namespace dra::cli {

namespace {

using common::Error;

Result<std::vector<model::Object>> fromFile(const QString &path)
{
    const model::ManifestSet manifests = model::readManifests({ path });
    for (const model::ManifestProblem &problem : manifests.problems)
        err(QStringLiteral("dractl: %1\n").arg(problem.message()));
    if (manifests.documents.empty())
        return dra::fail(
            Error::Code::Invalid, QStringLiteral("%1: no objects to simulate against").arg(path));
    std::vector<model::Object> objects;
    for (const model::ManifestDocument &document : manifests.documents) {
        Result<model::Object> object = model::decodeObject(document.object);
        if (!object) {
            // Kinds the console does not model (Deployments, ConfigMaps, ...) do not matter here.
            const std::string kind = document.object.value("kind", "");
            if (model::kindOf(document.object.value("apiVersion", ""), kind))
                err(QStringLiteral("dractl: %1: %2\n")
                        .arg(document.origin, object.error().message));
            continue;
        }
        objects.push_back(std::move(*object));
    }
    return objects;
}

} // namespace

QCommandLineOption inventoryOption()
{
    return { QStringLiteral("inventory"),
        QStringLiteral(
            "Simulate against this file (a List or multi-document YAML with DeviceClasses, "
            "ResourceSlices, Nodes and allocated ResourceClaims) instead of the cache."),
        QStringLiteral("file") };
}

void addSimulationInventoryOptions(QCommandLineParser &parser)
{
    addReleaseOptions(parser);
    parser.addOption(inventoryOption());
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
}

Result<inventory::SnapshotPtr> loadSimulationSnapshot(const QCommandLineParser &parser)
{
    return loadSnapshotOf(parser, fromFile);
}

Result<alloc::SimulationCluster> loadSimulationInventory(const QCommandLineParser &parser)
{
    Result<inventory::SnapshotPtr> snapshot = loadSimulationSnapshot(parser);
    if (!snapshot)
        return dra::fail(snapshot.error());
    return alloc::simulationCluster(**snapshot, releaseChoiceOf(parser));
}

} // namespace dra::cli
