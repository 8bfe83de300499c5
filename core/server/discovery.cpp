// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/discovery.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/model/kind.h"
#include "core/server/http_message.h"
#include "core/server/kube_status.h"

namespace dra::server::discovery {

namespace {

// A read-only mirror offers only these; writes answer 405 (KUBE-WIRE §3.2).
const nlohmann::json &verbs()
{
    static const nlohmann::json list = { "get", "list", "watch" };
    return list;
}

std::vector<const model::KindInfo *> kindsOf(std::string_view group, std::string_view version)
{
    std::vector<const model::KindInfo *> kinds;
    for (const model::KindInfo &kind : model::allKinds()) {
        if (kind.group == group && (version.empty() || kind.preferredVersion == version))
            kinds.push_back(&kind);
    }
    return kinds;
}

std::vector<std::string> versionsOf(std::string_view group)
{
    std::vector<std::string> versions;
    for (const model::KindInfo *kind : kindsOf(group, {})) {
        if (std::find(versions.begin(), versions.end(), kind->preferredVersion) == versions.end())
            versions.emplace_back(kind->preferredVersion);
    }
    return versions;
}

std::vector<std::string> servedGroups()
{
    std::vector<std::string> groups;
    for (const model::KindInfo &kind : model::allKinds()) {
        if (!kind.group.empty()
            && std::find(groups.begin(), groups.end(), kind.group) == groups.end())
            groups.emplace_back(kind.group);
    }
    return groups;
}

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

nlohmann::json aggregatedGroup(std::string_view group)
{
    nlohmann::json versions = nlohmann::json::array();
    for (const std::string &version : versionsOf(group)) {
        nlohmann::json resources = nlohmann::json::array();
        for (const model::KindInfo *kind : kindsOf(group, version)) {
            nlohmann::json resource = { { "resource", std::string(kind->plural) },
                { "responseKind",
                    { { "group", "" }, { "version", "" }, { "kind", std::string(kind->name) } } },
                { "scope", kind->namespaced ? "Namespaced" : "Cluster" },
                { "singularResource", std::string(kind->singular) }, { "verbs", verbs() } };
            if (!kind->shortNames.empty())
                resource["shortNames"] = shortNames(*kind);
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
    return acceptsMediaType(accept, {"as=APIGroupDiscoveryList", "g=apidiscovery.k8s.io", "v=v2"});
}

} // namespace

nlohmann::json version()
{
    const std::string git(kServedGitVersion);
    const size_t dot1 = git.find('.'), dot2 = git.find('.', dot1 + 1);
    return { { "major", git.substr(1, dot1 - 1) },
        { "minor", git.substr(dot1 + 1, dot2 - dot1 - 1) }, { "gitVersion", git },
        { "gitCommit", "draconsole" }, { "gitTreeState", "clean" },
        { "buildDate", "2026-01-01T00:00:00Z" }, { "goVersion", "go1.24" }, { "compiler", "gc" },
        { "platform", "linux/amd64" } };
}

Response apiRoot(const Request &request, bool core, const std::string &serverAddress)
{
    if (acceptsAggregated(request.header("accept"))) {
        nlohmann::json items = nlohmann::json::array();
        if (core) {
            items.push_back(aggregatedGroup(""));
        } else {
            for (const std::string &group : servedGroups())
                items.push_back(aggregatedGroup(group));
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
    for (const std::string &group : servedGroups())
        groups.push_back(apiGroup(group));
    return jsonResponse(200,
        { { "kind", "APIGroupList" }, { "apiVersion", "v1" }, { "groups", std::move(groups) } });
}

nlohmann::json apiGroup(std::string_view group)
{
    const std::vector<std::string> versions = versionsOf(group);
    if (group.empty() || versions.empty())
        return nullptr;
    nlohmann::json list = nlohmann::json::array();
    for (const std::string &version : versions)
        list.push_back(
            { { "groupVersion", groupVersion(group, version) }, { "version", version } });
    return { { "kind", "APIGroup" }, { "apiVersion", "v1" }, { "name", std::string(group) },
        { "versions", list }, { "preferredVersion", list.front() } };
}

nlohmann::json resourceList(std::string_view group, std::string_view version)
{
    const std::vector<const model::KindInfo *> kinds = kindsOf(group, version);
    if (kinds.empty())
        return nullptr;
    nlohmann::json resources = nlohmann::json::array();
    for (const model::KindInfo *kind : kinds) {
        nlohmann::json resource = { { "name", std::string(kind->plural) },
            { "singularName", std::string(kind->singular) }, { "namespaced", kind->namespaced },
            { "kind", std::string(kind->name) }, { "verbs", verbs() } };
        if (!kind->shortNames.empty())
            resource["shortNames"] = shortNames(*kind);
        resources.push_back(std::move(resource));
    }
    return { { "kind", "APIResourceList" }, { "apiVersion", "v1" },
        { "groupVersion", groupVersion(group, version) }, { "resources", std::move(resources) } };
}

} // namespace dra::server::discovery
