// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/model/kind.h"
#include "core/server/object_writer.h"

namespace dra::sandbox {

// The objects the simulated control plane acts on, read from the cache once per pass, each
// kind when a controller first asks for it (a pass that touches no claim never parses the
// ResourceSlices). Writes of the pass land here at once, so a later controller of the same
// pass sees what an earlier one did; commit() stores them all as one batch (one watch batch).
// Thread of its writer.
class ObjectView final
{
public:
    explicit ObjectView(server::ObjectWriter &writer);

    // Objects of `kind` (in `ns`, or every namespace when empty), ordered by namespace and name.
    std::vector<nlohmann::json> all(model::Kind kind, const std::string &ns = {}) const;
    const nlohmann::json *find(
        model::Kind kind, const std::string &ns, const std::string &name) const;

    // Creates or replaces the object (kind, namespace and name from its JSON).
    void put(const nlohmann::json &object);
    void remove(model::Kind kind, const std::string &ns, const std::string &name);

    // The Kubernetes version the cache records for the demo cluster (what it serves at /version).
    std::string kubernetesVersion() const;

    bool changed() const { return !m_touched.empty(); }
    // Whether this pass deleted an object of `kind`.
    bool removedAny(model::Kind kind) const;
    // Stores the writes of this pass in one transaction; nothing when none. Fails, storing
    // nothing, when a kind could not be read during the pass.
    [[nodiscard]] Result<void> commit();

private:
    struct Key
    {
        model::Kind kind;
        std::string ns, name;
        auto operator<=>(const Key &) const = default;
    };
    void ensureLoaded(model::Kind kind) const;

    server::ObjectWriter &m_writer;
    mutable std::set<model::Kind> m_loadedKinds;
    mutable std::optional<common::Error> m_loadError;
    mutable std::map<Key, nlohmann::json> m_objects;
    mutable std::set<Key> m_loaded; // present in the cache when the pass began
    std::map<Key, nlohmann::json> m_deleted; // last state of what this pass deleted
    std::set<Key> m_touched;
};

// The kind of an object's apiVersion and kind fields, Kind::Unknown when not known.
model::Kind kindOfJson(const nlohmann::json &object);
// metadata.<field> as text, empty when absent.
std::string metaText(const nlohmann::json &object, const char *field);

} // namespace dra::sandbox
