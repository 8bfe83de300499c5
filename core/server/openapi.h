// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/server/http_message.h"
#include "core/server/served_api.h"

namespace dra::server::openapi {

// The OpenAPI v3 document of one served group version ("apis/resource.k8s.io/v1", "api/v1"),
// generated from the model's schema table: every served kind and its list under
// components.schemas ("io.k8s.api.resource.v1.DeviceClass") with descriptions,
// x-kubernetes-group-version-kind, list types and map keys (and the patch strategy and merge key
// they imply), and a path per collection and object with its operations. Operations carry
// x-kubernetes-action and x-kubernetes-group-version-kind, writes list dryRun, fieldManager and
// fieldValidation, so `kubectl apply` validates on the server and `kubectl explain` works.
// Empty json when the group version is not served. Pure.
nlohmann::json document(const ServedApi &api, const std::string &groupVersionPath);

// Answers GET /openapi/v3 (the index, whose serverRelativeURLs carry a content hash) and
// /openapi/v3/<group version path>; 404 for anything else.
Response serve(const ServedApi &api, const std::string &path);

} // namespace dra::server::openapi
