// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/daemon_set_controller.h"

#include <map>

#include "core/sandbox/controller_support.h"
#include "core/sandbox/node_fit.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

// The daemon pod of `daemonSet` for `node`: bound at once, its PodScheduled condition set now
// (the kubelet's start delay counts from it).
json daemonPod(const ControlPass &pass, const json &daemonSet, const std::string &node)
{
    json pod = pass.podFromTemplate(daemonSet);
    pod["spec"]["nodeName"] = node;
    setCondition(pod["status"], "PodScheduled", true, {}, {}, pass.now());
    return pod;
}

} // namespace

void DaemonSetController::reconcile(ControlPass &pass)
{
    const std::vector<json> daemonSets = pass.view.all(model::Kind::DaemonSet);
    if (daemonSets.empty())
        return;
    const std::vector<json> nodes = pass.view.all(model::Kind::Node);
    for (const json &daemonSet : daemonSets)
        reconcileOne(pass, daemonSet, nodes);
}

void DaemonSetController::reconcileOne(
    ControlPass &pass, json daemonSet, const std::vector<json> &nodes)
{
    const std::string ns = metaText(daemonSet, "namespace");
    const json podTemplate = daemonSet.value("/spec/template"_json_pointer, json::object());
    std::map<std::string, json> podOnNode; // by node name; extra pods on one node are deleted
    for (json &pod : pass.view.all(model::Kind::Pod, ns)) {
        if (!controlledBy(pod, daemonSet) || !textAt(pod, "/metadata/deletionTimestamp").empty())
            continue;
        const std::string node = textAt(pod, "/spec/nodeName");
        if (podOnNode.contains(node))
            pass.view.remove(model::Kind::Pod, ns, metaText(pod, "name"));
        else
            podOnNode.emplace(node, std::move(pod));
    }
    int64_t desired = 0, ready = 0;
    for (const json &node : nodes) {
        const std::string name = metaText(node, "name");
        if (!nodeAdmits(node, podTemplate))
            continue;
        ++desired;
        auto it = podOnNode.find(name);
        if (it == podOnNode.end()) {
            pass.view.put(daemonPod(pass, daemonSet, name));
            continue;
        }
        ready += conditionTrue(it->second, "Ready") ? 1 : 0;
        podOnNode.erase(it);
    }
    // What is left runs on nodes the DaemonSet no longer admits (or that are gone).
    for (const auto &[node, pod] : podOnNode)
        pass.view.remove(model::Kind::Pod, ns, metaText(pod, "name"));

    json &status = daemonSet["status"];
    if (!status.is_object())
        status = json::object();
    status["desiredNumberScheduled"] = desired;
    status["currentNumberScheduled"] = desired;
    status["updatedNumberScheduled"] = desired;
    status["numberMisscheduled"] = 0;
    status["numberReady"] = ready;
    status["numberAvailable"] = ready;
    if (desired > ready)
        status["numberUnavailable"] = desired - ready;
    else
        status.erase("numberUnavailable");
    status["observedGeneration"] = numberAt(daemonSet, "/metadata/generation", 1);
    pass.view.put(daemonSet);
}

} // namespace dra::sandbox
