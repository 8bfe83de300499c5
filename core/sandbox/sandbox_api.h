// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

namespace dra::server {
class ApiServer;
}

namespace dra::sandbox {

class ControlPlane;

// What the demo cluster adds to its API server, acting through `plane`: the fault injection API
// (/sandbox/v1/faults), the services/proxy subresource (how a rollout's gates reach the demo
// Prometheus) and pods/exec (how its node gate looks inside a container). Both must outlive the
// server's requests.
void installSandboxApi(server::ApiServer &api, ControlPlane &plane);

} // namespace dra::sandbox
