// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace dra::kube {

// `object` without what the server writes on every request and no user changes
// (metadata.managedFields, resourceVersion, generation, uid, creationTimestamp, selfLink),
// so that a dry-run result compared with the live object shows only real changes.
nlohmann::json comparableObject(const nlohmann::json &object);

// A unified diff (`--- from`, `+++ to`, `@@` hunks with `context` lines around each change) of
// two texts split into lines; empty when they are equal. Lines are matched by a longest common
// subsequence, so a changed field shows as its own -/+ pair, not as a rewrite of the object.
std::string unifiedDiff(std::string_view before, std::string_view after, std::string_view from,
    std::string_view to, int context = 3);

// The diff of two objects as YAML after comparableObject(); `live` null means "does not exist
// yet" and every line of `desired` is an addition.
std::string objectDiff(
    const nlohmann::json &live, const nlohmann::json &desired, std::string_view label);

} // namespace dra::kube
