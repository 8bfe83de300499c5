// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/decode_workload.h"

#include "core/model/decode_core.h"
#include "core/model/decode_support.h"

namespace dra::model::detail {

namespace {

int32_t getInt32(const json &object, std::string_view key, int32_t fallback = 0)
{
    const int64_t value = getInt(object, key, fallback);
    if (value < INT32_MIN || value > INT32_MAX)
        throwAt(key, "does not fit in 32 bits");
    return int32_t(value);
}

LabelSelector decodeLabelSelector(const json &spec)
{
    LabelSelector selector;
    if (const json *value = field(spec, "selector")) {
        within("selector", [&] {
            selector.matchLabels = getStringMap(*value, "matchLabels");
            forEach(*value, "matchExpressions", [&](const json &) { ++selector.matchExpressions; });
        });
    }
    return selector;
}

PodTemplate decodePodTemplate(const json &spec)
{
    PodTemplate podTemplate;
    if (const json *value = field(spec, "template")) {
        within("template", [&] {
            if (const json *meta = field(*value, "metadata"))
                within("metadata", [&] { podTemplate.labels = getStringMap(*meta, "labels"); });
            if (const json *podSpec = field(*value, "spec"))
                within("spec", [&] { decodePodSpec(*podSpec, podTemplate.pod); });
        });
    }
    return podTemplate;
}

// The selector and pod template every workload kind has in its spec.
void readSelectorAndTemplate(const json &spec, LabelSelector &selector, PodTemplate &podTemplate)
{
    selector = decodeLabelSelector(spec);
    podTemplate = decodePodTemplate(spec);
}

// Reads spec and status of an object whose parts are all optional.
template <typename Spec, typename Status>
void readParts(const json &object, Spec &&spec, Status &&status)
{
    if (const json *value = field(object, "spec"))
        within("spec", [&] { spec(*value); });
    if (const json *value = field(object, "status"))
        within("status", [&] { status(*value); });
}

RouteBackend decodeBackend(const json &ref)
{
    return { getString(ref, "group"), getString(ref, "kind"), getString(ref, "name"),
        getString(ref, "namespace"), getInt32(ref, "port"), getInt32(ref, "weight", 1) };
}

} // namespace

Deployment decodeDeployment(const json &object)
{
    Deployment d;
    readParts(
        object,
        [&](const json &spec) {
            d.replicas = getInt32(spec, "replicas", 1);
            readSelectorAndTemplate(spec, d.selector, d.podTemplate);
            d.paused = getBool(spec, "paused");
        },
        [&](const json &status) {
            d.observedGeneration = getInt(status, "observedGeneration");
            d.statusReplicas = getInt32(status, "replicas");
            d.updatedReplicas = getInt32(status, "updatedReplicas");
            d.readyReplicas = getInt32(status, "readyReplicas");
            d.availableReplicas = getInt32(status, "availableReplicas");
            d.conditions = decodeConditions(status);
        });
    return d;
}

ReplicaSet decodeReplicaSet(const json &object)
{
    ReplicaSet r;
    readParts(
        object,
        [&](const json &spec) {
            r.replicas = getInt32(spec, "replicas", 1);
            readSelectorAndTemplate(spec, r.selector, r.podTemplate);
        },
        [&](const json &status) {
            r.observedGeneration = getInt(status, "observedGeneration");
            r.statusReplicas = getInt32(status, "replicas");
            r.readyReplicas = getInt32(status, "readyReplicas");
            r.availableReplicas = getInt32(status, "availableReplicas");
        });
    return r;
}

DaemonSet decodeDaemonSet(const json &object)
{
    DaemonSet d;
    readParts(
        object, [&](const json &spec) { readSelectorAndTemplate(spec, d.selector, d.podTemplate); },
        [&](const json &status) {
            d.observedGeneration = getInt(status, "observedGeneration");
            d.desiredNumberScheduled = getInt32(status, "desiredNumberScheduled");
            d.currentNumberScheduled = getInt32(status, "currentNumberScheduled");
            d.numberReady = getInt32(status, "numberReady");
            d.numberAvailable = getInt32(status, "numberAvailable");
            d.updatedNumberScheduled = getInt32(status, "updatedNumberScheduled");
        });
    return d;
}

Service decodeService(const json &object)
{
    Service s;
    readParts(
        object,
        [&](const json &spec) {
            s.type = getString(spec, "type");
            if (s.type.empty())
                s.type = "ClusterIP";
            s.clusterIP = getString(spec, "clusterIP");
            s.selector = getStringMap(spec, "selector");
            forEach(spec, "ports", [&](const json &p) {
                const json *target = field(p, "targetPort");
                std::string targetPort = !target ? std::string()
                    : target->is_string()        ? target->get<std::string>()
                                                 : target->dump();
                s.ports.push_back({ getString(p, "name"), getString(p, "protocol"),
                    std::move(targetPort), getInt32(p, "port") });
            });
        },
        [](const json &) {});
    return s;
}

HTTPRoute decodeHttpRoute(const json &object)
{
    HTTPRoute route;
    readParts(
        object,
        [&](const json &spec) {
            forEach(spec, "parentRefs", [&](const json &ref) {
                const std::string ns = getString(ref, "namespace");
                route.parents.push_back(
                    ns.empty() ? getString(ref, "name") : ns + '/' + getString(ref, "name"));
            });
            route.hostnames = getStrings(spec, "hostnames");
            forEach(spec, "rules", [&](const json &rule) {
                RouteRule out;
                forEach(rule, "backendRefs",
                    [&](const json &ref) { out.backends.push_back(decodeBackend(ref)); });
                forEach(rule, "filters", [&](const json &filter) {
                    if (getString(filter, "type") != "RequestMirror")
                        return;
                    if (const json *mirror = field(filter, "requestMirror")) {
                        within("requestMirror", [&] {
                            if (const json *ref = field(*mirror, "backendRef"))
                                within("backendRef",
                                    [&] { out.mirrors.push_back(decodeBackend(*ref)); });
                        });
                    }
                });
                route.rules.push_back(std::move(out));
            });
        },
        [](const json &) {});
    return route;
}

} // namespace dra::model::detail
