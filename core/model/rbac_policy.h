// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/kind.h"
#include "core/model/object_meta.h"

namespace dra::model {

// Someone a request is made as: the user the server authenticated and their groups.
struct UserIdentity
{
    std::string name;
    std::vector<std::string> groups;
};

// What is asked, in RBAC's terms (kube-apiserver's authorizer.Attributes).
struct AccessAttributes
{
    bool resourceRequest = true;
    std::string verb; // get, list, watch, create, ...; for paths the lower-case HTTP method
    std::string apiGroup; // "" for the core group
    std::string resource; // "resourceclaims"
    std::string subresource; // "status", or ""
    std::string ns; // "" at the cluster scope
    std::string name; // "" for collections
    std::string path; // non-resource requests: "/healthz"
};

// One rule of a Role or ClusterRole.
struct PolicyRule
{
    std::vector<std::string> verbs, apiGroups, resources, resourceNames, nonResourceURLs;

    bool allows(const AccessAttributes &attributes) const;
};

struct RbacSubject
{
    std::string kind; // User, Group, ServiceAccount
    std::string name;
    std::string ns; // a service account's namespace
};

// A RoleBinding (ns set) or ClusterRoleBinding (ns empty).
struct RbacBinding
{
    std::string ns, name;
    std::string roleKind; // Role or ClusterRole
    std::string roleName;
    std::vector<RbacSubject> subjects;

    bool isCluster() const { return ns.empty(); }
    bool names(const UserIdentity &user) const;
};

// A binding that grants something, and the first rule of its role that does.
struct RbacGrant
{
    const RbacBinding *binding = nullptr;
    const PolicyRule *rule = nullptr;
};

// The answer to "may this user do that", with RBAC's reason when allowed
// ("RBAC: allowed by ClusterRoleBinding ... ").
struct AccessDecision
{
    bool allowed = false;
    std::string reason;
};

// A cluster's RBAC objects evaluated as kube-apiserver's RBAC authorizer evaluates them: a
// request is allowed when a binding naming the user (or one of their groups, or their service
// account) grants a role with a rule that covers it; cluster bindings everywhere, namespace
// bindings in their namespace only. Members of system:masters are allowed everything, as the
// API server's privileged group is. ClusterRoles with an aggregationRule collect the rules of
// the roles their label selectors match, as the aggregation controller would have.
class RbacPolicy final
{
public:
    // Adds one Role, ClusterRole, RoleBinding or ClusterRoleBinding as its JSON; other kinds and
    // objects of the wrong shape are skipped (what does not decode grants nothing).
    void add(Kind kind, const nlohmann::json &object);
    // Resolves aggregated ClusterRoles; call after the last add().
    void finish();

    AccessDecision authorize(const UserIdentity &user, const AccessAttributes &attributes) const;
    // Every rule that applies to `user` in namespace `ns` (cluster-wide rules included), as a
    // SelfSubjectRulesReview reports them.
    std::vector<PolicyRule> rulesFor(const UserIdentity &user, std::string_view ns) const;

    // Every binding that grants `attributes` to its subjects, whoever they are, in the order
    // the bindings were added: RBAC's "who can". Pointers stay valid as long as the policy.
    std::vector<RbacGrant> grantsFor(const AccessAttributes &attributes) const;

    const std::vector<RbacBinding> &bindings() const { return m_bindings; }
    // The rules of the role `binding` refers to, or nullptr when it names no existing role.
    const std::vector<PolicyRule> *roleRules(const RbacBinding &binding) const;

private:
    struct ClusterRole
    {
        std::vector<PolicyRule> rules;
        StringPairs labels;
        std::vector<StringPairs> aggregateSelectors;
    };
    std::map<std::string, ClusterRole> m_clusterRoles;
    std::map<std::pair<std::string, std::string>, std::vector<PolicyRule>> m_roles; // (ns, name)
    std::vector<RbacBinding> m_bindings;
};

inline constexpr std::string_view kMastersGroup = "system:masters";
inline constexpr std::string_view kAuthenticatedGroup = "system:authenticated";

// "system:serviceaccount:NS:NAME", the user name a service account's token authenticates as.
std::string serviceAccountUser(std::string_view ns, std::string_view name);

} // namespace dra::model
