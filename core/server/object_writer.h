// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/model/kind.h"
#include "core/store/cache_db.h"

namespace dra::server {

// The server's way into the cache's single writer: reads the current state of objects and
// commits writes as one WatchBatch each, all or nothing. Objects are JSON in their stored form
// (resource.k8s.io/v1, core/v1); the served resourceVersion is the revision, so none is
// stored in the JSON. Thread of its CacheDb.
class ObjectWriter final
{
public:
    ObjectWriter(store::CacheDb &writer, std::string cluster);

    struct Stored
    {
        nlohmann::json json; // as stored, metadata.resourceVersion removed
        int64_t rev = 0;
    };
    [[nodiscard]] Result<std::optional<Stored>> get(
        const model::KindInfo &kind, const std::string &ns, const std::string &name);
    // Objects of a kind, all namespaces when `ns` is empty.
    [[nodiscard]] Result<std::vector<Stored>> list(
        const model::KindInfo &kind, const std::string &ns);

    struct Write
    {
        model::ChangeType type;
        nlohmann::json object; // the new state; for Deleted the last state
    };
    // Commits `writes` in one transaction and returns each one's revision, in order (0 when a
    // write changed nothing). Nothing is stored when it fails.
    [[nodiscard]] Result<std::vector<int64_t>> commit(const std::vector<Write> &writes);

    store::CacheDb &cache() { return m_cache; }
    const std::string &cluster() const { return m_cluster; }

private:
    store::CacheDb &m_cache;
    std::string m_cluster;
};

} // namespace dra::server
