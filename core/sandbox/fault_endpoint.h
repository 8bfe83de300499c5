// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string_view>

#include "core/server/http_connection.h"

namespace dra::sandbox {

class ControlPlane;

// The demo server's fault injection API, authenticated like every API request:
//   GET    /sandbox/v1/faults           the faults in force ({kind: FaultList, items: [...]})
//   POST   /sandbox/v1/faults           adds {kind, namespace, deployment} (no deployment: all)
//   DELETE /sandbox/v1/faults[?kind=K]  removes every fault, or those of kind K
inline constexpr std::string_view kSandboxApiPrefix = "/sandbox/v1/";
inline constexpr std::string_view kFaultsPath = "/sandbox/v1/faults";

// Answers a request under kSandboxApiPrefix for `plane`; false when the path is not known.
// Thread of the control plane.
bool handleFaultRequest(
    ControlPlane &plane, server::Request &request, server::HttpConnection &connection);

} // namespace dra::sandbox
