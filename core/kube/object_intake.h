// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/model/kind.h"
#include "core/model/object_record.h"

namespace dra::kube {

// What the mirror keeps of an object from the server, in the version it arrived in. List items
// come without kind and apiVersion (as upstream sends them), so both are filled in. Pods and
// Events lose metadata.managedFields, which the console never shows and which dominate their
// size; every other kind is kept exactly as received. Errors name the object.
[[nodiscard]] Result<model::ObjectRecord> intakeObject(
    nlohmann::json &&object, const model::KindInfo &kind, const std::string &apiVersion);

// The key of an object from its metadata alone, for a deletion whose last state does not decode.
std::optional<common::ObjectKey> objectKeyOf(
    const nlohmann::json &object, const model::KindInfo &kind);

// Whether the mirror keeps this object: every object, except Events not about a Pod or a DRA
// object (a cluster's Events are mostly about other things).
bool mirrorKeeps(const nlohmann::json &object, const model::KindInfo &kind);

} // namespace dra::kube
