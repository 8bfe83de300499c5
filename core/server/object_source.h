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
#include "core/store/cache_db.h"

namespace dra::server {

// One object as served: decoded (for selectors and tables) and as wire JSON in the served
// version, with kind, apiVersion and metadata.resourceVersion set.
struct ServedObject
{
    model::Object object;
    nlohmann::json json;
    int64_t rev = 0;
};

// The served API version of a kind: "resource.k8s.io/v1", "v1".
std::string servedApiVersion(const model::KindInfo &kind);

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
    [[nodiscard]] Result<Listing> list(const model::KindInfo &kind, const std::string &ns);
    [[nodiscard]] Result<std::optional<ServedObject>> get(
        const model::KindInfo &kind, const std::string &ns, const std::string &name);
    // A change-log row as a served object (the new state, or the last state of a deletion).
    [[nodiscard]] Result<ServedObject> fromChange(const store::LoggedChange &change) const;

    store::CacheDb &cache() { return m_cache; }
    const std::string &cluster() const { return m_cluster; }

    // The wire JSON of `object` at revision `rev` in the served version of its kind.
    [[nodiscard]] static Result<nlohmann::json> wireJson(const model::Object &object, int64_t rev);

private:
    store::CacheDb &m_cache;
    std::string m_cluster;
};

} // namespace dra::server
