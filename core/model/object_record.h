// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <QMetaType>

#include "core/common/object_key.h"

namespace dra::model {

// One device of a ResourceSlice, flattened for indexes and fast reads.
struct DeviceRow
{
    std::string name, driver, pool, node; // node empty for network-attached devices
    std::string attributesJson; // compact JSON {"domain/name": {"int":..}|...}
    std::string capacityJson; // compact JSON {"domain/name": "80Gi"}

    bool operator==(const DeviceRow &) const = default;
};

// One object as the cache stores it: identity, bookkeeping and the raw JSON as received.
struct ObjectRecord
{
    common::ObjectKey key; // group, kind, ns, name (no version: one object across versions)
    std::string apiVersion; // as received, e.g. "resource.k8s.io/v1beta1"
    std::string uid, resourceVersion, creationTimestamp;
    int64_t generation = 0;
    std::string json; // compact raw JSON, lossless
    std::vector<DeviceRow> devices; // only for ResourceSlices
    // The console revision of the change that last wrote this object; filled by the store on
    // reads and in committed batches, ignored on input.
    int64_t rev = 0;
};

enum class ChangeType { Added, Modified, Deleted };

// Deleted: object holds at least the key (+ last state if known).
struct Change
{
    ChangeType type;
    ObjectRecord object;
};

// The state of one mirrored stream, a kind in one namespace ("" for cluster-wide), as the
// mirror last reported it. `state` is one of "listing", "synced", "watching", "stale",
// "forbidden", "error"; `reason` says why for the last three.
struct StreamRecord
{
    std::string group, kind, ns;
    std::string state;
    std::string reason;
    std::string apiVersion; // the version the stream reads, e.g. "resource.k8s.io/v1beta2"
    std::string resourceVersion; // the last one the stream reached (opaque)
    // Filled by the store: since when the stream is in `state`, and when it was last reported
    // (ms since the epoch); ignored on input.
    int64_t since = 0;
    int64_t updatedAt = 0;

    bool operator==(const StreamRecord &) const = default;
};

// A unit of work for the single writer: applied in one transaction, all or nothing.
struct WatchBatch
{
    std::string cluster;
    std::vector<Change> changes;
    // Kinds for which `changes` is the complete current set (a relist/import --replace): objects
    // of these (group, kind) in this cluster that the batch does not mention are deleted, with
    // the deletion logged.
    std::vector<std::pair<std::string, std::string>> replaceKinds;
    // The list resourceVersion reached per (group, kind), opaque strings.
    std::vector<std::tuple<std::string, std::string, std::string>> listVersions;
    // Like replaceKinds, for one namespace only: (group, kind, namespace). A mirror that may read
    // only some namespaces relists each of them on its own.
    std::vector<std::tuple<std::string, std::string, std::string>> replaceNamespaces;
    // Stream states to record with this batch (replacing the previous state of each stream).
    std::vector<StreamRecord> streams;
    // When non-empty, recorded as the cluster's API server URL and Kubernetes version.
    std::string server, serverVersion;
    // When non-empty, recorded as the cluster's identity (its kube-system namespace's UID).
    std::string clusterUid;
    // When > 0, recorded as the longest wait the cluster's server was seen to leave between
    // watch bookmarks.
    int64_t bookmarkGapMs = 0;
    // When non-empty, the cluster name reaches another cluster now, and this is applied before
    // anything else in the batch: the change log so far is kept apart under this name, and the
    // stored objects (each deletion logged), stream states, list versions, identity and bookmark
    // record of the cluster are dropped, so what follows starts the new cluster afresh.
    std::string archiveHistoryAs;
};

// What one applied batch did. Revisions are 0 when the batch changed nothing.
struct BatchSummary
{
    int added = 0;
    int modified = 0;
    int deleted = 0;
    int unchanged = 0; // byte-identical re-sends, and deletions of objects the cache did not hold
    int64_t firstRev = 0;
    int64_t lastRev = 0;

    bool operator==(const BatchSummary &) const = default;
};

// One logged change as the writer committed it; `object.rev` equals `rev`.
struct CommittedChange
{
    ChangeType type;
    int64_t rev = 0;
    ObjectRecord object; // new state; for Deleted the last stored state
};

// The outcome of batches of one cluster after their transaction committed: what readers of the
// cache can now see, in revision order. Unchanged objects are not listed.
struct CommittedBatch
{
    std::string cluster;
    std::vector<CommittedChange> changes;
    BatchSummary summary;
    // The cluster's Kubernetes version when this batch recorded one (WatchBatch::serverVersion),
    // else empty.
    std::string serverVersion;
};

} // namespace dra::model

Q_DECLARE_METATYPE(dra::model::WatchBatch)
Q_DECLARE_METATYPE(dra::model::CommittedBatch)
