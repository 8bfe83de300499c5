// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/access_reviews.h"

#include <algorithm>

#include "core/server/kube_status.h"
#include "core/server/protobuf_body.h"
#include "core/server/request_authorizer.h"

namespace dra::server::access_reviews {

using nlohmann::json;

namespace {

// One review kind: where it is POSTed and what it is called.
struct ReviewKind
{
    std::string_view group, resource, kind;
};

constexpr ReviewKind kReviews[] = {
    { kAuthorizationGroup, "selfsubjectaccessreviews", "SelfSubjectAccessReview" },
    { kAuthorizationGroup, "selfsubjectrulesreviews", "SelfSubjectRulesReview" },
    { kAuthorizationGroup, "subjectaccessreviews", "SubjectAccessReview" },
    { kAuthenticationGroup, "selfsubjectreviews", "SelfSubjectReview" },
    { kAuthenticationGroup, "tokenreviews", "TokenReview" },
};

std::string reviewPath(const ReviewKind &review)
{
    return "/apis/" + std::string(review.group) + "/" + std::string(kVersion) + "/"
        + std::string(review.resource);
}

const ReviewKind *reviewAt(std::string_view path)
{
    for (const ReviewKind &review : kReviews)
        if (reviewPath(review) == path)
            return &review;
    return nullptr;
}

json stringArray(const std::vector<std::string> &values)
{
    json array = json::array();
    for (const std::string &value : values)
        array.push_back(value);
    return array;
}

std::vector<std::string> stringsOf(const json &spec, const char *field)
{
    std::vector<std::string> values;
    if (spec.contains(field) && spec[field].is_array())
        for (const json &value : spec[field])
            if (value.is_string())
                values.push_back(value.get<std::string>());
    return values;
}

// The attributes a review's spec asks about.
model::AccessAttributes reviewedAttributes(const json &spec)
{
    model::AccessAttributes attributes;
    if (spec.contains("nonResourceAttributes") && spec["nonResourceAttributes"].is_object()) {
        const json &asked = spec["nonResourceAttributes"];
        attributes.resourceRequest = false;
        attributes.verb = asked.value("verb", "");
        attributes.path = asked.value("path", "");
        return attributes;
    }
    const json asked = spec.contains("resourceAttributes") && spec["resourceAttributes"].is_object()
        ? spec["resourceAttributes"]
        : json::object();
    attributes.verb = asked.value("verb", "");
    attributes.apiGroup = asked.value("group", "");
    attributes.resource = asked.value("resource", "");
    attributes.subresource = asked.value("subresource", "");
    attributes.ns = asked.value("namespace", "");
    attributes.name = asked.value("name", "");
    return attributes;
}

json decisionStatus(const model::AccessDecision &decision)
{
    json status = { { "allowed", decision.allowed } };
    if (!decision.reason.empty())
        status["reason"] = decision.reason;
    return status;
}

// Without RBAC: the server's one user is its admin.
json singleUserAccess(const model::AccessAttributes &attributes, bool writable)
{
    const bool read
        = attributes.verb == "get" || attributes.verb == "list" || attributes.verb == "watch";
    const bool allowed = writable || read;
    json status = { { "allowed", allowed } };
    status["reason"] = allowed
        ? (writable ? "the server is writable and every authenticated user is its admin"
                    : "the server is read-only; reading is allowed")
        : "the server is read-only: only get, list and watch are allowed";
    if (!allowed)
        status["denied"] = true;
    return status;
}

json accessStatus(const model::UserIdentity &user, const json &spec, const Reviewer &reviewer)
{
    const model::AccessAttributes attributes = reviewedAttributes(spec);
    if (!reviewer.authorize)
        return singleUserAccess(attributes, reviewer.writable);
    return decisionStatus(reviewer.authorize(user, attributes));
}

json rulesStatus(const model::UserIdentity &user, const json &spec, const Reviewer &reviewer)
{
    if (!reviewer.rules) {
        const json verbs
            = reviewer.writable ? json::array({ "*" }) : json::array({ "get", "list", "watch" });
        return { { "resourceRules",
                     json::array({ { { "verbs", verbs }, { "apiGroups", json::array({ "*" }) },
                         { "resources", json::array({ "*" }) } } }) },
            { "nonResourceRules",
                json::array({ { { "verbs", json::array({ "get" }) },
                    { "nonResourceURLs", json::array({ "*" }) } } }) },
            { "incomplete", false } };
    }
    json resourceRules = json::array();
    json nonResourceRules = json::array();
    for (const model::PolicyRule &rule : reviewer.rules(user, spec.value("namespace", ""))) {
        if (!rule.nonResourceURLs.empty()) {
            nonResourceRules.push_back({ { "verbs", stringArray(rule.verbs) },
                { "nonResourceURLs", stringArray(rule.nonResourceURLs) } });
            continue;
        }
        json entry
            = { { "verbs", stringArray(rule.verbs) }, { "apiGroups", stringArray(rule.apiGroups) },
                  { "resources", stringArray(rule.resources) } };
        if (!rule.resourceNames.empty())
            entry["resourceNames"] = stringArray(rule.resourceNames);
        resourceRules.push_back(std::move(entry));
    }
    return { { "resourceRules", std::move(resourceRules) },
        { "nonResourceRules", std::move(nonResourceRules) }, { "incomplete", false } };
}

json userInfo(const model::UserIdentity &user)
{
    return { { "username", user.name }, { "groups", stringArray(user.groups) } };
}

json tokenStatus(const json &spec, const Reviewer &reviewer)
{
    const std::string token = spec.value("token", "");
    std::optional<model::UserIdentity> user;
    if (reviewer.authenticateToken && !token.empty())
        user = reviewer.authenticateToken(token);
    if (!user)
        return { { "authenticated", false }, { "user", json::object() },
            { "error", "the token is not one this server issued" } };
    return { { "authenticated", true }, { "user", userInfo(*user) } };
}

Result<json> reviewBody(const Request &request)
{
    if (request.header("content-type").starts_with(kProtobufType))
        return decodeProtobufBody(request.body);
    return json::parse(request.body.begin(), request.body.end(), nullptr, false);
}

} // namespace

bool isReviewPath(std::string_view path)
{
    return reviewAt(path) != nullptr;
}

Response answer(const Request &request, const Reviewer &reviewer)
{
    const ReviewKind *review = reviewAt(request.path);
    if (!review)
        return status::unknownPath();
    const std::string kind(review->kind);
    Result<json> body = reviewBody(request);
    if (!body)
        return status::fromError(body.error());
    if (!body->is_object() || (body->contains("spec") && !(*body)["spec"].is_object()))
        return status::badRequest(kind + ": the body is not a " + kind);
    const json spec = body->value("spec", json::object());
    const model::UserIdentity caller = identityOf(request);
    json status;
    if (kind == "SelfSubjectAccessReview") {
        status = accessStatus(caller, spec, reviewer);
    } else if (kind == "SelfSubjectRulesReview") {
        status = rulesStatus(caller, spec, reviewer);
    } else if (kind == "SubjectAccessReview") {
        const model::UserIdentity subject { spec.value("user", ""), stringsOf(spec, "groups") };
        status = accessStatus(subject, spec, reviewer);
    } else if (kind == "SelfSubjectReview") {
        status = { { "userInfo", userInfo(caller) } };
    } else {
        status = tokenStatus(spec, reviewer);
    }
    json answer = { { "kind", kind },
        { "apiVersion", std::string(review->group) + "/" + std::string(kVersion) },
        { "metadata", { { "creationTimestamp", nullptr } } }, { "status", std::move(status) } };
    if (kind != "SelfSubjectReview") {
        json echoed = spec;
        if (kind == "TokenReview")
            echoed.erase("token"); // never sent back: it is a credential
        answer["spec"] = std::move(echoed);
    }
    return jsonResponse(201, answer);
}

std::vector<std::string_view> groups()
{
    return { kAuthenticationGroup, kAuthorizationGroup };
}

json apiGroup(std::string_view group)
{
    if (group != kAuthenticationGroup && group != kAuthorizationGroup)
        return nullptr;
    const json version = { { "groupVersion", std::string(group) + "/" + std::string(kVersion) },
        { "version", kVersion } };
    return { { "kind", "APIGroup" }, { "apiVersion", "v1" }, { "name", group },
        { "versions", json::array({ version }) }, { "preferredVersion", version } };
}

json resourceList(std::string_view group, std::string_view version)
{
    if (apiGroup(group).is_null() || version != kVersion)
        return nullptr;
    json resources = json::array();
    for (const ReviewKind &review : kReviews)
        if (review.group == group)
            resources.push_back(
                { { "name", review.resource }, { "singularName", "" }, { "namespaced", false },
                    { "kind", review.kind }, { "verbs", json::array({ "create" }) } });
    return { { "kind", "APIResourceList" }, { "apiVersion", "v1" },
        { "groupVersion", std::string(group) + "/" + std::string(kVersion) },
        { "resources", std::move(resources) } };
}

json aggregatedGroup(std::string_view group)
{
    json resources = json::array();
    for (const ReviewKind &review : kReviews)
        if (review.group == group)
            resources.push_back({ { "resource", review.resource },
                { "responseKind", { { "group", "" }, { "version", "" }, { "kind", review.kind } } },
                { "scope", "Cluster" }, { "singularResource", "" },
                { "verbs", json::array({ "create" }) } });
    return { { "metadata", { { "name", group } } },
        { "versions",
            json::array({ { { "version", kVersion }, { "resources", std::move(resources) },
                { "freshness", "Current" } } }) } };
}

} // namespace dra::server::access_reviews
