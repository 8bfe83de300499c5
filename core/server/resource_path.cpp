// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/resource_path.h"

namespace dra::server {

std::vector<std::string> splitPath(std::string_view path)
{
    std::vector<std::string> segments;
    size_t start = 0;
    while (start < path.size()) {
        size_t end = path.find('/', start);
        if (end == std::string_view::npos)
            end = path.size();
        if (end > start)
            segments.emplace_back(path.substr(start, end - start));
        start = end + 1;
    }
    return segments;
}

std::optional<ResourcePath> resolveResourcePath(
    const ServedApi &api, const std::vector<std::string> &segments)
{
    const bool core = !segments.empty() && segments[0] == "api";
    const size_t prefix = core ? 2 : 3;
    if (segments.size() <= prefix)
        return std::nullopt;
    const std::string group = core ? std::string() : segments[1];
    const std::string &version = segments[prefix - 1];
    const std::vector<std::string> rest(segments.begin() + long(prefix), segments.end());

    ResourcePath path;
    path.apiVersion = core ? version : group + "/" + version;
    auto isSubresource = [&](const model::KindInfo *kind, const std::string &sub) {
        for (const std::string &served : api.subresources(*kind)) {
            if (served == sub)
                return true;
        }
        return false;
    };

    // namespaces/{ns}/{plural}[/{name}[/{sub}]]
    if (rest.size() >= 3 && rest[0] == "namespaces") {
        if (const model::KindInfo *kind = api.kind(group, version, rest[2]);
            kind && kind->namespaced && rest.size() <= 5) {
            path.kind = kind;
            path.ns = rest[1];
            path.name = rest.size() >= 4 ? rest[3] : std::string();
            path.subresource = rest.size() == 5 ? rest[4] : std::string();
            if (!path.subresource.empty() && !isSubresource(kind, path.subresource))
                return std::nullopt;
            return path;
        }
    }
    // {plural}[/{name}[/{sub}]]: a namespaced kind here is an all-namespaces collection only.
    const model::KindInfo *kind = api.kind(group, version, rest[0]);
    if (!kind || rest.size() > 3 || (kind->namespaced && rest.size() > 1))
        return std::nullopt;
    path.kind = kind;
    path.name = rest.size() >= 2 ? rest[1] : std::string();
    path.subresource = rest.size() == 3 ? rest[2] : std::string();
    if (!path.subresource.empty() && !isSubresource(kind, path.subresource))
        return std::nullopt;
    return path;
}

} // namespace dra::server
