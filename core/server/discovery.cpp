// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/discovery.h"

#include <nlohmann/json.hpp>

#include "core/model/kind.h"
#include "core/server/access_reviews.h"
#include "core/server/http_message.h"
#include "core/server/kube_status.h"

namespace dra::server::discovery {

namespace {

std::string groupVersion(std::string_view group, std::string_view version)
{
    return group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
}

nlohmann::json shortNames(const model::KindInfo &kind)
{
    nlohmann::json names = nlohmann::json::array();
    for (std::string_view name : kind.shortNames)
        names.push_back(std::string(name));
    return names;
}

// Subresources keep the verbs kube-apiserver gives them: a status can be read, and written
// only where the main resource can.
nlohmann::json subresourceVerbs(const ServedApi &api, const model::KindInfo &kind)
{
    if (api.isWritable(kind))
        return { "get", "patch", "update" };
    return { "get" };
}

nlohmann::json aggregatedGroup(const ServedApi &api, std::string_view group)
{
    nlohmann::json versions = nlohmann::json::array();
    for (const std::string &version : api.versions(group)) {
        nlohmann::json resources = nlohmann::json::array();
        for (const model::KindInfo *kind : api.kinds(group, version)) {
            nlohmann::json resource = { { "resource", std::string(kind->plural) },
                { "responseKind",
                    { { "group", "" }, { "version", "" }, { "kind", std::string(kind->name) } } },
                { "scope", kind->namespaced ? "Namespaced" : "Cluster" },
                { "singularResource", std::string(kind->singular) },
                { "verbs", api.verbs(*kind) } };
            if (!kind->shortNames.empty())
                resource["shortNames"] = shortNames(*kind);
            nlohmann::json subresources = nlohmann::json::array();
            for (const std::string &sub : api.subresources(*kind))
                subresources.push_back({ { "subresource", sub },
                    { "responseKind",
                        { { "group", "" }, { "version", "" },
                            { "kind", std::string(kind->name) } } },
                    { "verbs", subresourceVerbs(api, *kind) } });
            if (!subresources.empty())
                resource["subresources"] = std::move(subresources);
            resources.push_back(std::move(resource));
        }
        versions.push_back({ { "version", version }, { "resources", std::move(resources) },
            { "freshness", "Current" } });
    }
    return { { "metadata", { { "name", std::string(group) } } },
        { "versions", std::move(versions) } };
}

// True when one Accept clause names aggregated discovery v2 (v2beta1 alone gets legacy).
bool acceptsAggregated(std::string_view accept)
{
    return acceptsMediaType(
        accept, { "as=APIGroupDiscoveryList", "g=apidiscovery.k8s.io", "v=v2" });
}

} // namespace

Response apiRoot(
    const ServedApi &api, const Request &request, bool core, const std::string &serverAddress)
{
    if (acceptsAggregated(request.header("accept"))) {
        nlohmann::json items = nlohmann::json::array();
        if (core) {
            items.push_back(aggregatedGroup(api, ""));
        } else {
            for (const std::string &group : api.groups())
                items.push_back(aggregatedGroup(api, group));
            for (std::string_view group : access_reviews::groups())
                items.push_back(access_reviews::aggregatedGroup(group));
        }
        return jsonResponse(200,
            { { "kind", "APIGroupDiscoveryList" }, { "apiVersion", "apidiscovery.k8s.io/v2" },
                { "metadata", nlohmann::json::object() }, { "items", std::move(items) } },
            std::string(kAggregatedDiscoveryType));
    }
    const nlohmann::json cidrs
        = { { { "clientCIDR", "0.0.0.0/0" }, { "serverAddress", serverAddress } } };
    if (core)
        return jsonResponse(200,
            { { "kind", "APIVersions" }, { "versions", { "v1" } },
                { "serverAddressByClientCIDRs", cidrs } });
    nlohmann::json groups = nlohmann::json::array();
    for (const std::string &group : api.groups())
        groups.push_back(apiGroup(api, group));
    for (std::string_view group : access_reviews::groups())
        groups.push_back(access_reviews::apiGroup(group));
    return jsonResponse(200,
        { { "kind", "APIGroupList" }, { "apiVersion", "v1" }, { "groups", std::move(groups) } });
}

nlohmann::json apiGroup(const ServedApi &api, std::string_view group)
{
    if (nlohmann::json reviews = access_reviews::apiGroup(group); !reviews.is_null())
        return reviews;
    const std::vector<std::string> &versions = api.versions(group);
    if (group.empty() || versions.empty())
        return nullptr;
    nlohmann::json list = nlohmann::json::array();
    for (const std::string &version : versions)
        list.push_back(
            { { "groupVersion", groupVersion(group, version) }, { "version", version } });
    return { { "kind", "APIGroup" }, { "apiVersion", "v1" }, { "name", std::string(group) },
        { "versions", list }, { "preferredVersion", list.front() } };
}

nlohmann::json resourceList(const ServedApi &api, std::string_view group, std::string_view version)
{
    if (!access_reviews::apiGroup(group).is_null())
        return access_reviews::resourceList(group, version);
    const std::vector<const model::KindInfo *> kinds = api.kinds(group, version);
    if (kinds.empty())
        return nullptr;
    nlohmann::json resources = nlohmann::json::array();
    for (const model::KindInfo *kind : kinds) {
        nlohmann::json resource = { { "name", std::string(kind->plural) },
            { "singularName", std::string(kind->singular) }, { "namespaced", kind->namespaced },
            { "kind", std::string(kind->name) }, { "verbs", api.verbs(*kind) } };
        if (!kind->shortNames.empty())
            resource["shortNames"] = shortNames(*kind);
        resources.push_back(std::move(resource));
        for (const std::string &sub : api.subresources(*kind))
            resources.push_back({ { "name", std::string(kind->plural) + "/" + sub },
                { "singularName", "" }, { "namespaced", kind->namespaced },
                { "kind", std::string(kind->name) }, { "verbs", subresourceVerbs(api, *kind) } });
    }
    return { { "kind", "APIResourceList" }, { "apiVersion", "v1" },
        { "groupVersion", groupVersion(group, version) }, { "resources", std::move(resources) } };
}

} // namespace dra::server::discovery
