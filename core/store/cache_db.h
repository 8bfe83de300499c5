// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <QString>

#include "core/common/object_key.h"
#include "core/common/result.h"
#include "core/store/db_file.h"
#include "core/model/object_record.h"
#include "core/store/sqlite.h"

namespace dra::store {

// A cluster the cache mirrors. lastSync: ms since the epoch of its last committed batch, 0 never.
// uid: the cluster's identity (its kube-system namespace's UID), empty when unknown.
// bookmarkGapMs: the longest wait its server was seen to leave between watch bookmarks, 0 when
// it was never seen sending one.
struct ClusterInfo
{
    std::string name, server, version;
    int64_t lastSync = 0;
    std::string uid;
    int64_t bookmarkGapMs = 0;
};

// A device row with the ResourceSlice (cluster-scoped) it belongs to.
struct SliceDevice
{
    std::string slice;
    model::DeviceRow device;
};

// One row of the change log. `json` is the new state, or the last state for a deletion.
struct LoggedChange
{
    int64_t rev = 0;
    std::string cluster;
    common::ObjectKey key;
    model::ChangeType type = model::ChangeType::Added;
    std::string resourceVersion;
    int64_t at = 0; // ms since the epoch
    std::string json;
};

struct KindCount
{
    std::string group, kind;
    int64_t count = 0;
};

// Which change-log rows history() returns; empty fields match everything.
struct HistoryQuery
{
    std::string cluster;
    std::string group, kind; // kind empty: every kind
    std::optional<std::string> ns; // nullopt: every namespace
    std::string name;
    int64_t sinceMs = 0; // only changes at or after this time
    int64_t untilMs = 0; // only changes at or before this time (0: no bound)
    int64_t afterRev = 0; // only changes after this revision
    int limit = 1000;
};

// How much change log to keep: rows older than maxAgeMs go, then the oldest until the log's
// JSON is at most maxBytes. 0 disables a bound.
struct RetentionPolicy
{
    int64_t maxAgeMs = 0;
    int64_t maxBytes = 0;
    bool vacuum = true; // give the freed pages back to the file system (VACUUM)
};

struct RetentionSummary
{
    int64_t deletedChanges = 0;
    int64_t keptChanges = 0;
    int64_t bytesBefore = 0, bytesAfter = 0; // the file's size, before and after
};

// The cache file: the disposable mirror of clusters plus the console's change log. A writer
// (one per file, across processes) applies batches atomically; readers open their own instance
// and each read sees one committed state (a WAL snapshot), never half a batch. An instance
// belongs to one thread at a time; open a separate one per reading thread.
class CacheDb final
{
public:
    CacheDb();
    CacheDb(CacheDb &&other) noexcept;
    CacheDb &operator=(CacheDb &&other) noexcept;
    ~CacheDb();

    // Opens (a writer creates or migrates) the cache. A foreign, newer or damaged file is a
    // clear error naming the file and suggesting `dractl cache rebuild` or --reset; with
    // options.reset a writer starts from an empty file instead.
    [[nodiscard]] static Result<CacheDb> open(
        const QString &path, OpenMode mode, const OpenOptions &options = {});
    // The identity and schema history of cache files.
    static const SchemaSpec &schema();

    // Writer only. Applies the batch in one transaction; nothing of it is stored if it fails.
    // A change whose JSON is byte-identical to the stored object is counted as unchanged and
    // not logged, so importing the same data twice changes nothing.
    [[nodiscard]] Result<model::BatchSummary> apply(const model::WatchBatch &batch);
    // Writer only. Applies several batches in one transaction (coalesced by the writer thread)
    // and returns what each one changed. Objects are moved out of `batches` only once committed;
    // after a failure the batches are intact, for a retry.
    [[nodiscard]] Result<std::vector<model::CommittedBatch>> applyAll(
        std::vector<model::WatchBatch> &&batches);
    // Writer only. Records where a cluster is served from, which Kubernetes version it runs and
    // (when not empty) its identity.
    [[nodiscard]] Result<void> setClusterInfo(const ClusterInfo &info);
    // Writer only. Trims the change log to `policy` (the objects are untouched), then VACUUMs.
    // Revisions stay unique: clients watching from a trimmed revision get 410 Gone and relist.
    [[nodiscard]] Result<RetentionSummary> applyRetention(
        const RetentionPolicy &policy, int64_t nowMs);

