// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <QCommandLineParser>

#include "core/common/result.h"
#include "core/inventory/snapshot.h"
#include "core/model/object.h"
#include "core/server/console_api_inventory.h"
#include "core/store/cache_db.h"

namespace dra::cli {

// The cache named by --cache (or the default), opened for reading. A missing file is an
// error that says how to fill it, not an empty cache.
[[nodiscard]] Result<store::CacheDb> openCacheForReading(const QCommandLineParser &parser);

// The cluster to read: --cluster, else the only cluster the cache holds. Several clusters and
// no --cluster is an error listing them.
[[nodiscard]] Result<std::string> chooseCluster(
    store::CacheDb &cache, const QCommandLineParser &parser);

// A cache opened for reading together with the cluster to read from it.
struct ClusterCache
{
    store::CacheDb cache;
    std::string cluster;
};

// openCacheForReading() then chooseCluster(): what every read-only command starts with.
[[nodiscard]] Result<ClusterCache> openClusterCache(const QCommandLineParser &parser);

// openClusterCache() then the cluster's snapshot: what the commands that read the inventory
// (lint, free, quota) start with.
[[nodiscard]] Result<inventory::SnapshotPtr> loadCachedSnapshot(const QCommandLineParser &parser);

// What the web console answers from, read from the cache openClusterCache() opens: the
// cluster's snapshot and the states of its mirrored streams. The commands that print a console
// page's document (console-api, overview, readiness) start here, as the server does.
[[nodiscard]] Result<server::console::ConsoleState> loadCachedConsoleState(
    const QCommandLineParser &parser);

// Decoded objects of one kind (all namespaces when `ns` is empty). A stored row that no longer
// decodes is reported on stderr and skipped.
[[nodiscard]] Result<std::vector<model::Object>> loadObjects(store::CacheDb &cache,
    const std::string &cluster, const model::KindInfo &kind, const std::string &ns = {});

} // namespace dra::cli
