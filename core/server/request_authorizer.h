// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/rbac_policy.h"
#include "core/server/http_message.h"

namespace dra::store {
class CacheDb;
}

namespace dra::server {

// Authorises each request of a served cluster with the RBAC objects its cache holds, as
// kube-apiserver's RBAC authorizer does: the demo cluster's Roles and bindings decide what each
// demo user may do. Thread of the cache.
class RequestAuthorizer final
{
public:
    RequestAuthorizer(store::CacheDb &cache, std::string cluster);

    model::AccessDecision authorize(
        const model::UserIdentity &user, const model::AccessAttributes &attributes);
    std::vector<model::PolicyRule> rulesFor(const model::UserIdentity &user, std::string_view ns);

private:
    // The policy as the cache holds it now, read again when the cache has changed since.
    const model::RbacPolicy &policy();

    store::CacheDb &m_cache;
    std::string m_cluster;
    model::RbacPolicy m_policy;
    std::optional<int64_t> m_readAt; // the cache revision m_policy was read at
};

// Who `request` was authenticated as.
model::UserIdentity identityOf(const Request &request);

// 403 Forbidden worded as kube-apiserver's: `resourceclaims.resource.k8s.io is forbidden: User
// "alice" cannot list resource "resourceclaims" in API group "resource.k8s.io" at the cluster
// scope`.
Response forbiddenResponse(const model::AccessAttributes &attributes, std::string_view user);

} // namespace dra::server
