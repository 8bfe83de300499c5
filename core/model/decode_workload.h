// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Internal to core/model: decoders of the workload kinds (apps/v1, Service, HTTPRoute). They
// throw detail::DecodeError, caught by decodeObject().
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "core/model/workload_types.h"

namespace dra::model::detail {

Deployment decodeDeployment(const nlohmann::json &object);
ReplicaSet decodeReplicaSet(const nlohmann::json &object);
DaemonSet decodeDaemonSet(const nlohmann::json &object);
Service decodeService(const nlohmann::json &object);
HTTPRoute decodeHttpRoute(const nlohmann::json &object);

} // namespace dra::model::detail
