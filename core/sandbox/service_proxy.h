// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/server/http_connection.h"
#include "core/server/http_message.h"

namespace dra::sandbox {

class ControlPlane;

// Where a services/proxy request goes:
// /api/v1/namespaces/NS/services/[SCHEME:]NAME[:PORT]/proxy[/PATH].
struct ServiceProxyTarget
{
    std::string ns, service, port; // port: a number or a port name; empty: the first
    std::string path = "/"; // with the query of the request appended by the caller
};
std::optional<ServiceProxyTarget> serviceProxyTarget(const std::string &path);

// The prefix every proxy path starts with; handleServiceProxy() passes on other paths under it.
inline constexpr std::string_view kNamespacedCorePrefix = "/api/v1/namespaces/";

// kube-apiserver's proxy to a Service, for the demo cluster (how admins reach an in-cluster
// Prometheus with their own credentials, `kubectl get --raw .../proxy/api/v1/query?...`): the
// request goes to a Ready pod behind the Service over a real socket, and its answer comes back
// as it is. No Ready pod: 503 "no endpoints available for service". Answers later (the
// connection waits). False when `request` is not a proxy request. Thread of the control plane.
bool handleServiceProxy(
    ControlPlane &plane, server::Request &request, server::HttpConnection &connection);

} // namespace dra::sandbox
