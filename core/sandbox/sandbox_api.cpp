// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/sandbox_api.h"

#include <string>

#include "core/sandbox/control_plane.h"
#include "core/sandbox/fault_endpoint.h"
#include "core/sandbox/pod_exec.h"
#include "core/sandbox/service_proxy.h"
#include "core/server/api_server.h"

namespace dra::sandbox {

void installSandboxApi(server::ApiServer &api, ControlPlane &plane)
{
    api.setExtraHandler(std::string(kSandboxApiPrefix),
        [&plane](server::Request &request, server::HttpConnection &connection) {
            return handleFaultRequest(plane, request, connection);
        });
    auto *exec = new PodExecEndpoint(plane, &plane);
    api.setExtraHandler(std::string(kNamespacedCorePrefix),
        [&plane, exec](server::Request &request, server::HttpConnection &connection) {
            return handleServiceProxy(plane, request, connection)
                || exec->handle(request, connection);
        });
}

} // namespace dra::sandbox
