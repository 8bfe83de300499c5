// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/decode_core.h"

#include "core/model/decode_support.h"

namespace dra::model::detail {

namespace {

// Resource lists hold quantities; they are kept as text (the console only shows and counts them).
StringPairs decodeResourceList(const json &object, std::string_view key)
{
    StringPairs pairs;
    forEachMember(object, key, [&](const std::string &name, const json &value) {
        if (value.is_string())
            pairs.emplace_back(name, value.get_ref<const std::string &>());
        else if (value.is_number())
            pairs.emplace_back(name, value.dump());
        else
            throwAt("", "expected a quantity, got " + typeName(value));
    });
    return pairs;
}

} // namespace

std::vector<NodeCondition> decodeConditions(const json &status)
{
    std::vector<NodeCondition> conditions;
    forEach(status, "conditions", [&](const json &c) {
        conditions.push_back({ getString(c, "type"), getString(c, "status"), getString(c, "reason"),
            getString(c, "message") });
    });
    return conditions;
}

Node decodeNode(const json &object)
{
    Node node;
    if (const json *spec = field(object, "spec"))
        within("spec", [&] { node.unschedulable = getBool(*spec, "unschedulable"); });
    if (const json *status = field(object, "status")) {
        within("status", [&] {
            node.capacity = decodeResourceList(*status, "capacity");
            node.allocatable = decodeResourceList(*status, "allocatable");
            node.conditions = decodeConditions(*status);
            if (const json *info = field(*status, "nodeInfo")) {
                within("nodeInfo", [&] {
                    node.kubeletVersion = getString(*info, "kubeletVersion");
                    node.osImage = getString(*info, "osImage");
                    node.containerRuntimeVersion = getString(*info, "containerRuntimeVersion");
                    node.architecture = getString(*info, "architecture");
                });
            }
        });
    }
    return node;
}

void decodePodSpec(const json &spec, Pod &pod)
{
    pod.nodeName = getString(spec, "nodeName");
    pod.nodeSelector = getStringMap(spec, "nodeSelector");
    forEach(spec, "containers", [&](const json &c) {
        PodContainer container { getString(c, "name"), getString(c, "image"), {}, {}, {} };
        if (const json *resources = field(c, "resources")) {
            within("resources", [&] {
                container.requests = decodeResourceList(*resources, "requests");
                container.limits = decodeResourceList(*resources, "limits");
                forEach(*resources, "claims", [&](const json &claim) {
                    container.claims.push_back(getString(claim, "name"));
                });
            });
        }
        pod.containers.push_back(std::move(container));
    });
    forEach(spec, "resourceClaims", [&](const json &c) {
        pod.resourceClaims.push_back({ getString(c, "name"), getString(c, "resourceClaimName"),
            getString(c, "resourceClaimTemplateName") });
    });
}

Pod decodePod(const json &object)
{
    Pod pod;
    if (const json *spec = field(object, "spec"))
        within("spec", [&] { decodePodSpec(*spec, pod); });
    if (const json *status = field(object, "status")) {
        within("status", [&] {
            pod.phase = getString(*status, "phase");
            pod.conditions = decodeConditions(*status);
            forEach(*status, "resourceClaimStatuses", [&](const json &s) {
                pod.resourceClaimStatuses.push_back(
                    { getString(s, "name"), getString(s, "resourceClaimName") });
            });
        });
    }
    return pod;
}

Namespace decodeNamespace(const json &object)
{
    Namespace ns;
    if (const json *status = field(object, "status"))
        within("status", [&] { ns.phase = getString(*status, "phase"); });
    return ns;
}

Event decodeEvent(const json &object)
{
    Event event;
    if (const json *involved = field(object, "involvedObject")) {
        within("involvedObject", [&] {
            event.involvedObject = { getString(*involved, "kind"),
                getString(*involved, "namespace"), getString(*involved, "name"),
                getString(*involved, "uid"), getString(*involved, "apiVersion") };
        });
    }
    event.reason = getString(object, "reason");
    event.message = getString(object, "message");
    event.type = getString(object, "type");
    event.reportingController = getString(object, "reportingComponent");
    event.count = getInt(object, "count");
    event.firstTimestamp = getString(object, "firstTimestamp");
    event.lastTimestamp = getString(object, "lastTimestamp");
    event.eventTime = getString(object, "eventTime");
    return event;
}

} // namespace dra::model::detail
