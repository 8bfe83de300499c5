// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Internal to core/model: decoders of the core/v1 objects. They throw detail::DecodeError,
// caught by decodeObject().
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "core/model/core_types.h"

namespace dra::model::detail {

Node decodeNode(const nlohmann::json &object);
Pod decodePod(const nlohmann::json &object);
// The spec fields of a pod, also those of a workload's pod template.
void decodePodSpec(const nlohmann::json &spec, Pod &pod);
// status.conditions in the core/v1 shape.
std::vector<NodeCondition> decodeConditions(const nlohmann::json &status);
Namespace decodeNamespace(const nlohmann::json &object);
Event decodeEvent(const nlohmann::json &object);

} // namespace dra::model::detail
