// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/server/http_message.h"

namespace dra::server {

// The Kubernetes release this server claims at /version. kubectl's dispatcher picks the
// kubectl.1.<minor> it runs from it, and resource.k8s.io/v1 (what we serve) is GA in 1.34.
inline constexpr std::string_view kServedGitVersion = "v1.34.0";

// Discovery documents for the kinds we serve (model::allKinds()), read-only verbs. Pure.
namespace discovery {

nlohmann::json version();
// /api or /apis, aggregated (apidiscovery.k8s.io/v2) when the Accept header asks for it,
// legacy (APIVersions / APIGroupList) otherwise; `serverAddress` fills serverAddressByClientCIDRs.
Response apiRoot(const Request &request, bool core, const std::string &serverAddress);
// /apis/<group>: one APIGroup; empty json when the group is not served.
nlohmann::json apiGroup(std::string_view group);
// /api/v1 or /apis/<group>/<version>: an APIResourceList; empty json when not served.
nlohmann::json resourceList(std::string_view group, std::string_view version);

} // namespace discovery

// The aggregated discovery media type (v2).
inline constexpr std::string_view kAggregatedDiscoveryType
    = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

} // namespace dra::server
