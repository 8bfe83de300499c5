// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/commands/cache_access.h"

#include <QFileInfo>

#include "app/dractl/cli.h"
#include "core/common/json_text.h"
#include "core/inventory/snapshot_builder.h"
#include "core/model/record_codec.h"

namespace dra::cli {

using common::Error;
using common::qs;

Result<store::CacheDb> openCacheForReading(const QCommandLineParser &parser)
{
    const QString path = cachePath(parser);
    if (!QFileInfo::exists(path))
        return dra::fail(Error::Code::NotFound,
            QStringLiteral("%1: no cache yet; fill it with `dractl import FILE...`").arg(path));
    return store::CacheDb::open(path, store::OpenMode::ReadOnly);
}

Result<std::string> chooseCluster(store::CacheDb &cache, const QCommandLineParser &parser)
{
    if (parser.isSet(QStringLiteral("cluster")))
        return parser.value(QStringLiteral("cluster")).toStdString();
    Result<std::vector<store::ClusterInfo>> clusters = cache.clusters();
    if (!clusters)
        return dra::fail(clusters.error());
    if (clusters->size() == 1)
        return clusters->front().name;
    if (clusters->empty())
        return dra::fail(Error::Code::NotFound,
            QStringLiteral("%1 holds no cluster yet; fill it with `dractl import FILE...`")
                .arg(cache.path()));
    QStringList names;
    for (const store::ClusterInfo &cluster : *clusters)
        names << qs(cluster.name);
    return dra::fail(Error::Code::Invalid,
        QStringLiteral("%1 holds several clusters (%2): choose one with --cluster")
            .arg(cache.path(), names.join(QStringLiteral(", "))));
}

Result<ClusterCache> openClusterCache(const QCommandLineParser &parser)
{
    Result<store::CacheDb> cache = openCacheForReading(parser);
    if (!cache)
        return dra::fail(cache.error());
    Result<std::string> cluster = chooseCluster(*cache, parser);
    if (!cluster)
        return dra::fail(cluster.error());
    return ClusterCache { std::move(*cache), std::move(*cluster) };
}

Result<std::vector<model::Object>> loadObjects(store::CacheDb &cache, const std::string &cluster,
    const model::KindInfo &kind, const std::string &ns)
{
    Result<std::vector<model::ObjectRecord>> records = cache.objects(cluster, kind.group, kind.name,
        ns.empty() ? std::nullopt : std::optional<std::string_view>(ns));
    if (!records)
        return dra::fail(records.error());
    std::vector<model::Object> objects;
    objects.reserve(records->size());
    for (const model::ObjectRecord &record : *records) {
        Result<model::Object> object = model::fromRecord(record);
        if (!object) {
            err(QStringLiteral("dractl: skipping a cached object: %1\n")
                    .arg(object.error().message));
            continue;
        }
        objects.push_back(std::move(*object));
    }
    return objects;
}

Result<server::console::ConsoleState> loadCachedConsoleState(const QCommandLineParser &parser)
{
    Result<ClusterCache> opened = openClusterCache(parser);
    if (!opened)
        return dra::fail(opened.error());
    return server::console::loadConsoleState(opened->cache, opened->cluster, false);
}

Result<inventory::SnapshotPtr> loadCachedSnapshot(const QCommandLineParser &parser)
{
    Result<ClusterCache> opened = openClusterCache(parser);
    if (!opened)
        return dra::fail(opened.error());
    return inventory::loadSnapshot(opened->cache, opened->cluster);
}

} // namespace dra::cli
