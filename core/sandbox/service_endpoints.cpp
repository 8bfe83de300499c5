// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/service_endpoints.h"

#include "core/sandbox/control_pass.h"
#include "core/sandbox/controller_support.h"
#include "core/sandbox/demo_kubelet.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

bool labelsMatch(const json &selector, const json &labels)
{
    if (!selector.is_object() || selector.empty())
        return false; // a Service without a selector has no endpoints of ours
    for (const auto &[key, value] : selector.items()) {
        if (!labels.is_object() || !labels.contains(key) || labels[key] != value)
            return false;
    }
    return true;
}

// The container port a Service's targetPort names on `pod`: a number as it is, a name looked up
// in the pod's containers; 0 when the pod has no such port.
int targetPortOn(const json &targetPort, const json &pod)
{
    if (targetPort.is_number_integer())
        return targetPort.get<int>();
    const std::string name = targetPort.is_string() ? targetPort.get<std::string>() : std::string();
    for (const json &container : pod.value("/spec/containers"_json_pointer, json::array())) {
        for (const json &port : container.value("ports", json::array())) {
            if (port.value("name", std::string()) == name && port.contains("containerPort"))
                return port["containerPort"].get<int>();
        }
    }
    return 0;
}

} // namespace

std::optional<std::vector<ServiceEndpoint>> readyEndpoints(
    const ObjectView &view, const std::string &ns, const std::string &name, const std::string &port)
{
    const json *service = view.find(model::Kind::Service, ns, name);
    if (!service)
        return std::nullopt;
    std::vector<ServiceEndpoint> endpoints;
    json targetPort;
    for (const json &servicePort : service->value("/spec/ports"_json_pointer, json::array())) {
        if (port.empty() || std::to_string(servicePort.value("port", 0)) == port
            || servicePort.value("name", std::string()) == port) {
            targetPort = servicePort.contains("targetPort") ? servicePort["targetPort"]
                                                            : servicePort["port"];
            break;
        }
    }
    if (targetPort.is_null())
        return endpoints;
    const json selector = service->value("/spec/selector"_json_pointer, json::object());
    for (const json &pod : view.all(model::Kind::Pod, ns)) {
        const std::string ip = podLoopbackAddress(textAt(pod, "/status/podIP"));
        if (!labelsMatch(selector, pod.value("/metadata/labels"_json_pointer, json::object()))
            || textAt(pod, "/status/phase") != "Running" || !conditionTrue(pod, "Ready")
            || ip.empty())
            continue;
        if (const int podPort = targetPortOn(targetPort, pod); podPort > 0)
            endpoints.push_back(
                { ns, deploymentOfPod(view, pod), metaText(pod, "name"), ip, podPort });
    }
    return endpoints;
}

} // namespace dra::sandbox
