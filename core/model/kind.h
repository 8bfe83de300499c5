// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::model {

// The kinds DRA Console understands. Everything else a dump may hold is `Unknown` and is
// reported, not guessed at.
enum class Kind {
    DeviceClass,
    ResourceSlice,
    ResourceClaim,
    ResourceClaimTemplate,
    DeviceTaintRule,
    Node,
    Pod,
    Namespace,
    Event,
    // The workloads a rollout moves and what routes traffic to them.
    Deployment,
    ReplicaSet,
    DaemonSet,
    Service,
    HTTPRoute,
    // Who may do what: read to answer access questions and to authorise each request of a
    // served mirror as the cluster would.
    Role,
    ClusterRole,
    RoleBinding,
    ClusterRoleBinding,
    // How many devices of each class a namespace may claim.
    ResourceQuota,
    // What the in-cluster mirror's own manifests hold besides the kinds above: served (with their
    // schemas, so `kubectl apply --dry-run=server` checks them) but never mirrored.
    ServiceAccount,
    StatefulSet,
    NetworkPolicy,
    // coordination.k8s.io/v1: the lock the in-cluster mirror's rollout controller holds so that
    // an old and a new replica never both drive rollouts. Served, never mirrored.
    Lease,
    // A question to the cluster (resource.k8s.io/v1alpha3, Kubernetes 1.36): each pool's device
    // totals as the cluster counts them. Created on demand, answered in its status, deleted.
    ResourcePoolStatusRequest,
    Unknown,
};

// Static facts about a kind: its API group, REST names and scope, as kubectl knows them.
struct KindInfo
{
    Kind kind;
    std::string_view group; // "" for core
    std::string_view name; // "ResourceSlice"
    std::string_view plural; // "resourceslices"
    std::string_view singular; // "resourceslice"
    std::vector<std::string_view> shortNames; // kubectl's: "no", "po", "ns", "ev"
    bool namespaced;
    std::string_view preferredVersion; // "v1"
};

// Every known kind, in the order listings show them.
std::span<const KindInfo> allKinds();

const KindInfo &kindInfo(Kind kind);

// Resolves what a user types after `get`: plural, singular, short name, Kind (any case),
// or `plural.group` ("resourceslices.resource.k8s.io"). nullptr when unknown.
const KindInfo *findKind(std::string_view userName);

// The kind of a decoded object's `apiVersion` + `kind` fields; nullptr for kinds we don't know
// or a group that does not define that kind.
const KindInfo *kindOf(std::string_view apiVersion, std::string_view kindName);

// "resource.k8s.io/v1beta1" -> {"resource.k8s.io", "v1beta1"}; "v1" -> {"", "v1"}.
std::pair<std::string_view, std::string_view> splitApiVersion(std::string_view apiVersion);

inline constexpr std::string_view kResourceGroup = "resource.k8s.io";
inline constexpr std::string_view kAppsGroup = "apps";
inline constexpr std::string_view kGatewayGroup = "gateway.networking.k8s.io";
inline constexpr std::string_view kRbacGroup = "rbac.authorization.k8s.io";
inline constexpr std::string_view kNetworkingGroup = "networking.k8s.io";
inline constexpr std::string_view kCoordinationGroup = "coordination.k8s.io";

// The kinds a rollout works on (Deployments ... HTTPRoutes): mirrored only in the namespaces a
// user chooses, never cluster-wide by default.
bool isWorkloadKind(Kind kind);
// Role, ClusterRole and their bindings.
bool isRbacKind(Kind kind);
// Whether a live mirror follows the kind: every kind but those served only for manifests.
bool isMirrored(Kind kind);

} // namespace dra::model
