// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/sandbox/object_view.h"

namespace dra::sandbox {

// A Ready pod behind a Service, where a request to the Service lands in the demo cluster.
struct ServiceEndpoint
{
    std::string ns, deployment, pod;
    std::string ip; // where it answers here (podLoopbackAddress)
    int port = 0;
};

// The Running, Ready pods answering on this machine (podLoopbackAddress) that Service `ns/name`
// selects, each at the container port its `port` targets. `port` names a service port by number
// ("80") or name
// ("http"); empty takes the first. As kube-proxy: a pod that is not Ready gets no traffic.
// nullopt when there is no such Service.
std::optional<std::vector<ServiceEndpoint>> readyEndpoints(const ObjectView &view,
    const std::string &ns, const std::string &name, const std::string &port);

} // namespace dra::sandbox
