// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/rbac_policy.h"

namespace dra::sandbox {

class ObjectFactory;

// One of the demo cluster's users besides its admin: the kubeconfig context that signs in as
// them, who the server takes them for, and the namespace their context works in.
struct DemoUser
{
    std::string context;
    model::UserIdentity identity;
    std::string ns;
};

// The demo's team member ("demo-training": creates claims and templates in `training` only,
// reads the cluster-scoped DRA kinds) and viewer ("demo-viewer": reads everything, writes
// nothing). The admin ("demo") is a member of system:masters.
const std::vector<DemoUser> &demoUsers();

// The service account the in-cluster mirror runs as (installer/kubernetes): draconsole-mirror in
// namespace draconsole, bound to the installer's ClusterRole of the same name.
inline constexpr const char *kMirrorNamespace = "draconsole";
inline constexpr const char *kMirrorServiceAccount = "draconsole-mirror";
DemoUser mirrorServiceAccount();

// The RBAC objects that give them that, with the bootstrap roles every cluster has (discovery,
// the self reviews, cluster-admin): ClusterRoles, ClusterRoleBindings, a RoleBinding; and the
// teams' ResourceQuotas of devices per class.
std::vector<nlohmann::json> demoAccessObjects(const ObjectFactory &factory);

} // namespace dra::sandbox
