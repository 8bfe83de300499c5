// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/common/result.h"

namespace dra::model {

// True for the resource.k8s.io versions we read: "v1", "v1beta2", "v1beta1" and "v1alpha3"
// (1.31's structured parameters, and the DeviceTaintRule of 1.33 and later). Bare version only.
bool isKnownResourceVersion(std::string_view version);

// Converts a complete resource.k8s.io object (with apiVersion and kind) to `targetApiVersion`
// ("resource.k8s.io/v1", ...) the way Kubernetes' conversion does, at the JSON level: v1beta1's
// and v1alpha3's `basic` device wrapper <-> v1's flat device, flat v1beta1 request fields <->
// v1 `exactly` (firstAvailable kept), 1.31's plain capacity quantities <-> `{value: ...}`.
// Fields unknown to us travel untouched where their place is unambiguous. Metadata is never
// touched, and converting to the object's own version returns it unchanged. A field the target
// cannot express is an Unsupported error naming the object and the field's path, never dropped.
// Thread-safe (pure function).
[[nodiscard]] dra::Result<nlohmann::json> convertResourceObject(
    const nlohmann::json &object, std::string_view targetApiVersion);

} // namespace dra::model
