// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/commands/cel_inventory.h"

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "core/inventory/slice_reader.h"
#include "core/inventory/snapshot_builder.h"
#include "core/model/manifest_reader.h"
#include "core/model/record_codec.h"

namespace dra::cli {

namespace {

// The decoded objects of a manifest file; documents of kinds the console does not model are
// skipped, the rest must decode.
Result<std::vector<model::Object>> readObjects(const QString &path)
{
    const model::ManifestSet manifests = model::readManifests({ path });
    for (const model::ManifestProblem &problem : manifests.problems)
        err(QStringLiteral("dractl: %1\n").arg(problem.message()));
    if (manifests.documents.empty())
        return dra::fail(common::Error::Code::Invalid, QStringLiteral("%1: no objects").arg(path));
    std::vector<model::Object> objects;
    for (const model::ManifestDocument &document : manifests.documents) {
        Result<model::Object> object = model::decodeObject(document.object);
        if (!object) {
            if (model::kindOf(
                    document.object.value("apiVersion", ""), document.object.value("kind", "")))
                return dra::fail(object.error().withContext(document.origin));
            continue;
        }
        objects.push_back(std::move(*object));
    }
    return objects;
}

} // namespace

QCommandLineOption celInventoryOption()
{
    return { QStringLiteral("inventory"),
        QStringLiteral("Evaluate on the ResourceSlices of this file (a List or multi-document "
                       "YAML) instead of the cache."),
        QStringLiteral("file") };
}

Result<inventory::SnapshotPtr> loadSnapshotOf(const QCommandLineParser &parser, ObjectsReader read)
{
    if (!parser.isSet(QStringLiteral("inventory"))) {
        Result<ClusterCache> cache = openClusterCache(parser);
        if (!cache)
            return dra::fail(cache.error());
        return inventory::loadSnapshot(cache->cache, cache->cluster);
    }
    Result<std::vector<model::Object>> objects = read(parser.value(QStringLiteral("inventory")));
    if (!objects)
        return dra::fail(objects.error());
    inventory::SnapshotSource source;
    source.cluster = "file";
    for (const model::Object &object : *objects)
        source.objects.push_back(model::toRecord(object));
    return inventory::buildSnapshot(std::move(source));
}

Result<inventory::SnapshotPtr> loadCelSnapshot(const QCommandLineParser &parser)
{
    return loadSnapshotOf(parser, readObjects);
}

Result<std::vector<inventory::Device>> loadDevicesInFileOrder(const QString &path)
{
    Result<std::vector<model::Object>> objects = readObjects(path);
    if (!objects)
        return dra::fail(objects.error());
    std::vector<inventory::Device> devices;
    for (const model::Object &object : *objects) {
        if (object.kind != model::Kind::ResourceSlice)
            continue;
        Result<inventory::detail::SlicePtr> slice
            = inventory::detail::sliceFromObject(object, {}, 0);
        if (!slice)
            return dra::fail(slice.error());
        for (const inventory::Device &device : (*slice)->devices)
            devices.push_back(device);
    }
    return devices;
}

} // namespace dra::cli
