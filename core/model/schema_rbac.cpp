// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// rbac.authorization.k8s.io/v1: Role, ClusterRole and their bindings, every field typed, so a
// misspelled rule in a manifest is refused as kube-apiserver refuses it.
#include "core/model/kind.h"
#include "core/model/schema_builder.h"

namespace dra::model::schema_detail {

namespace {

const SchemaNode *policyRules(SchemaBuilder &b)
{
    const SchemaNode *rule = b.object("Verbs allowed on resources or non-resource URLs.",
        { { "verbs",
              b.stringList("Verbs the rule allows (get, list, watch, create, update, patch, "
                           "delete, deletecollection, or * for all).") },
            { "apiGroups",
                b.stringList("API groups of the resources; \"\" is the core group, * any.") },
            { "resources",
                b.stringList("Resources, \"resource/subresource\" for a subresource, * any.") },
            { "resourceNames", b.stringList("Names the rule is limited to; empty: all.") },
            { "nonResourceURLs",
                b.stringList("Paths that are not resources (/healthz, /api/*); ClusterRoles "
                             "bound cluster-wide only.") } },
        { "verbs" });
    return b.list("The rules of the role, any of which allows a request.", rule);
}

const SchemaNode *roleRef(SchemaBuilder &b)
{
    return b.object("The role the binding grants; immutable.",
        { { "apiGroup", b.string("Group of the role: rbac.authorization.k8s.io.") },
            { "kind", b.enumeration("Role or ClusterRole.", { "Role", "ClusterRole" }) },
            { "name", b.string("Name of the role.") } },
        { "apiGroup", "kind", "name" });
}

const SchemaNode *subjects(SchemaBuilder &b)
{
    const SchemaNode *subject = b.object("A user, group or service account.",
        { { "kind",
              b.enumeration(
                  "User, Group or ServiceAccount.", { "User", "Group", "ServiceAccount" }) },
            { "apiGroup",
                b.string("rbac.authorization.k8s.io for users and groups, \"\" for service "
                         "accounts.") },
            { "name", b.string("Name of the subject.") },
            { "namespace", b.string("Namespace of a service account.") } },
        { "kind", "name" });
    return b.list("Who the binding grants the role to.", subject);
}

} // namespace

void addRbacKinds(SchemaBuilder &b, const CommonNodes &c, KindSink &sink)
{
    const SchemaNode *selector = b.object("Labels of the ClusterRoles to aggregate.",
        { { "matchLabels", b.stringMap("Labels a ClusterRole must carry, all of them.") },
            { "matchExpressions", b.any("Further label requirements.") } });
    const SchemaNode *aggregation = b.object(
        "ClusterRoles whose rules this ClusterRole collects; its rules are "
        "managed by the controller.",
        { { "clusterRoleSelectors", b.list("Selectors, any of which adds a role.", selector) } });
    const std::string group = std::string(kRbacGroup) + "/v1";
    sink.addKind(group, "Role", true,
        kindRoot(
            b, c, "Rules granting access within one namespace.", { { "rules", policyRules(b) } }));
    sink.addKind(group, "ClusterRole", false,
        kindRoot(b, c, "Rules granting access in every namespace or to cluster-scoped objects.",
            { { "rules", policyRules(b) }, { "aggregationRule", aggregation } }));
    sink.addKind(group, "RoleBinding", true,
        kindRoot(b, c, "Grants a Role or ClusterRole to subjects within one namespace.",
            { { "subjects", subjects(b) }, { "roleRef", roleRef(b) } }, { "roleRef" }));
    sink.addKind(group, "ClusterRoleBinding", false,
        kindRoot(b, c, "Grants a ClusterRole to subjects in the whole cluster.",
            { { "subjects", subjects(b) }, { "roleRef", roleRef(b) } }, { "roleRef" }));
}

} // namespace dra::model::schema_detail
