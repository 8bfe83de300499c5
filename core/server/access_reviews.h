// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "core/server/http_message.h"

namespace dra::server {

// authorization.k8s.io/v1 SelfSubjectAccessReview and SelfSubjectRulesReview, so clients that
// check before they mutate (kubectl auth can-i, the rollout controller) get an answer: every
// verb when the server writes, only get/list/watch when it is read-only. Anyone the server
// authenticated is an admin of it; there is no RBAC to consult.
namespace access_reviews {

inline constexpr std::string_view kGroup = "authorization.k8s.io";
inline constexpr std::string_view kVersion = "v1";

// Whether `path` is one of the review collections (POST only).
bool isReviewPath(std::string_view path);
// Answers a POSTed review (201 with its status), or 400 for a body that is not one.
Response answer(const Request &request, bool writable);

// The group's discovery documents: APIGroup, APIResourceList and the aggregated (v2) entry.
nlohmann::json apiGroup();
nlohmann::json resourceList();
nlohmann::json aggregatedGroup();

} // namespace access_reviews
} // namespace dra::server
