// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>

#include "core/model/rbac_policy.h"
#include "core/server/http_message.h"

namespace dra::server {

// What a request asks to do, in the terms authorisation decides on (kube-apiserver's
// RequestInfo): worked out from the path, query and method alone, before anything is looked up,
// so a request for a resource the server does not serve is still authorised (and then 404s).
model::AccessAttributes requestAttributes(const Request &request);

// "resourceclaims.resource.k8s.io", "pods": the resource as a Status names it.
std::string qualifiedResource(const model::AccessAttributes &attributes);

} // namespace dra::server
