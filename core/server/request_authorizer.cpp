// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/request_authorizer.h"

#include <nlohmann/json.hpp>

#include "core/common/logging.h"
#include "core/server/kube_status.h"
#include "core/server/request_attributes.h"
#include "core/store/cache_db.h"

namespace dra::server {

RequestAuthorizer::RequestAuthorizer(store::CacheDb &cache, std::string cluster)
    : m_cache(cache)
    , m_cluster(std::move(cluster))
{
}

const model::RbacPolicy &RequestAuthorizer::policy()
{
    Result<int64_t> rev = m_cache.currentRev();
    if (rev && m_readAt && *rev == *m_readAt)
        return m_policy;
    model::RbacPolicy policy;
    for (model::Kind kind : { model::Kind::ClusterRole, model::Kind::Role,
             model::Kind::ClusterRoleBinding, model::Kind::RoleBinding }) {
        const model::KindInfo &info = model::kindInfo(kind);
        Result<std::vector<model::ObjectRecord>> records
            = m_cache.objects(m_cluster, info.group, info.name);
        if (!records) {
            // Keep deciding with the last policy read rather than deny everyone.
            qCWarning(lcServer, "reading %s to authorise requests: %s",
                std::string(info.plural).c_str(), qPrintable(records.error().message));
            return m_policy;
        }
        for (const model::ObjectRecord &record : *records) {
            const nlohmann::json object = nlohmann::json::parse(record.json, nullptr, false);
            policy.add(kind, object);
        }
    }
    policy.finish();
    m_policy = std::move(policy);
    m_readAt = rev ? std::optional<int64_t>(*rev) : std::nullopt;
    return m_policy;
}

model::AccessDecision RequestAuthorizer::authorize(
    const model::UserIdentity &user, const model::AccessAttributes &attributes)
{
    return policy().authorize(user, attributes);
}

std::vector<model::PolicyRule> RequestAuthorizer::rulesFor(
    const model::UserIdentity &user, std::string_view ns)
{
    return policy().rulesFor(user, ns);
}

model::UserIdentity identityOf(const Request &request)
{
    model::UserIdentity user { request.user.toStdString(), {} };
    for (const QString &group : request.groups)
        user.groups.push_back(group.toStdString());
    return user;
}

Response forbiddenResponse(const model::AccessAttributes &attributes, std::string_view user)
{
    std::string why = "User \"" + std::string(user) + "\" cannot " + attributes.verb;
    if (!attributes.resourceRequest) {
        why += " path \"" + attributes.path + "\"";
        nlohmann::json body = status::object(403, "Forbidden", "forbidden: " + why);
        body["details"] = nlohmann::json::object();
        return jsonResponse(403, body);
    }
    const std::string resource = attributes.subresource.empty()
        ? attributes.resource
        : attributes.resource + "/" + attributes.subresource;
    why += " resource \"" + resource + "\" in API group \"" + attributes.apiGroup + "\"";
    why += attributes.ns.empty() ? std::string(" at the cluster scope")
                                 : " in the namespace \"" + attributes.ns + "\"";
    const std::string subject = qualifiedResource(attributes)
        + (attributes.name.empty() ? std::string() : " \"" + attributes.name + "\"");
    nlohmann::json details = { { "kind", attributes.resource } };
    if (!attributes.name.empty())
        details["name"] = attributes.name;
    if (!attributes.apiGroup.empty())
        details["group"] = attributes.apiGroup;
    nlohmann::json body = status::object(403, "Forbidden", subject + " is forbidden: " + why);
    body["details"] = std::move(details);
    return jsonResponse(403, body);
}

} // namespace dra::server
