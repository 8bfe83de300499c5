// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/kind.h"
#include "core/server/served_api.h"

namespace dra::server {

// A request path under /api/v1 or /apis/<group>/<version> resolved against what the server
// serves: a collection, one object, or one object's subresource.
struct ResourcePath
{
    const model::KindInfo *kind = nullptr;
    std::string apiVersion; // as the URL names it: "resource.k8s.io/v1beta1", "v1"
    std::string ns; // empty for cluster-scoped kinds and all-namespaces collections
    std::string name; // empty for a collection
    std::string subresource; // "status", or empty

    bool isCollection() const { return name.empty(); }
};

// Resolves `segments` (the path split on '/', starting with "api" or "apis" and naming at least
// a group version) to a served resource; nullopt when the server does not serve that path
// (kube-apiserver's 404 "the server could not find the requested resource").
std::optional<ResourcePath> resolveResourcePath(
    const ServedApi &api, const std::vector<std::string> &segments);

// Splits a path on '/', dropping empty segments.
std::vector<std::string> splitPath(std::string_view path);

} // namespace dra::server
