// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <QMetaType>

#include "core/common/result.h"
#include "core/inventory/snapshot.h"
#include "core/store/cache_db.h"
#include "core/model/object_record.h"

namespace dra::inventory {

// Everything a snapshot of one cluster is built from: the cache's rows, ResourceSlices with
// their device rows filled in.
struct SnapshotSource
{
    std::string cluster;
    int64_t rev = 0;
    std::string kubernetesVersion; // as the cluster reports it ("v1.34.2"), empty when unknown
    std::vector<model::ObjectRecord> objects;
};

// What one applied batch changed, with the snapshot it produced. A plain value that crosses
// threads by queued signal; views update their rows from it instead of resetting.
struct ChangeSet
{
    SnapshotPtr snapshot;
    std::vector<common::ObjectKey> objects; // every object the batch added, modified or deleted
    std::vector<DeviceKey> devicesAdded, devicesRemoved, devicesChanged;
    bool allocationsChanged = false; // holds() or counterUsage() may differ
    bool empty() const { return objects.empty(); }
};

// Builds a snapshot from scratch. Objects that do not decode are skipped and listed in
// problems(). Any thread.
SnapshotPtr buildSnapshot(SnapshotSource source);

// Reads one cluster from the cache in one read transaction and builds its snapshot, with the
// Kubernetes version the cache recorded for it. The costly part of a large cache, the
// ResourceSlices, is read from device rows, not re-parsed.
// Thread of `cache`.
[[nodiscard]] Result<SnapshotPtr> loadSnapshot(store::CacheDb &cache, const std::string &cluster);

// The snapshot after `batch`: parts the batch does not touch are shared with `base`, and a
// batch of another cluster returns `base` itself. A batch that records the cluster's version
// (CommittedBatch::serverVersion) changes kubernetesVersion(), even without object changes.
// `changes` (optional) receives what changed. Equal in content to a full rebuild at the same
// revision. Any thread.
SnapshotPtr applyBatch(
    const SnapshotPtr &base, const model::CommittedBatch &batch, ChangeSet *changes = nullptr);

// An empty snapshot of `cluster`, for a cache that holds nothing yet.
SnapshotPtr emptySnapshot(const std::string &cluster);

} // namespace dra::inventory

Q_DECLARE_METATYPE(dra::inventory::ChangeSet)
