// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/kind.h"

namespace dra::server {

// The release the server claims when the cache does not say which one it mirrors. kubectl's
// dispatcher picks the kubectl.1.<minor> it runs from /version, and resource.k8s.io/v1 is GA
// in 1.34.
inline constexpr std::string_view kDefaultGitVersion = "v1.34.0";
// What the demo cluster reports: a current release.
inline constexpr std::string_view kDemoGitVersion = "v1.36.0";

// What one server offers: the Kubernetes release it claims and, derived from it, the
// resource.k8s.io versions and kinds that release serves with DRA enabled and its feature gates
// at their defaults:
//   1.31       v1alpha3
//   1.32       v1beta1 (preferred), v1alpha3
//   1.33       v1beta2 (preferred), v1beta1, v1alpha3
//   1.34 on    v1 (preferred, GA), v1beta2, v1beta1
// DeviceTaintRule is served only where its gate is on by default (DRADeviceTaintRules, GA in
// 1.37). Core v1 Nodes, Namespaces, Pods and Events are always served. Writes are allowed on
// the resource.k8s.io kinds and Namespaces when `writable`. Plain value, any thread.
class ServedApi final
{
public:
    // `gitVersion` as /version reports it ("v1.36.2"); empty or unparsable: kDefaultGitVersion.
    explicit ServedApi(std::string_view gitVersion = kDefaultGitVersion, bool writable = false);

    // A mirror serves of resource.k8s.io only what its cluster serves too: `clusterVersions`
    // (its discovery's) narrows this release's versions, so an alpha version the cluster has
    // off (v1alpha3's ResourcePoolStatusRequest, behind a gate in 1.36) is not advertised.
    // None in common: the release's versions stay (a cluster without DRA still has a cache).
    void serveOnlyResourceVersions(const std::vector<std::string> &clusterVersions);

    const std::string &gitVersion() const { return m_gitVersion; }
    int minor() const { return m_minor; }
    bool writable() const { return m_writable; }

    // The versions of `group` served, preferred first ("" is core: {"v1"}).
    const std::vector<std::string> &versions(std::string_view group) const;
    // The groups served besides core, in discovery order.
    std::vector<std::string> groups() const;
    // The kinds served in group/version, in discovery order.
    std::vector<const model::KindInfo *> kinds(
        std::string_view group, std::string_view version) const;
    // The kind served at group/version/plural, or nullptr.
    const model::KindInfo *kind(
        std::string_view group, std::string_view version, std::string_view plural) const;
    // The preferred apiVersion of a kind ("resource.k8s.io/v1beta2" on a 1.33 server).
    std::string preferredApiVersion(const model::KindInfo &kind) const;

    // Whether `kind` accepts create, update, patch and delete on this server.
    bool isWritable(const model::KindInfo &kind) const;
    // Discovery verbs of a kind, sorted as kube-apiserver lists them.
    nlohmann::json verbs(const model::KindInfo &kind) const;
    // The subresources (e.g. "status") a kind serves through the API.
    std::vector<std::string> subresources(const model::KindInfo &kind) const;

    // The /version document.
    nlohmann::json versionDocument() const;

private:
    std::string m_gitVersion;
    int m_major = 1;
    int m_minor = 34;
    bool m_writable = false;
    std::vector<std::string> m_resourceVersions;
    bool m_deviceTaintRules = false;
};

// Whether kube-apiserver serves a status subresource for `kind` (ResourceClaim,
// DeviceTaintRule, and core objects with a status).
bool hasStatusSubresource(const model::KindInfo &kind);

} // namespace dra::server
