// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "core/inventory/snapshot.h"
#include "core/model/rbac_policy.h"

namespace dra::server::console {

// Whether the user a check was made for may do what `attributes` describe; answers now or later
// (a SubjectAccessReview), on the thread that asked.
using AccessCheck
    = std::function<void(const model::AccessAttributes &attributes, std::function<void(bool)>)>;

// What one user may see of a snapshot, as `kubectl get` would show it to them: the kinds they may
// not list at all, and for namespaced kinds they may not list cluster-wide, the namespaces they
// may not list them in.
struct Visibility
{
    std::set<model::Kind> hiddenKinds;
    std::map<model::Kind, std::set<std::string>> hiddenNamespaces;

    bool everything() const { return hiddenKinds.empty() && hiddenNamespaces.empty(); }
    // A key for caches of what this visibility shows ("" for everything).
    std::string key() const;
};

// Asks `check` about every kind `snapshot` holds (list, cluster-wide) and, for namespaced kinds
// refused there, about each namespace that has objects of the kind; `done` gets the answer once
// every question is answered.
void resolveVisibility(const inventory::Snapshot &snapshot, const AccessCheck &check,
    std::function<void(const Visibility &)> done);

// `snapshot` without the objects `visibility` hides (their devices and allocations go with
// them); the revision stays. Any thread.
inventory::SnapshotPtr visibleSnapshot(
    const inventory::SnapshotPtr &snapshot, const Visibility &visibility);

// What was left out, for the page to say: [{kind, objects, namespaces?}] (namespaces when only
// some were hidden), empty when nothing was.
nlohmann::json leftOutJson(const inventory::Snapshot &snapshot, const Visibility &visibility);

} // namespace dra::server::console
