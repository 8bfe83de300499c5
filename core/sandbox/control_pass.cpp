// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/control_pass.h"

#include "core/sandbox/controller_support.h"

namespace dra::sandbox {

using nlohmann::json;

std::string ControlPass::now() const
{
    return kubeTime(nowMs);
}

std::string ControlPass::deploymentOf(const json &pod) const
{
    return deploymentOfPod(view, pod);
}

std::string deploymentOfPod(const ObjectView &view, const json &pod)
{
    const json *owner = controllerOf(pod);
    if (!owner || owner->value("kind", "") != "ReplicaSet")
        return {};
    const json *replicaSet
        = view.find(model::Kind::ReplicaSet, metaText(pod, "namespace"), owner->value("name", ""));
    if (!replicaSet)
        return {};
    const json *deployment = controllerOf(*replicaSet);
    return deployment && deployment->value("kind", "") == "Deployment"
        ? deployment->value("name", "")
        : std::string();
}

json ControlPass::podFromTemplate(const json &owner) const
{
    const std::string ns = metaText(owner, "namespace");
    const std::string prefix = metaText(owner, "name") + '-';
    std::string name;
    do
        name = prefix + randomNameSuffix();
    while (view.find(model::Kind::Pod, ns, name));
    const json podTemplate = owner.value("/spec/template"_json_pointer, json::object());
    json pod = newObject("v1", "Pod", ns, name, nowMs);
    json &meta = pod["metadata"];
    meta["generateName"] = prefix;
    for (const char *field : { "labels", "annotations" }) {
        if (podTemplate.contains("metadata") && podTemplate["metadata"].contains(field))
            meta[field] = podTemplate["metadata"][field];
    }
    meta["ownerReferences"] = json::array({ controllerReference(owner) });
    pod["spec"] = podTemplate.value("spec", json::object());
    if (!pod["spec"].contains("schedulerName"))
        pod["spec"]["schedulerName"] = "default-scheduler";
    if (!pod["spec"].contains("restartPolicy"))
        pod["spec"]["restartPolicy"] = "Always";
    pod["status"] = { { "phase", "Pending" }, { "qosClass", "BestEffort" } };
    return pod;
}

bool ControlPass::faultHits(FaultKind kind, const json &pod) const
{
    return faults.applies(kind, metaText(pod, "namespace"), deploymentOf(pod));
}

void ControlPass::recordEvent(const json &involved, bool warning, const std::string &reason,
    const std::string &message, const std::string &component, const std::string &host)
{
    const std::string ns = metaText(involved, "namespace");
    const std::string uid = metaText(involved, "uid");
    const std::string time = now();
    for (json event : view.all(model::Kind::Event, ns)) {
        if (textAt(event, "/involvedObject/uid") != uid || event.value("reason", "") != reason)
            continue;
        event["message"] = message;
        event["count"] = event.value("count", 1) + 1;
        event["lastTimestamp"] = time;
        view.put(event);
        return;
    }
    const std::string name = metaText(involved, "name") + '.'
        + stableNameSuffix(uid + '/' + reason + '/' + std::to_string(nowMs), 16);
    json event = newObject("v1", "Event", ns, name, nowMs);
    event["involvedObject"] = { { "apiVersion", involved.value("apiVersion", "") },
        { "kind", involved.value("kind", "") }, { "namespace", ns },
        { "name", metaText(involved, "name") }, { "uid", uid } };
    event["reason"] = reason;
    event["message"] = message;
    event["type"] = warning ? "Warning" : "Normal";
    event["count"] = 1;
    event["firstTimestamp"] = time;
    event["lastTimestamp"] = time;
    event["source"] = { { "component", component } };
    if (!host.empty())
        event["source"]["host"] = host;
    event["reportingComponent"] = component;
    view.put(event);
}

} // namespace dra::sandbox
