// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/demo_access.h"

#include "core/sandbox/object_factory.h"
#include "core/sandbox/serving_objects.h"

namespace dra::sandbox {

namespace {

using nlohmann::json;

constexpr const char *kRbacVersion = "rbac.authorization.k8s.io/v1";

json resourceRule(json groups, json resources, json verbs)
{
    return { { "apiGroups", std::move(groups) }, { "resources", std::move(resources) },
        { "verbs", std::move(verbs) } };
}

json pathRule(json paths, json verbs)
{
    return { { "nonResourceURLs", std::move(paths) }, { "verbs", std::move(verbs) } };
}

json clusterRole(const ObjectFactory &factory, const std::string &name, json rules)
{
    json role = factory.object(kRbacVersion, "ClusterRole", name);
    role["metadata"].erase("generation"); // RBAC objects have none
    role["rules"] = std::move(rules);
    return role;
}

json subject(const std::string &kind, const std::string &name)
{
    return { { "kind", kind }, { "apiGroup", "rbac.authorization.k8s.io" }, { "name", name } };
}

json binding(const ObjectFactory &factory, const std::string &kind, const std::string &name,
    const std::string &ns, const std::string &clusterRoleName, json subjects)
{
    json object = factory.object(kRbacVersion, kind, name, ns);
    object["metadata"].erase("generation");
    object["roleRef"] = { { "apiGroup", "rbac.authorization.k8s.io" }, { "kind", "ClusterRole" },
        { "name", clusterRoleName } };
    object["subjects"] = std::move(subjects);
    return object;
}

// The namespace's ResourceQuota "dra-devices" with `hard` limits; status as a quota controller
// that has not run yet leaves it (none).
json deviceQuota(const ObjectFactory &factory, const std::string &ns, json hard)
{
    json quota = factory.object("v1", "ResourceQuota", "dra-devices", ns);
    quota["metadata"].erase("generation");
    quota["spec"] = { { "hard", std::move(hard) } };
    return quota;
}

const json kReadVerbs = json::array({ "get", "list", "watch" });
const json kWriteVerbs
    = json::array({ "get", "list", "watch", "create", "update", "patch", "delete" });

// The writes a rollout controller makes: the canary's claim template and Deployment, its
// negative-control claim, the canary Service and the route's weights; the evidence it gathers
// runs a command in the canary's pod and asks Prometheus through the service proxy.
json rolloutControllerRules()
{
    const json objectWrites = json::array({ "create", "update", "patch", "delete" });
    return json::array({ resourceRule({ "resource.k8s.io" },
                             { "resourceclaimtemplates", "resourceclaims" }, objectWrites),
        resourceRule({ "apps" }, { "deployments" }, objectWrites),
        resourceRule({ "" }, { "services" }, objectWrites),
        resourceRule({ "gateway.networking.k8s.io" }, { "httproutes" }, { "update", "patch" }),
        resourceRule({ "" }, { "pods/exec" }, { "create" }),
        resourceRule({ "" }, { "services/proxy" }, { "get" }) });
}

constexpr const char *kRolloutServiceAccountRole = "draconsole-rollouts";

} // namespace

const std::vector<DemoUser> &demoUsers()
{
    static const std::vector<DemoUser> users = {
        { "demo-training",
            { "training-user", { "training-team", std::string(model::kAuthenticatedGroup) } },
            "training" },
        { "demo-viewer", { "viewer", { "viewers", std::string(model::kAuthenticatedGroup) } },
            "inference" },
    };
    return users;
}

DemoUser mirrorServiceAccount()
{
    const std::string ns = kMirrorNamespace;
    return { "draconsole-mirror",
        { model::serviceAccountUser(ns, kMirrorServiceAccount),
            { "system:serviceaccounts", "system:serviceaccounts:" + ns,
                std::string(model::kAuthenticatedGroup) } },
        ns };
}

std::vector<json> demoAccessObjects(const ObjectFactory &factory)
{
    const std::string authenticated(model::kAuthenticatedGroup);
    std::vector<json> objects;
    // What every cluster's bootstrap policy has.
    objects.push_back(clusterRole(factory, "cluster-admin",
        json::array({ resourceRule({ "*" }, { "*" }, { "*" }), pathRule({ "*" }, { "*" }) })));
    objects.push_back(binding(factory, "ClusterRoleBinding", "cluster-admin", "", "cluster-admin",
        json::array({ subject("Group", std::string(model::kMastersGroup)) })));
    objects.push_back(clusterRole(factory, "system:discovery",
        json::array({ pathRule({ "/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez",
                                   "/openapi", "/openapi/*", "/readyz", "/version", "/version/" },
            { "get" }) })));
    objects.push_back(binding(factory, "ClusterRoleBinding", "system:discovery", "",
        "system:discovery", json::array({ subject("Group", authenticated) })));
    objects.push_back(clusterRole(factory, "system:basic-user",
        json::array({ resourceRule({ "authorization.k8s.io" },
                          { "selfsubjectaccessreviews", "selfsubjectrulesreviews" }, { "create" }),
            resourceRule({ "authentication.k8s.io" }, { "selfsubjectreviews" }, { "create" }) })));
    objects.push_back(binding(factory, "ClusterRoleBinding", "system:basic-user", "",
        "system:basic-user", json::array({ subject("Group", authenticated) })));

    // The demo's teams. Reading the DRA inventory is everyone's; the console's computed views
    // show each user what they may list, while its rollouts (the state file's) take a path rule.
    objects.push_back(clusterRole(factory, "draconsole:dra-reader",
        json::array({ resourceRule({ "resource.k8s.io" },
                          { "deviceclasses", "resourceslices", "devicetaintrules" }, kReadVerbs),
            resourceRule({ "" }, { "nodes", "namespaces" }, kReadVerbs) })));
    objects.push_back(binding(factory, "ClusterRoleBinding", "draconsole:dra-readers", "",
        "draconsole:dra-reader", json::array({ subject("Group", authenticated) })));
    objects.push_back(clusterRole(factory, "draconsole:claim-author",
        json::array({ resourceRule({ "resource.k8s.io" },
                          { "resourceclaims", "resourceclaimtemplates" }, kWriteVerbs),
            resourceRule({ "" }, { "pods", "events", "services" }, kReadVerbs),
            resourceRule({ "apps" }, { "deployments", "replicasets" }, kReadVerbs) })));
    objects.push_back(binding(factory, "RoleBinding", "training-team-claim-authors", "training",
        "draconsole:claim-author", json::array({ subject("Group", "training-team") })));
    objects.push_back(clusterRole(factory, "draconsole:viewer",
        json::array({ resourceRule({ "*" }, { "*" }, kReadVerbs),
            pathRule({ "/console/v1", "/console/v1/*" }, { "get" }),
            pathRule({ "/console/v1/templates/*" }, { "post" }) })));
    // The DRA driver publishes its slices with its own service account, as NVIDIA's chart
    // grants it; the ML platform team was given every verb on resource.k8s.io, which the access
    // view flags (it covers classes, slices and claim status).
    objects.push_back(clusterRole(factory, "nvidia-dra-driver-gpu",
        json::array({ resourceRule({ "resource.k8s.io" }, { "resourceslices" }, kWriteVerbs),
            resourceRule({ "resource.k8s.io" }, { "resourceclaims", "deviceclasses" }, kReadVerbs),
            resourceRule({ "" }, { "nodes", "pods" }, kReadVerbs) })));
    {
        json subjects = json::array({ { { "kind", "ServiceAccount" },
            { "name", "nvidia-dra-driver-gpu" }, { "namespace", kGpuOperatorNamespace } } });
        objects.push_back(binding(factory, "ClusterRoleBinding", "nvidia-dra-driver-gpu", "",
            "nvidia-dra-driver-gpu", std::move(subjects)));
    }
    objects.push_back(clusterRole(factory, "ml-platform:dra-editor",
        json::array({ resourceRule({ "resource.k8s.io" }, { "*" }, { "*" }) })));
    objects.push_back(binding(factory, "ClusterRoleBinding", "ml-platform:dra-editors", "",
        "ml-platform:dra-editor", json::array({ subject("Group", "ml-platform") })));
    // What each team may claim: training a bounded number of GPUs, batch two GPUs and no MIG
    // slices (a hard limit of 0 keeps a class out); inference is not limited.
    objects.push_back(deviceQuota(factory, "training",
        { { "gpu.nvidia.com.deviceclass.resource.k8s.io/devices", "8" },
            { "count/resourceclaims.resource.k8s.io", "20" } }));
    objects.push_back(deviceQuota(factory, "batch",
        { { "gpu.nvidia.com.deviceclass.resource.k8s.io/devices", "2" },
            { "mig.nvidia.com.deviceclass.resource.k8s.io/devices", "0" } }));
    // The in-cluster mirror's: every kind it mirrors, read; the reviews that check its users.
    objects.push_back(factory.namespaceObject(kMirrorNamespace));
    objects.push_back(clusterRole(factory, kMirrorServiceAccount,
        json::array({ resourceRule({ "resource.k8s.io" }, { "*" }, kReadVerbs),
            resourceRule({ "" },
                { "nodes", "pods", "namespaces", "events", "services", "resourcequotas" },
                kReadVerbs),
            resourceRule({ "apps" }, { "deployments", "replicasets", "daemonsets" }, kReadVerbs),
            resourceRule({ "gateway.networking.k8s.io" }, { "httproutes" }, kReadVerbs),
            resourceRule({ "rbac.authorization.k8s.io" },
                { "roles", "clusterroles", "rolebindings", "clusterrolebindings" }, kReadVerbs),
            resourceRule({ "authentication.k8s.io" }, { "tokenreviews" }, { "create" }),
            resourceRule({ "authorization.k8s.io" }, { "subjectaccessreviews" }, { "create" }) })));
    const json mirrorAccount = json::array({ { { "kind", "ServiceAccount" },
        { "name", kMirrorServiceAccount }, { "namespace", kMirrorNamespace } } });
    objects.push_back(binding(factory, "ClusterRoleBinding", kMirrorServiceAccount, "",
        kMirrorServiceAccount, mirrorAccount));
    // The Lease its replicas compete for to drive rollouts, in its own namespace only.
    {
        json role = factory.object(kRbacVersion, "Role", kMirrorServiceAccount, kMirrorNamespace);
        role["metadata"].erase("generation");
        role["rules"] = json::array({ resourceRule(
            { "coordination.k8s.io" }, { "leases" }, { "get", "create", "update" }) });
        objects.push_back(std::move(role));
        json roleBinding
            = factory.object(kRbacVersion, "RoleBinding", kMirrorServiceAccount, kMirrorNamespace);
        roleBinding["metadata"].erase("generation");
        roleBinding["roleRef"] = { { "apiGroup", "rbac.authorization.k8s.io" }, { "kind", "Role" },
            { "name", kMirrorServiceAccount } };
        roleBinding["subjects"] = mirrorAccount;
        objects.push_back(std::move(roleBinding));
    }
    // What its rollout controller writes (installer/kubernetes/rollouts): granted in the demo,
    // so that a rollout started on an in-cluster mirror of it is driven.
    objects.push_back(clusterRole(factory, kRolloutServiceAccountRole, rolloutControllerRules()));
    objects.push_back(binding(factory, "ClusterRoleBinding", kRolloutServiceAccountRole, "",
        kRolloutServiceAccountRole, mirrorAccount));
    objects.push_back(binding(factory, "ClusterRoleBinding", "draconsole:viewers", "",
        "draconsole:viewer", json::array({ subject("Group", "viewers") })));
    return objects;
}

} // namespace dra::sandbox
