// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/model/object.h"
#include "core/server/encoded_objects.h"
#include "core/store/cache_db.h"

namespace dra::server {

// One object as served: decoded (for selectors and tables) and as wire JSON in the version the
// request named, with kind, apiVersion and metadata.resourceVersion set.
struct ServedObject
{
    model::Object object;
    nlohmann::json json;
    int64_t rev = 0;

    // `json` as compact text, encoded when first asked for and kept: a change fanned out to a
    // hundred watchers is encoded once. `json` must not change after the first call.
    const std::string &compactText() const;
    mutable std::optional<std::string> compactCache = {};
};

// The apiVersion of `kind` in `version` ("resource.k8s.io/v1beta2"; core: "v1").
std::string apiVersionOf(const model::KindInfo &kind, std::string_view version);

// Reads one cluster of a cache for the API. resourceVersions are the cache's change-log
// revisions (see the comment in object_source.cpp). Thread of its CacheDb.
class ObjectSource final
{
public:
    ObjectSource(store::CacheDb &cache, std::string cluster);

    // Objects of `kind` (namespace `ns`, or every namespace when empty) and the revision they
    // were read at, read in one transaction so both agree. Rows that no longer decode are skipped.
    struct Listing
    {
        std::vector<ServedObject> items;
        int64_t rev = 0;
    };
    // `apiVersion` is the one to serve ("resource.k8s.io/v1beta1"), converted as Kubernetes does.
    [[nodiscard]] Result<Listing> list(
        const model::KindInfo &kind, const std::string &ns, const std::string &apiVersion);
    // The same objects as their kept wire JSON, for JSON lists (see EncodedObjects).
    [[nodiscard]] Result<EncodedObjects::Listing> listEncoded(
        const model::KindInfo &kind, const std::string &ns, const std::string &apiVersion)
    {
        return m_encoded.list(m_cache, m_cluster, kind, ns, apiVersion);
    }
    // See EncodedObjects::keepSnapshot() and snapshot().
    void keepEncodedSnapshot(
        const model::KindInfo &kind, const std::string &apiVersion, int64_t rev)
    {
        m_encoded.keepSnapshot(kind, apiVersion, rev);
    }
    [[nodiscard]] std::optional<EncodedObjects::Listing> encodedSnapshot(
        const model::KindInfo &kind, const std::string &ns, const std::string &apiVersion,
        int64_t rev)
    {
        return m_encoded.snapshot(kind, ns, apiVersion, rev);
    }
    // A kept encoding decoded again, for what is computed from objects (Table rows).
    [[nodiscard]] static Result<ServedObject> servedFromEncoded(const EncodedObjects::Item &item);
    // Drops the kept encodings, for when the cache's revisions are issued again (a restore).
    void forgetEncoded() { m_encoded.clear(); }
    [[nodiscard]] Result<std::optional<ServedObject>> get(const model::KindInfo &kind,
        const std::string &ns, const std::string &name, const std::string &apiVersion);
    // A change-log row decoded (the new state, or the last state of a deletion).
    [[nodiscard]] Result<model::Object> decodeChange(const store::LoggedChange &change) const;

    store::CacheDb &cache() { return m_cache; }
    const std::string &cluster() const { return m_cluster; }

    // The wire JSON of `object` at revision `rev` in `apiVersion`.
    [[nodiscard]] static Result<nlohmann::json> wireJson(
        const model::Object &object, int64_t rev, const std::string &apiVersion);

private:
    store::CacheDb &m_cache;
    std::string m_cluster;
    EncodedObjects m_encoded;
};

} // namespace dra::server
