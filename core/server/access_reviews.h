// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/rbac_policy.h"
#include "core/server/http_message.h"

namespace dra::server {

// The review kinds clients POST to learn who they are and what they may do:
// authorization.k8s.io/v1 SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview
// and authentication.k8s.io/v1 SelfSubjectReview (`kubectl auth whoami`) and TokenReview.
// With RBAC they answer from the cluster's roles and bindings; without it (a single-user server)
// anyone authenticated is the server's admin: every verb when it writes, only get/list/watch
// when it is read-only.
namespace access_reviews {

// How a server decides; the functions are empty for a server without RBAC or user tokens.
struct Reviewer
{
    bool writable = false;
    std::function<model::AccessDecision(
        const model::UserIdentity &, const model::AccessAttributes &)>
        authorize;
    std::function<std::vector<model::PolicyRule>(const model::UserIdentity &, std::string_view)>
        rules;
    // Who a bearer token authenticates as (TokenReview), nullopt for an unknown token.
    std::function<std::optional<model::UserIdentity>(std::string_view)> authenticateToken;
};

inline constexpr std::string_view kAuthorizationGroup = "authorization.k8s.io";
inline constexpr std::string_view kAuthenticationGroup = "authentication.k8s.io";
inline constexpr std::string_view kVersion = "v1";

// Whether `path` is one of the review collections (POST only).
bool isReviewPath(std::string_view path);
// Answers a review POSTed by `request`'s user (201 with its status), or 400 for a body that is
// not one.
Response answer(const Request &request, const Reviewer &reviewer);

// The groups served here, and their discovery documents (APIGroup, APIResourceList, the
// aggregated v2 entry); null for a group or version not served here.
std::vector<std::string_view> groups();
nlohmann::json apiGroup(std::string_view group);
nlohmann::json resourceList(std::string_view group, std::string_view version);
nlohmann::json aggregatedGroup(std::string_view group);

} // namespace access_reviews
} // namespace dra::server
