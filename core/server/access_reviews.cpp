// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/access_reviews.h"

#include <algorithm>

#include "core/server/kube_status.h"
#include "core/server/protobuf_body.h"

namespace dra::server::access_reviews {

using nlohmann::json;

namespace {

constexpr std::string_view kAccessReviews
    = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
constexpr std::string_view kRulesReviews = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";

json readVerbs()
{
    return json::array({ "get", "list", "watch" });
}

json reviewKinds()
{
    return json::array(
        { { { "resource", "selfsubjectaccessreviews" }, { "kind", "SelfSubjectAccessReview" } },
            { { "resource", "selfsubjectrulesreviews" }, { "kind", "SelfSubjectRulesReview" } } });
}

json accessStatus(const json &spec, bool writable)
{
    std::string verb;
    if (spec.contains("resourceAttributes") && spec["resourceAttributes"].is_object())
        verb = spec["resourceAttributes"].value("verb", "");
    else if (spec.contains("nonResourceAttributes") && spec["nonResourceAttributes"].is_object())
        verb = spec["nonResourceAttributes"].value("verb", "");
    const json reads = readVerbs();
    const bool allowed = writable || std::find(reads.begin(), reads.end(), verb) != reads.end();
    json status = { { "allowed", allowed } };
    status["reason"] = allowed
        ? (writable ? "the server is writable and every authenticated user is its admin"
                    : "the server is read-only; reading is allowed")
        : "the server is read-only: only get, list and watch are allowed";
    if (!allowed)
        status["denied"] = true;
    return status;
}

json rulesStatus(bool writable)
{
    const json verbs = writable ? json::array({ "*" }) : readVerbs();
    return { { "resourceRules",
                 json::array({ { { "verbs", verbs }, { "apiGroups", json::array({ "*" }) },
                     { "resources", json::array({ "*" }) } } }) },
        { "nonResourceRules",
            json::array({ { { "verbs", json::array({ "get" }) },
                { "nonResourceURLs", json::array({ "*" }) } } }) },
        { "incomplete", false } };
}

} // namespace

bool isReviewPath(std::string_view path)
{
    return path == kAccessReviews || path == kRulesReviews;
}

Response answer(const Request &request, bool writable)
{
    const bool rules = request.path == kRulesReviews;
    const char *kind = rules ? "SelfSubjectRulesReview" : "SelfSubjectAccessReview";
    json review;
    if (request.header("content-type").starts_with(kProtobufType)) {
        Result<json> decoded = decodeProtobufBody(request.body);
        if (!decoded)
            return status::fromError(decoded.error());
        review = std::move(*decoded);
    } else {
        review = json::parse(request.body.begin(), request.body.end(), nullptr, false);
    }
    if (!review.is_object() || (review.contains("spec") && !review["spec"].is_object()))
        return status::badRequest(std::string(kind) + ": the body is not a " + kind);
    const json spec = review.value("spec", json::object());
    return jsonResponse(201,
        { { "kind", kind }, { "apiVersion", "authorization.k8s.io/v1" },
            { "metadata", { { "creationTimestamp", nullptr } } }, { "spec", spec },
            { "status", rules ? rulesStatus(writable) : accessStatus(spec, writable) } });
}

json apiGroup()
{
    const json version = { { "groupVersion", "authorization.k8s.io/v1" }, { "version", "v1" } };
    return { { "kind", "APIGroup" }, { "apiVersion", "v1" }, { "name", kGroup },
        { "versions", json::array({ version }) }, { "preferredVersion", version } };
}

json resourceList()
{
    json resources = json::array();
    for (const json &review : reviewKinds())
        resources.push_back(
            { { "name", review["resource"] }, { "singularName", "" }, { "namespaced", false },
                { "kind", review["kind"] }, { "verbs", json::array({ "create" }) } });
    return { { "kind", "APIResourceList" }, { "apiVersion", "v1" },
        { "groupVersion", "authorization.k8s.io/v1" }, { "resources", std::move(resources) } };
}

json aggregatedGroup()
{
    json resources = json::array();
    for (const json &review : reviewKinds())
        resources.push_back({ { "resource", review["resource"] },
            { "responseKind", { { "group", "" }, { "version", "" }, { "kind", review["kind"] } } },
            { "scope", "Cluster" }, { "singularResource", "" },
            { "verbs", json::array({ "create" }) } });
    return { { "metadata", { { "name", kGroup } } },
        { "versions",
            json::array({ { { "version", kVersion }, { "resources", std::move(resources) },
                { "freshness", "Current" } } }) } };
}

} // namespace dra::server::access_reviews
