// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/kind.h"

#include <algorithm>
#include <cctype>

namespace dra::model {

namespace {

const std::vector<KindInfo> &registry()
{
    static const std::vector<KindInfo> kinds = {
        { Kind::DeviceClass, kResourceGroup, "DeviceClass", "deviceclasses", "deviceclass", {},
            false, "v1" },
        { Kind::ResourceSlice, kResourceGroup, "ResourceSlice", "resourceslices", "resourceslice",
            {}, false, "v1" },
        { Kind::ResourceClaim, kResourceGroup, "ResourceClaim", "resourceclaims", "resourceclaim",
            {}, true, "v1" },
        { Kind::ResourceClaimTemplate, kResourceGroup, "ResourceClaimTemplate",
            "resourceclaimtemplates", "resourceclaimtemplate", {}, true, "v1" },
        { Kind::DeviceTaintRule, kResourceGroup, "DeviceTaintRule", "devicetaintrules",
            "devicetaintrule", {}, false, "v1" },
        { Kind::Node, "", "Node", "nodes", "node", { "no" }, false, "v1" },
        { Kind::Pod, "", "Pod", "pods", "pod", { "po" }, true, "v1" },
        { Kind::Namespace, "", "Namespace", "namespaces", "namespace", { "ns" }, false, "v1" },
        { Kind::Event, "", "Event", "events", "event", { "ev" }, true, "v1" },
        { Kind::Deployment, kAppsGroup, "Deployment", "deployments", "deployment", { "deploy" },
            true, "v1" },
        { Kind::ReplicaSet, kAppsGroup, "ReplicaSet", "replicasets", "replicaset", { "rs" }, true,
            "v1" },
        { Kind::DaemonSet, kAppsGroup, "DaemonSet", "daemonsets", "daemonset", { "ds" }, true,
            "v1" },
        { Kind::Service, "", "Service", "services", "service", { "svc" }, true, "v1" },
        { Kind::HTTPRoute, kGatewayGroup, "HTTPRoute", "httproutes", "httproute", {}, true, "v1" },
        { Kind::Role, kRbacGroup, "Role", "roles", "role", {}, true, "v1" },
        { Kind::ClusterRole, kRbacGroup, "ClusterRole", "clusterroles", "clusterrole", {}, false,
            "v1" },
        { Kind::RoleBinding, kRbacGroup, "RoleBinding", "rolebindings", "rolebinding", {}, true,
            "v1" },
        { Kind::ClusterRoleBinding, kRbacGroup, "ClusterRoleBinding", "clusterrolebindings",
            "clusterrolebinding", {}, false, "v1" },
        { Kind::ResourceQuota, "", "ResourceQuota", "resourcequotas", "resourcequota", { "quota" },
            true, "v1" },
        { Kind::ServiceAccount, "", "ServiceAccount", "serviceaccounts", "serviceaccount", { "sa" },
            true, "v1" },
        { Kind::StatefulSet, kAppsGroup, "StatefulSet", "statefulsets", "statefulset", { "sts" },
            true, "v1" },
        { Kind::NetworkPolicy, kNetworkingGroup, "NetworkPolicy", "networkpolicies",
            "networkpolicy", { "netpol" }, true, "v1" },
        { Kind::Lease, kCoordinationGroup, "Lease", "leases", "lease", {}, true, "v1" },
        { Kind::ResourcePoolStatusRequest, kResourceGroup, "ResourcePoolStatusRequest",
            "resourcepoolstatusrequests", "resourcepoolstatusrequest", {}, false, "v1alpha3" },
    };
    return kinds;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x))
            == std::tolower(static_cast<unsigned char>(y));
    });
}

} // namespace

std::span<const KindInfo> allKinds()
{
    return registry();
}

const KindInfo &kindInfo(Kind kind)
{
    for (const KindInfo &info : registry())
        if (info.kind == kind)
            return info;
    static const KindInfo unknown { Kind::Unknown, "", "Unknown", "", "", {}, false, "" };
    return unknown;
}

const KindInfo *findKind(std::string_view userName)
{
    std::string_view name = userName;
    std::string_view group;
    if (const size_t dot = userName.find('.'); dot != std::string_view::npos) {
        name = userName.substr(0, dot);
        group = userName.substr(dot + 1);
    }
    for (const KindInfo &info : registry()) {
        if (!group.empty() && group != info.group)
            continue;
        if (equalsIgnoreCase(name, info.plural) || equalsIgnoreCase(name, info.singular)
            || equalsIgnoreCase(name, info.name))
            return &info;
        for (std::string_view shortName : info.shortNames)
            if (equalsIgnoreCase(name, shortName))
                return &info;
    }
    return nullptr;
}

bool isWorkloadKind(Kind kind)
{
    switch (kind) {
    case Kind::Deployment:
    case Kind::ReplicaSet:
    case Kind::DaemonSet:
    case Kind::Service:
    case Kind::HTTPRoute:
        return true;
    default:
        return false;
    }
}

bool isRbacKind(Kind kind)
{
    return kind == Kind::Role || kind == Kind::ClusterRole || kind == Kind::RoleBinding
        || kind == Kind::ClusterRoleBinding;
}

bool isMirrored(Kind kind)
{
    return kind != Kind::ServiceAccount && kind != Kind::StatefulSet && kind != Kind::NetworkPolicy
        && kind != Kind::Lease && kind != Kind::ResourcePoolStatusRequest;
}

std::pair<std::string_view, std::string_view> splitApiVersion(std::string_view apiVersion)
{
    const size_t slash = apiVersion.find('/');
    if (slash == std::string_view::npos)
        return { std::string_view {}, apiVersion };
    return { apiVersion.substr(0, slash), apiVersion.substr(slash + 1) };
}

const KindInfo *kindOf(std::string_view apiVersion, std::string_view kindName)
{
    const auto [group, version] = splitApiVersion(apiVersion);
    if (version.empty())
        return nullptr;
    for (const KindInfo &info : registry())
        if (info.group == group && info.name == kindName)
            return &info;
    return nullptr;
}

} // namespace dra::model
