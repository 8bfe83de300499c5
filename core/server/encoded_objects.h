// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/common/result.h"
#include "core/model/object.h"
#include "core/store/cache_db.h"

namespace dra::server {

// The wire JSON of every served object of a kind, encoded once per served version and kept,
// so that a JSON list is the bytes of its items joined rather than a decode and encode of the
// whole kind on every request. Each (apiVersion, kind) is a view built from the cache on its
// first list and brought up to date from the change log on later ones: a list after one
// change re-encodes that one object. A view whose changes the log no longer holds (trimmed by
// retention, or the cache rolled back) is built again, reusing every encoding whose object did
// not change. Thread of its CacheDb.
class EncodedObjects final
{
public:
    // One object as served: what selectors read, the revision it was written at and its
    // compact JSON with kind, apiVersion and metadata.resourceVersion set.
    struct Item
    {
        model::ObjectMeta meta; // name, namespace and labels only
        int64_t rev = 0;
        std::string json;
    };
    using Shared = std::shared_ptr<const Item>;

    // Objects of `kind` in `ns` (every namespace when empty) in namespace and name order, and
    // the revision they are current at. Items are shared with the view: a list in progress is
    // unaffected by later changes.
    struct Listing
    {
        std::vector<Shared> items;
        int64_t rev = 0;
    };
    [[nodiscard]] Result<Listing> list(store::CacheDb &cache, const std::string &cluster,
        const model::KindInfo &kind, const std::string &ns, const std::string &apiVersion);

    // Keeps the objects of `kind` as listed at `rev` (the revision list() just answered at),
    // so that the pages of a list begun there are served from them however the kind changes
    // meanwhile, as kube-apiserver serves them from etcd's history. Kept for five minutes
    // (kube-apiserver compacts etcd's history as often), at most kSnapshotsPerView of them.
    void keepSnapshot(const model::KindInfo &kind, const std::string &apiVersion, int64_t rev);
    // The objects of `kind` in `ns` as kept at `rev`; nothing when no snapshot of it is kept.
    [[nodiscard]] std::optional<Listing> snapshot(const model::KindInfo &kind,
        const std::string &ns, const std::string &apiVersion, int64_t rev);
    static constexpr int kSnapshotsPerView = 64;
    static constexpr std::chrono::minutes kSnapshotLifetime { 5 };

    // Forgets every view, for when the cache's revisions were issued again (a restore).
    void clear() { m_views.clear(); }

    // How many objects were encoded since this was made: a figure for tests and benchmarks.
    int64_t encodedCount() const { return m_encoded; }

private:
    using NsName = std::pair<std::string, std::string>;
    struct Snapshot
    {
        std::shared_ptr<const std::vector<Shared>> items; // every namespace, in order
        std::chrono::steady_clock::time_point keptAt;
    };
    struct View
    {
        int64_t rev = -1; // -1: never built
        std::map<NsName, Shared> items;
        std::map<int64_t, Snapshot> snapshots; // by revision
    };

    [[nodiscard]] Result<Shared> encode(
        const model::Object &object, int64_t rev, const std::string &apiVersion);
    [[nodiscard]] Result<void> rebuild(View &view, store::CacheDb &cache,
        const std::string &cluster, const model::KindInfo &kind, const std::string &apiVersion,
        int64_t rev);
    // Applies the logged changes after view.rev up to `rev`; false when the log no longer holds
    // them all.
    [[nodiscard]] Result<bool> catchUp(View &view, store::CacheDb &cache,
        const std::string &cluster, const model::KindInfo &kind, const std::string &apiVersion,
        int64_t rev);

    std::map<std::string, View> m_views; // by "apiVersion kind"
    int64_t m_encoded = 0;
};

} // namespace dra::server
