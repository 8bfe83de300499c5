// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Who may use which DeviceClass where. Kubernetes has no RBAC per class: a subject can use a
// class in a namespace when RBAC lets it create ResourceClaims (or templates) there, the
// namespace's quota does not keep the class out (a hard limit of 0), and, for admin access, the
// namespace carries the admin-access label. This puts those answers side by side, with who may
// write the inventory itself (classes, slices, taint rules, claim status) and what in the
// cluster's RBAC deserves a second look.
#pragma once

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/inventory/snapshot.h"
#include "core/model/rbac_policy.h"

namespace dra::inventory {

// A subject named by a binding that grants what was asked, and how.
struct AccessGrant
{
    model::RbacSubject subject; // a service account's namespace filled in from its binding
    std::string binding; // "RoleBinding training/training-team-claim-authors"
    std::string role; // "ClusterRole draconsole:claim-author"
    std::string scope; // the binding's namespace; empty for a ClusterRoleBinding (everywhere)
    std::vector<std::string> verbs; // of the verbs asked, those the grant allows
    bool admin = false; // the subject may do everything everywhere (cluster-admin and the like)
};

// What one DeviceClass means in one namespace.
struct ClassAccess
{
    std::string className;
    std::optional<int64_t> hard, used; // the tightest quota on the class's devices, if any
    std::string quota; // the ResourceQuota that sets `hard`
    bool blocked = false; // a hard limit of 0 keeps the class out
    bool adminAccess = false; // claims may ask for admin access (the namespace label is set)
    bool usable = false; // someone may create claims there and the quota lets the class in
    std::string why; // one line: what decides `usable`
};

struct NamespaceAccess
{
    std::string ns;
    bool adminAccessLabel = false;
    std::vector<AccessGrant> claimAuthors; // may create ResourceClaims
    std::vector<AccessGrant> templateAuthors; // may create ResourceClaimTemplates
    std::vector<ClassAccess> classes;
};

// Who may write one part of the inventory.
struct InventoryWriters
{
    std::string resource; // "deviceclasses", "resourceslices", "resourceclaims/status", ...
    std::vector<AccessGrant> grants;
};

enum class AccessSeverity { Info, Warning };

// Something in the cluster's RBAC an admin should look at.
struct AccessFinding
{
    std::string code; // NonAdminWritesInventory, WildcardDraGrant, ClaimStatusWriter
    AccessSeverity severity = AccessSeverity::Warning;
    model::RbacSubject subject;
    std::string binding, role;
    std::string message;
};

// Where the answers come from.
enum class AccessSource {
    Rbac, // the Roles, ClusterRoles and bindings the cache holds
    SelfRules, // none are readable: the user's own rules, as SelfSubjectRulesReview gives them
    None, // the cache holds none (the mirror, or this user, may not read them)
};

// What one user may do in each namespace, as SelfSubjectRulesReview answers it: the fallback
// when the RBAC objects cannot be read. It tells what this user may do, not who else may.
struct SelfRules
{
    model::RbacSubject subject; // the user the cluster authenticated
    std::map<std::string, std::vector<model::PolicyRule>> byNamespace;
};

struct AccessReport
{
    AccessSource source = AccessSource::None;
    std::string sourceNote; // what the source covers and what it cannot see
    std::vector<NamespaceAccess> namespaces; // sorted by name
    std::vector<InventoryWriters> writers;
    std::vector<AccessFinding> findings; // warnings first, then by subject
};

struct AccessQuery
{
    std::string className; // only this class; empty for every DeviceClass
    std::string ns; // only this namespace; empty for every mirrored one
};

// The access report of `snapshot`: namespaces are the mirrored Namespaces (and those quotas
// or bindings name); classes the mirrored DeviceClasses. When the snapshot holds no RBAC
// objects and `self` is given, the answers come from the user's own rules.
AccessReport deviceAccess(
    const Snapshot &snapshot, const AccessQuery &query = {}, const SelfRules *self = nullptr);
// Says in `report` that the user's own rules were asked for and why they could not be had.
void noteSelfRulesUnavailable(AccessReport &report, const std::string &why);

// `dractl access -o json` = /console/v1/access: {cluster, rev, source, sourceNote,
// namespaces[{namespace, adminAccessLabel, claimAuthors[], templateAuthors[], classes[{class,
// hard?, used?, quota?, blocked, adminAccess, usable, verdict, why}]}], writers[{resource,
// grants[]}], findings[{code, severity, subject, binding, role, message}]}; a grant is
// {subject{kind, name, namespace?}, binding, role, scope?, verbs, admin}.
nlohmann::json accessJson(const Snapshot &snapshot, const AccessReport &report);

// "User alice", "Group training-team", "ServiceAccount kube-system/driver".
std::string subjectText(const model::RbacSubject &subject);
// The subjects of `grants` other than admins, each once, comma-separated (the first `shown`,
// then "and N more"); "admins only" when there are none.
std::string nonAdminSubjects(
    const std::vector<AccessGrant> &grants, size_t shown = std::numeric_limits<size_t>::max());
// "usable", "blocked by quota" or "no claim authors": what decides a class in a namespace.
std::string_view verdictText(const ClassAccess &access);

} // namespace dra::inventory
