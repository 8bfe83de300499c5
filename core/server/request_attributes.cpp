// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/request_attributes.h"

#include <cctype>
#include <vector>

#include "core/server/resource_path.h"

namespace dra::server {

namespace {

std::string lowerCase(std::string_view text)
{
    std::string lower(text);
    for (char &c : lower)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return lower;
}

bool truthy(const std::optional<std::string> &value)
{
    return value && (*value == "true" || *value == "1");
}

// The resource verb of an HTTP method: collection or single-object forms.
std::string resourceVerb(const Request &request, bool named)
{
    const std::string &method = request.method;
    if (method == "POST")
        return "create";
    if (method == "PUT")
        return "update";
    if (method == "PATCH")
        return "patch";
    if (method == "DELETE")
        return named ? "delete" : "deletecollection";
    if (method == "GET" || method == "HEAD") {
        if (truthy(request.query.value("watch")))
            return "watch";
        return named ? "get" : "list";
    }
    return lowerCase(method);
}

} // namespace

std::string qualifiedResource(const model::AccessAttributes &attributes)
{
    return attributes.apiGroup.empty() ? attributes.resource
                                       : attributes.resource + "." + attributes.apiGroup;
}

model::AccessAttributes requestAttributes(const Request &request)
{
    model::AccessAttributes attributes;
    attributes.resourceRequest = false;
    attributes.path = request.path;
    attributes.verb = lowerCase(request.method);
    if (attributes.verb == "head")
        attributes.verb = "get";
    const std::vector<std::string> segments = splitPath(request.path);
    // /api/v1/... or /apis/GROUP/VERSION/...; fewer segments are discovery (non-resource).
    size_t at = 0;
    if (segments.size() >= 3 && segments[0] == "api") {
        at = 2;
    } else if (segments.size() >= 4 && segments[0] == "apis") {
        attributes.apiGroup = segments[1];
        at = 3;
    } else {
        return attributes;
    }
    attributes.resourceRequest = true;
    std::vector<std::string> rest(segments.begin() + std::ptrdiff_t(at), segments.end());
    // namespaces/NS/RESOURCE/... is namespaced; namespaces/NS[/status|/finalize] is the Namespace
    // itself, whose namespace kube-apiserver takes to be its own name.
    if (rest.size() >= 2 && rest[0] == "namespaces") {
        attributes.ns = rest[1];
        if (rest.size() >= 3 && rest[2] != "status" && rest[2] != "finalize")
            rest.erase(rest.begin(), rest.begin() + 2);
    }
    attributes.resource = rest[0];
    if (rest.size() >= 2)
        attributes.name = rest[1];
    if (rest.size() >= 3)
        attributes.subresource = rest[2];
    attributes.verb = resourceVerb(request, !attributes.name.empty());
    // A WebSocket GET of exec, attach or portforward starts a process or a stream: authorised as
    // create, as kube-apiserver does since 1.32 (AuthorizePodWebsocketUpgradeCreatePermission).
    if (attributes.resource == "pods" && attributes.verb == "get"
        && (attributes.subresource == "exec" || attributes.subresource == "attach"
            || attributes.subresource == "portforward"))
        attributes.verb = "create";
    return attributes;
}

} // namespace dra::server
