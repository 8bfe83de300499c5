// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/served_api.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include <nlohmann/json.hpp>

namespace dra::server {

namespace {

// "v1.36.2" / "1.36" / "v1.33.1-gke.100" -> {1, 36}; nullopt when it is not a version.
std::optional<std::pair<int, int>> parseRelease(std::string_view text)
{
    if (text.starts_with('v'))
        text.remove_prefix(1);
    int major = 0, minor = 0;
    const char *end = text.data() + text.size();
    auto [afterMajor, ec1] = std::from_chars(text.data(), end, major);
    if (ec1 != std::errc() || afterMajor == end || *afterMajor != '.')
        return std::nullopt;
    auto [afterMinor, ec2] = std::from_chars(afterMajor + 1, end, minor);
    if (ec2 != std::errc() || afterMinor == afterMajor + 1)
        return std::nullopt;
    return std::pair { major, minor };
}

bool isResource(const model::KindInfo &kind)
{
    return kind.group == model::kResourceGroup;
}

} // namespace

ServedApi::ServedApi(std::string_view gitVersion, bool writable)
    : m_writable(writable)
{
    std::optional<std::pair<int, int>> release = parseRelease(gitVersion);
    if (!release) {
        gitVersion = kDefaultGitVersion;
        release = parseRelease(gitVersion);
    }
    m_gitVersion = std::string(gitVersion);
    if (!m_gitVersion.starts_with('v'))
        m_gitVersion.insert(0, "v");
    m_major = release->first;
    m_minor = release->second;
    if (m_minor >= 36)
        m_resourceVersions = { "v1", "v1beta2", "v1beta1", "v1alpha3" };
    else if (m_minor >= 34)
        m_resourceVersions = { "v1", "v1beta2", "v1beta1" };
    else if (m_minor == 33)
        m_resourceVersions = { "v1beta2", "v1beta1", "v1alpha3" };
    else if (m_minor == 32)
        m_resourceVersions = { "v1beta1", "v1alpha3" };
    else
        m_resourceVersions = { "v1alpha3" };
    m_deviceTaintRules = m_minor >= 37;
}

void ServedApi::serveOnlyResourceVersions(const std::vector<std::string> &clusterVersions)
{
    std::vector<std::string> common;
    for (const std::string &version : m_resourceVersions)
        if (std::find(clusterVersions.begin(), clusterVersions.end(), version)
            != clusterVersions.end())
            common.push_back(version);
    if (!common.empty())
        m_resourceVersions = std::move(common);
}

const std::vector<std::string> &ServedApi::versions(std::string_view group) const
{
    // apps/v1 and the Gateway API's v1 (GA since Gateway API 1.0) are what every current
    // cluster with those groups serves.
    static const std::vector<std::string> v1 = { "v1" };
    static const std::vector<std::string> none;
    if (group.empty() || group == model::kAppsGroup || group == model::kGatewayGroup
        || group == model::kRbacGroup || group == model::kNetworkingGroup
        || group == model::kCoordinationGroup)
        return v1;
    return group == model::kResourceGroup ? m_resourceVersions : none;
}

std::vector<std::string> ServedApi::groups() const
{
    return { std::string(model::kResourceGroup), std::string(model::kAppsGroup),
        std::string(model::kGatewayGroup), std::string(model::kRbacGroup),
        std::string(model::kNetworkingGroup), std::string(model::kCoordinationGroup) };
}

std::vector<const model::KindInfo *> ServedApi::kinds(
    std::string_view group, std::string_view version) const
{
    std::vector<const model::KindInfo *> kinds;
    const std::vector<std::string> &served = versions(group);
    if (std::find(served.begin(), served.end(), version) == served.end())
        return kinds;
    for (const model::KindInfo &kind : model::allKinds()) {
        if (kind.group != group)
            continue;
        if (kind.kind == model::Kind::DeviceTaintRule
            && (!m_deviceTaintRules || version == "v1beta1"))
            continue;
        // From 1.34 on, v1alpha3 holds only ResourcePoolStatusRequest (added in 1.36).
        const bool poolStatus = kind.kind == model::Kind::ResourcePoolStatusRequest;
        if (poolStatus != (version == "v1alpha3" && m_minor >= 34))
            continue;
        kinds.push_back(&kind);
    }
    return kinds;
}

const model::KindInfo *ServedApi::kind(
    std::string_view group, std::string_view version, std::string_view plural) const
{
    for (const model::KindInfo *kind : kinds(group, version)) {
        if (kind->plural == plural)
            return kind;
    }
    return nullptr;
}

std::string ServedApi::preferredApiVersion(const model::KindInfo &kind) const
{
    if (kind.group.empty())
        return std::string(kind.preferredVersion);
    for (const std::string &version : versions(kind.group)) {
        if (this->kind(kind.group, version, kind.plural))
            return std::string(kind.group) + "/" + version;
    }
    return std::string(kind.group) + "/" + std::string(kind.preferredVersion);
}

bool ServedApi::isWritable(const model::KindInfo &kind) const
{
    return m_writable
        && (isResource(kind) || kind.kind == model::Kind::Namespace
            || model::isWorkloadKind(kind.kind) || model::isRbacKind(kind.kind)
            || !model::isMirrored(kind.kind));
}

nlohmann::json ServedApi::verbs(const model::KindInfo &kind) const
{
    if (!isWritable(kind))
        return { "get", "list", "watch" };
    if (kind.kind == model::Kind::Namespace)
        return { "create", "delete", "get", "list", "patch", "update", "watch" };
    return { "create", "delete", "deletecollection", "get", "list", "patch", "update", "watch" };
}

std::vector<std::string> ServedApi::subresources(const model::KindInfo &kind) const
{
    if (hasStatusSubresource(kind))
        return { "status" };
    return {};
}

nlohmann::json ServedApi::versionDocument() const
{
    return { { "major", std::to_string(m_major) }, { "minor", std::to_string(m_minor) },
        { "gitVersion", m_gitVersion }, { "gitCommit", "draconsole" }, { "gitTreeState", "clean" },
        { "buildDate", "2026-01-01T00:00:00Z" }, { "goVersion", "go1.24" }, { "compiler", "gc" },
        { "platform", "linux/amd64" } };
}

bool hasStatusSubresource(const model::KindInfo &kind)
{
    switch (kind.kind) {
    case model::Kind::ResourceClaim:
    case model::Kind::DeviceTaintRule:
    case model::Kind::Node:
    case model::Kind::Pod:
    case model::Kind::Namespace:
    case model::Kind::Deployment:
    case model::Kind::ReplicaSet:
    case model::Kind::DaemonSet:
    case model::Kind::Service:
    case model::Kind::HTTPRoute:
    case model::Kind::StatefulSet:
    case model::Kind::ResourcePoolStatusRequest:
        return true;
    default:
        return false;
    }
}

} // namespace dra::server
