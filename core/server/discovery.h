// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/server/http_message.h"
#include "core/server/served_api.h"

namespace dra::server {

// Discovery documents for what a ServedApi offers: its versions, kinds, verbs and
// subresources. Pure.
namespace discovery {

// /api or /apis, aggregated (apidiscovery.k8s.io/v2) when the Accept header asks for it,
// legacy (APIVersions / APIGroupList) otherwise; `serverAddress` fills serverAddressByClientCIDRs.
Response apiRoot(
    const ServedApi &api, const Request &request, bool core, const std::string &serverAddress);
// /apis/<group>: one APIGroup; empty json when the group is not served.
nlohmann::json apiGroup(const ServedApi &api, std::string_view group);
// /api/v1 or /apis/<group>/<version>: an APIResourceList; empty json when not served.
nlohmann::json resourceList(const ServedApi &api, std::string_view group, std::string_view version);

} // namespace discovery

// The aggregated discovery media type (v2).
inline constexpr std::string_view kAggregatedDiscoveryType
    = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

} // namespace dra::server
