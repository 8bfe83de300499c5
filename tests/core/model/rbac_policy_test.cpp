// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// RBAC as kube-apiserver evaluates it: which bindings apply where, how rules match verbs,
// groups, resources, subresources, names and paths, and aggregated ClusterRoles.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/model/rbac_policy.h"

namespace dra::model {
namespace {

using nlohmann::json;

json clusterRole(const std::string &name, json rules, json labels = json::object())
{
    return { { "metadata", { { "name", name }, { "labels", std::move(labels) } } },
        { "rules", std::move(rules) } };
}

json binding(const std::string &name, const std::string &ns, const std::string &roleKind,
    const std::string &role, json subjects)
{
    json metadata = { { "name", name } };
    if (!ns.empty())
        metadata["namespace"] = ns;
    return { { "metadata", metadata },
        { "roleRef",
            { { "apiGroup", "rbac.authorization.k8s.io" }, { "kind", roleKind },
                { "name", role } } },
        { "subjects", std::move(subjects) } };
}

json rule(json verbs, json groups, json resources, json names = json::array())
{
    return { { "verbs", std::move(verbs) }, { "apiGroups", std::move(groups) },
        { "resources", std::move(resources) }, { "resourceNames", std::move(names) } };
}

AccessAttributes resource(std::string verb, std::string group, std::string resource,
    std::string ns = {}, std::string name = {}, std::string subresource = {})
{
    AccessAttributes attributes;
    attributes.verb = std::move(verb);
    attributes.apiGroup = std::move(group);
    attributes.resource = std::move(resource);
    attributes.ns = std::move(ns);
    attributes.name = std::move(name);
    attributes.subresource = std::move(subresource);
    return attributes;
}

AccessAttributes path(std::string verb, std::string url)
{
    AccessAttributes attributes;
    attributes.resourceRequest = false;
    attributes.verb = std::move(verb);
    attributes.path = std::move(url);
    return attributes;
}

const UserIdentity kAlice { "alice", { "ml-team", "system:authenticated" } };
const UserIdentity kBob { "bob", { "system:authenticated" } };

TEST(RbacPolicyTest, ARoleBindingGrantsInItsNamespaceOnly)
{
    RbacPolicy policy;
    policy.add(Kind::ClusterRole,
        clusterRole("claims",
            json::array({ rule(
                { "get", "list", "create" }, { "resource.k8s.io" }, { "resourceclaims" }) })));
    policy.add(Kind::RoleBinding,
        binding("ml-claims", "training", "ClusterRole", "claims",
            json::array({ { { "kind", "Group" }, { "name", "ml-team" } } })));
    policy.finish();

    const AccessDecision inTraining = policy.authorize(
        kAlice, resource("list", "resource.k8s.io", "resourceclaims", "training"));
    EXPECT_TRUE(inTraining.allowed);
    EXPECT_EQ(inTraining.reason,
        "RBAC: allowed by RoleBinding \"ml-claims/training\" of ClusterRole \"claims\" to Group "
        "\"ml-team\"");
    EXPECT_FALSE(
        policy.authorize(kAlice, resource("list", "resource.k8s.io", "resourceclaims", "inference"))
            .allowed);
    // Across all namespaces is the cluster scope, which a RoleBinding never grants.
    EXPECT_FALSE(
        policy.authorize(kAlice, resource("list", "resource.k8s.io", "resourceclaims")).allowed);
    EXPECT_FALSE(policy
                     .authorize(kAlice,
                         resource("delete", "resource.k8s.io", "resourceclaims", "training", "c"))
                     .allowed);
    EXPECT_FALSE(
        policy.authorize(kBob, resource("list", "resource.k8s.io", "resourceclaims", "training"))
            .allowed);
}

TEST(RbacPolicyTest, RulesMatchWildcardsSubresourcesAndNames)
{
    RbacPolicy policy;
    policy.add(Kind::ClusterRole,
        clusterRole("mixed",
            json::array({ rule({ "*" }, { "apps" }, { "*" }),
                rule({ "update" }, { "resource.k8s.io" }, { "*/status" }),
                rule({ "get" }, { "" }, { "pods/exec" }),
                rule({ "get" }, { "resource.k8s.io" }, { "deviceclasses" },
                    { "gpu.nvidia.com" }) })));
    policy.add(Kind::ClusterRoleBinding,
        binding("mixed", "", "ClusterRole", "mixed",
            json::array({ { { "kind", "User" }, { "name", "alice" } } })));
    policy.finish();

    EXPECT_TRUE(
        policy.authorize(kAlice, resource("delete", "apps", "deployments", "a", "d")).allowed);
    EXPECT_TRUE(policy
                    .authorize(kAlice,
                        resource("update", "resource.k8s.io", "resourceclaims", "a", "c", "status"))
                    .allowed);
    // "*/status" is the subresource, not the object.
    EXPECT_FALSE(
        policy.authorize(kAlice, resource("update", "resource.k8s.io", "resourceclaims", "a", "c"))
            .allowed);
    EXPECT_TRUE(policy.authorize(kAlice, resource("get", "", "pods", "a", "p", "exec")).allowed);
    EXPECT_FALSE(policy.authorize(kAlice, resource("get", "", "pods", "a", "p")).allowed);
    EXPECT_TRUE(policy
                    .authorize(kAlice,
                        resource("get", "resource.k8s.io", "deviceclasses", "", "gpu.nvidia.com"))
                    .allowed);
    EXPECT_FALSE(policy
                     .authorize(kAlice,
                         resource("get", "resource.k8s.io", "deviceclasses", "", "mig.nvidia.com"))
                     .allowed);
    // A rule limited to names cannot allow a list.
    EXPECT_FALSE(
        policy.authorize(kAlice, resource("list", "resource.k8s.io", "deviceclasses")).allowed);
}

TEST(RbacPolicyTest, PathsAreGrantedByClusterBindingsWithPrefixes)
{
    RbacPolicy policy;
    policy.add(Kind::ClusterRole,
        clusterRole("discovery",
            json::array(
                { { { "verbs", { "get" } }, { "nonResourceURLs", { "/apis", "/apis/*" } } } })));
    policy.add(Kind::ClusterRoleBinding,
        binding("discovery", "", "ClusterRole", "discovery",
            json::array({ { { "kind", "Group" }, { "name", "system:authenticated" } } })));
    policy.add(Kind::RoleBinding,
        binding("discovery", "training", "ClusterRole", "discovery",
            json::array({ { { "kind", "User" }, { "name", "carol" } } })));
    policy.finish();

    EXPECT_TRUE(policy.authorize(kBob, path("get", "/apis")).allowed);
    EXPECT_TRUE(policy.authorize(kBob, path("get", "/apis/resource.k8s.io/v1")).allowed);
    EXPECT_FALSE(policy.authorize(kBob, path("post", "/apis")).allowed);
    EXPECT_FALSE(policy.authorize(kBob, path("get", "/api")).allowed);
    EXPECT_FALSE(policy.authorize({ "carol", {} }, path("get", "/apis")).allowed);
}

TEST(RbacPolicyTest, ServiceAccountsMastersAndMissingRoles)
{
    RbacPolicy policy;
    policy.add(Kind::Role,
        { { "metadata", { { "name", "reader" }, { "namespace", "draconsole" } } },
            { "rules", json::array({ rule({ "get" }, { "" }, { "pods" }) }) } });
    // A service account subject without a namespace is the binding's namespace's.
    policy.add(Kind::RoleBinding,
        binding("mirror", "draconsole", "Role", "reader",
            json::array({ { { "kind", "ServiceAccount" }, { "name", "mirror" } } })));
    policy.add(Kind::ClusterRoleBinding,
        binding("dangling", "", "ClusterRole", "no-such-role",
            json::array({ { { "kind", "User" }, { "name", "bob" } } })));
    policy.finish();

    const UserIdentity mirror { serviceAccountUser("draconsole", "mirror"), {} };
    const AccessDecision read
        = policy.authorize(mirror, resource("get", "", "pods", "draconsole", "p"));
    EXPECT_TRUE(read.allowed);
    EXPECT_EQ(read.reason,
        "RBAC: allowed by RoleBinding \"mirror/draconsole\" of Role \"reader\" to ServiceAccount "
        "\"mirror\"");
    EXPECT_FALSE(policy.authorize(mirror, resource("get", "", "pods", "default", "p")).allowed);
    EXPECT_FALSE(policy.authorize(kBob, resource("get", "", "pods", "default", "p")).allowed);
    EXPECT_TRUE(policy
                    .authorize({ "root", { std::string(kMastersGroup) } },
                        resource("delete", "rbac.authorization.k8s.io", "clusterroles", "", "x"))
                    .allowed);
}

TEST(RbacPolicyTest, AggregatedClusterRolesCollectMatchingRoles)
{
    RbacPolicy policy;
    json aggregate = clusterRole("aggregate", json::array());
    aggregate["aggregationRule"] = { { "clusterRoleSelectors",
        json::array({ { { "matchLabels", { { "example.com/aggregate-to-view", "true" } } } } }) } };
    policy.add(Kind::ClusterRole, aggregate);
    policy.add(Kind::ClusterRole,
        clusterRole("dra-view",
            json::array({ rule({ "list" }, { "resource.k8s.io" }, { "resourceslices" }) }),
            { { "example.com/aggregate-to-view", "true" } }));
    policy.add(Kind::ClusterRole,
        clusterRole("other", json::array({ rule({ "list" }, { "" }, { "secrets" }) })));
    policy.add(Kind::ClusterRoleBinding,
        binding("view", "", "ClusterRole", "aggregate",
            json::array({ { { "kind", "User" }, { "name", "bob" } } })));
    policy.finish();

    EXPECT_TRUE(
        policy.authorize(kBob, resource("list", "resource.k8s.io", "resourceslices")).allowed);
    EXPECT_FALSE(policy.authorize(kBob, resource("list", "", "secrets")).allowed);
    const std::vector<PolicyRule> rules = policy.rulesFor(kBob, "training");
    ASSERT_EQ(rules.size(), 1u);
    EXPECT_EQ(rules[0].resources, std::vector<std::string> { "resourceslices" });
}

} // namespace
} // namespace dra::model
