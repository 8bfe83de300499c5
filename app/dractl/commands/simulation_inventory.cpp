// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/commands/simulation_inventory.h"

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "core/common/json_text.h"
#include "core/model/manifest_reader.h"

namespace dra::cli {

namespace {

using common::Error;

// The kinds the allocator and the Pending diagnosis read.
constexpr model::Kind kKinds[] = { model::Kind::Node, model::Kind::DeviceClass,
    model::Kind::ResourceSlice, model::Kind::ResourceClaim, model::Kind::ResourceClaimTemplate,
    model::Kind::DeviceTaintRule, model::Kind::Pod, model::Kind::Event };

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

QCommandLineOption featureGatesOption()
{
    return { QStringLiteral("feature-gates"),
        QStringLiteral(
            "DRA feature gates as kube-scheduler takes them (DRAPrioritizedList=true,...); the "
            "defaults are those of the cluster's Kubernetes version, or of the newest release."),
        QStringLiteral("gates") };
}

void addSimulationInventoryOptions(QCommandLineParser &parser)
{
    parser.addOption(featureGatesOption());
    parser.addOption(inventoryOption());
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
}

Result<SimulationInventory> loadSimulationInventory(const QCommandLineParser &parser)
{
    std::vector<model::Object> objects;
    std::string version;
    if (parser.isSet(QStringLiteral("inventory"))) {
        Result<std::vector<model::Object>> loaded
            = fromFile(parser.value(QStringLiteral("inventory")));
        if (!loaded)
            return dra::fail(loaded.error());
        objects = std::move(*loaded);
    } else {
        Result<ClusterCache> cache = openClusterCache(parser);
        if (!cache)
            return dra::fail(cache.error());
        for (const model::Kind kind : kKinds) {
            Result<std::vector<model::Object>> loaded
                = loadObjects(cache->cache, cache->cluster, model::kindInfo(kind));
            if (!loaded)
                return dra::fail(loaded.error());
            for (model::Object &object : *loaded)
                objects.push_back(std::move(object));
        }
        if (Result<std::vector<store::ClusterInfo>> clusters = cache->cache.clusters())
            for (const store::ClusterInfo &info : *clusters)
                if (info.name == cache->cluster)
                    version = info.version;
    }
    Result<alloc::Cluster> cluster = alloc::Cluster::build(std::move(objects));
    if (!cluster)
        return dra::fail(cluster.error());
    cluster->setKubernetesVersion(version);

    SimulationInventory out;
    const std::optional<int> minor = release::minorVersionOf(version);
    out.minor = minor.value_or(release::newestReleaseMinor());
    out.versionFrom = minor ? "Kubernetes " + version
                            : "the newest release, Kubernetes 1." + std::to_string(out.minor);
    out.gates = release::FeatureGates::forMinorVersion(out.minor);
    if (parser.isSet(QStringLiteral("feature-gates")))
        if (Result<void> applied = out.gates.apply(
                parser.value(QStringLiteral("feature-gates")).toStdString(), out.minor);
            !applied)
            return dra::fail(applied.error());
    out.cluster = std::make_shared<const alloc::Cluster>(std::move(*cluster));
    return out;
}

} // namespace dra::cli
