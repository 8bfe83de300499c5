// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/model/schema.h"

namespace dra::server {

// The patch types kube-apiserver takes, by Content-Type.
enum class PatchType { Json, Merge, Strategic, Apply };

// nullopt for anything else (415 UnsupportedMediaType).
std::optional<PatchType> patchTypeOf(std::string_view contentType);

// The errors below are Parse for a patch document that is malformed (400) and Invalid for one
// that cannot be applied to this object (422); messages name the operation or field.

// RFC 7386 JSON merge patch: objects merge, null deletes, anything else replaces.
[[nodiscard]] Result<nlohmann::json> applyMergePatch(
    const nlohmann::json &target, const nlohmann::json &patch);

// RFC 6902 JSON patch (add, remove, replace, move, copy, test).
[[nodiscard]] Result<nlohmann::json> applyJsonPatch(
    const nlohmann::json &target, const nlohmann::json &patch);

// Kubernetes' strategic merge patch, with the list semantics of `schema`: keyed lists merge
// item by item on their first key, sets (lists of scalars marked so) merge by value, other lists
// are replaced. Directives: `$patch: replace|delete|merge` (objects and keyed list items),
// `$deleteFromPrimitiveList/<field>`, `$setElementOrder/<field>` and `$retainKeys`.
[[nodiscard]] Result<nlohmann::json> applyStrategicPatch(
    const nlohmann::json &target, const nlohmann::json &patch, const model::SchemaNode *schema);

} // namespace dra::server
