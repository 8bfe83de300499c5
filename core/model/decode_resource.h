// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Internal to core/model: decoders of resource.k8s.io objects in their v1 form. They throw
// detail::DecodeError, caught by decodeObject().
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "core/model/resource_types.h"

namespace dra::model::detail {

ResourceSlice decodeResourceSlice(const nlohmann::json &spec);
DeviceClass decodeDeviceClass(const nlohmann::json &spec);
ResourceClaimSpec decodeClaimSpec(const nlohmann::json &spec);
ResourceClaim decodeResourceClaim(const nlohmann::json &object);
ResourceClaimTemplate decodeResourceClaimTemplate(const nlohmann::json &spec);
DeviceTaintRule decodeDeviceTaintRule(const nlohmann::json &spec);

} // namespace dra::model::detail
