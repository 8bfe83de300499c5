// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/schema.h"
#include "core/server/field_set.h"

namespace dra::server {

// One metadata.managedFields entry: who set which fields, by which operation.
struct ManagedEntry
{
    std::string manager;
    std::string operation; // "Apply" or "Update"
    std::string apiVersion;
    std::string time;
    std::string subresource;
    FieldSet fields;

    // How conflicts name the manager: "\"kubectl\"", "\"kubectl-label\" using resource.k8s.io/v1".
    std::string display() const;
};

std::vector<ManagedEntry> readManagedFields(const nlohmann::json &object);
// Replaces metadata.managedFields (dropped when there are no entries).
void writeManagedFields(nlohmann::json &object, const std::vector<ManagedEntry> &entries);

// Who writes, through which version and subresource, and when.
struct FieldManagerContext
{
    std::string manager;
    std::string apiVersion; // the version field sets are expressed in
    std::string subresource; // "status" or empty
    bool hasStatusSubresource = false; // then the main resource does not own status, and back
    std::string now; // RFC 3339
    const model::SchemaNode *schema = nullptr;
};

// Records a create, update or patch (operation Update): `manager` now owns the fields it added
// or changed, other managers lose them, and fields that went away are nobody's. `before` is
// null for a create. Writes the result into `after`'s managedFields.
void trackUpdate(
    const nlohmann::json *before, nlohmann::json &after, const FieldManagerContext &context);

// A field another manager owns and an apply would change.
struct ApplyConflict
{
    std::string manager; // as ManagedEntry::display()
    FieldPath path;
};

// What a server-side apply produced: the object to store (managedFields updated), or the
// conflicts that stop it.
struct ApplyOutcome
{
    nlohmann::json object;
    std::vector<ApplyConflict> conflicts;
};

// Server-side apply of `config` onto `live` (null to create), as structured-merge-diff does it:
// the configuration is merged in (keyed lists by key, sets by value, atomic lists and opaque
// values replaced); fields this manager applied last time and no longer sends are removed
// unless another applier owns them; changing a field another manager owns is a conflict unless
// `force`, which takes the field over. An object whose managedFields are empty is owned by
// "before-first-apply", as kube-apiserver does it.
ApplyOutcome serverSideApply(const nlohmann::json *live, const nlohmann::json &config,
    const FieldManagerContext &context, bool force);

// kube-apiserver's message for apply conflicts ("Apply failed with 1 conflict: conflict with
// \"a\": .metadata.labels.team") and the Status causes.
std::string applyConflictMessage(const std::vector<ApplyConflict> &conflicts);
nlohmann::json applyConflictCauses(const std::vector<ApplyConflict> &conflicts);

} // namespace dra::server