    // Writer only, for tests of clients: puts the cache back to revision `rev` as restoring
    // etcd from a backup taken then does: every object changed since goes back to its logged
    // state at `rev` (or goes, if it did not exist then), the later change log is dropped and
    // its revisions are issued again. Needs the whole change log (fails once it was trimmed).
    [[nodiscard]] Result<void> rollBackTo(int64_t rev);

    // Readers. Each call sees one committed state; hold a beginRead() transaction to see the
    // same state across several calls.
    [[nodiscard]] Result<sqlite::Transaction> beginRead();
    // Objects of one kind, all namespaces when `ns` is empty, ordered by namespace and name.
    // `devices` is not filled here; devices() reads them.
    [[nodiscard]] Result<std::vector<model::ObjectRecord>> objects(std::string_view cluster,
        std::string_view group, std::string_view kind,
        std::optional<std::string_view> ns = std::nullopt);
    [[nodiscard]] Result<std::optional<model::ObjectRecord>> object(
        std::string_view cluster, const common::ObjectKey &key);
    // Devices of a cluster, optionally of one node ("" selects network-attached devices).
    [[nodiscard]] Result<std::vector<SliceDevice>> devices(
        std::string_view cluster, std::optional<std::string_view> node = std::nullopt);
    // The ResourceSlices of `cluster` named from `from` up to, not including, `to` (no bound
    // where empty), in name order, each with its device rows, handed to `visit` one at a time in
    // a record reused from one slice to the next: the visitor takes what it keeps and leaves the
    // rest, so the row text is not allocated again for every slice. Nothing is collected, so a
    // loader reads shares of a large cache in parallel, a connection each.
    [[nodiscard]] Result<void> forEachSlice(std::string_view cluster, std::string_view from,
        std::string_view to, const std::function<void(model::ObjectRecord &)> &visit);
    // The names of the cluster-scoped objects of one kind, in order.
    [[nodiscard]] Result<std::vector<std::string>> objectNames(
        std::string_view cluster, std::string_view group, std::string_view kind);
    [[nodiscard]] Result<std::vector<ClusterInfo>> clusters();
    [[nodiscard]] Result<std::optional<std::string>> listVersion(
        std::string_view cluster, std::string_view group, std::string_view kind);
    // Change-log rows with rev > `afterRev`, oldest first, at most `limit`.
    [[nodiscard]] Result<std::vector<LoggedChange>> changesSince(int64_t afterRev, int limit);
    // Change-log rows matching `query`, oldest first.
    [[nodiscard]] Result<std::vector<LoggedChange>> history(const HistoryQuery &query);
    // The last logged change of `key` at or before `atMs` (its state then, or its deletion);
    // nothing when the log holds none that early.
    [[nodiscard]] Result<std::optional<LoggedChange>> changeAt(
        std::string_view cluster, const common::ObjectKey &key, int64_t atMs);
    // The streams a mirror of `cluster` reported, ordered by group, kind and namespace.
    [[nodiscard]] Result<std::vector<model::StreamRecord>> streams(std::string_view cluster);
    // The oldest retained change-log row's time and revision (0, 0 when the log is empty).
    [[nodiscard]] Result<std::pair<int64_t, int64_t>> oldestChange();
    // The highest revision ever issued (0 for a new cache); revisions are never reused.
    [[nodiscard]] Result<int64_t> currentRev();
    [[nodiscard]] Result<std::vector<KindCount>> kindCounts(std::string_view cluster);
    // Changes whenever another connection (thread or process) commits; poll it to notice updates.
    [[nodiscard]] Result<int64_t> dataVersion();
    // Integrity check of the whole file, as done on open.
    [[nodiscard]] Result<void> quickCheck();

    QString path() const;
    bool isWriter() const;

private:
    struct Impl;
    explicit CacheDb(std::unique_ptr<Impl> impl);
    // Fails unless this is an open writer.
    [[nodiscard]] Result<void> requireWriter() const;
    // Opens the write transaction of one apply, preparing the writer's statements on first use.
    [[nodiscard]] Result<sqlite::Transaction> beginWrite();
    std::unique_ptr<Impl> d;
};

} // namespace dra::store
