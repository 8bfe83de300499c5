// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/legacy_workloads.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/model/quantity.h"

namespace dra::alloc {

namespace {

using model::Kind;
using nlohmann::json;

const json *at(const json &object, std::initializer_list<const char *> keys)
{
    const json *node = &object;
    for (const char *key : keys) {
        if (!node->is_object())
            return nullptr;
        const auto it = node->find(key);
        if (it == node->end())
            return nullptr;
        node = &*it;
    }
    return node;
}

// A quantity's whole number of units; extended resources are integers.
int64_t countOf(const json &value)
{
    if (value.is_number_integer())
        return value.get<int64_t>();
    if (!value.is_string())
        return 0;
    Result<model::Quantity> quantity = model::Quantity::parse(value.get<std::string>());
    return quantity ? quantity->value() : 0;
}

// Per container of a pod spec, its extended resources (the larger of request and limit).
std::vector<ExtendedRequest> extendedRequests(const json &podSpec)
{
    std::vector<ExtendedRequest> out;
    const json *containers = at(podSpec, { "containers" });
    if (!containers || !containers->is_array())
        return out;
    for (const json &container : *containers) {
        std::map<std::string, int64_t> counts;
        for (const char *kind : { "limits", "requests" }) {
            const json *list = at(container, { "resources", kind });
            if (!list || !list->is_object())
                continue;
            for (const auto &[name, value] : list->items())
                if (isExtendedResourceName(name))
                    counts[name] = std::max(counts[name], countOf(value));
        }
        for (const auto &[name, count] : counts)
            if (count > 0)
                out.push_back({ container.value("name", ""), name, count, 0 });
    }
    return out;
}

const model::OwnerReference *controllerOf(const model::Object &object)
{
    for (const model::OwnerReference &owner : object.meta.ownerReferences)
        if (owner.controller)
            return &owner;
    return object.meta.ownerReferences.empty() ? nullptr : &object.meta.ownerReferences.front();
}

// The workload a pod belongs to: {kind, name}; {"Pod", pod} for a bare pod.
std::pair<std::string, std::string> workloadOf(
    const inventory::Snapshot &snapshot, const model::Object &pod)
{
    const model::OwnerReference *owner = controllerOf(pod);
    if (!owner)
        return { "Pod", pod.meta.name };
    if (owner->kind != "ReplicaSet")
        return { owner->kind, owner->name };
    if (const model::Object *replicaSet
        = snapshot.object(Kind::ReplicaSet, pod.meta.ns, owner->name)) {
        const model::OwnerReference *deployment = controllerOf(*replicaSet);
        if (deployment && deployment->kind == "Deployment")
            return { "Deployment", deployment->name };
        return { "ReplicaSet", owner->name };
    }
    // The Deployment controller names its ReplicaSets "<deployment>-<pod-template-hash>".
    if (const std::string *hash = pod.meta.label("pod-template-hash")) {
        const std::string suffix = "-" + *hash;
        if (owner->name.size() > suffix.size() && owner->name.ends_with(suffix))
            return { "Deployment", owner->name.substr(0, owner->name.size() - suffix.size()) };
    }
    return { "ReplicaSet", owner->name };
}

// A pod as the template its controller stamped it from: labels and the spec without what the
// scheduler and kubelet filled in.
json templateOfPod(const model::Object &pod)
{
    const json &raw = *pod.raw;
    json labels = json::object();
    if (const json *l = at(raw, { "metadata", "labels" }); l && l->is_object())
        labels = *l;
    labels.erase("pod-template-hash");
    labels.erase("controller-revision-hash");
    labels.erase("statefulset.kubernetes.io/pod-name");
    json spec = raw.value("spec", json::object());
    spec.erase("nodeName");
    return { { "metadata", { { "labels", std::move(labels) } } }, { "spec", std::move(spec) } };
}

bool finished(const model::Object &pod)
{
    const auto *body = pod.as<model::Pod>();
    return body && (body->phase == "Succeeded" || body->phase == "Failed");
}

using WorkloadKey = std::tuple<std::string, std::string, std::string>; // ns, kind, name

} // namespace

bool isExtendedResourceName(std::string_view name)
{
    const size_t slash = name.find('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 >= name.size())
        return false;
    if (name.starts_with("requests."))
        return false;
    const std::string_view domain = name.substr(0, slash);
    return domain != "kubernetes.io" && !domain.ends_with(".kubernetes.io");
}

WorkloadSource workloadSource(const inventory::Snapshot &snapshot)
{
    WorkloadSource source;
    for (Kind kind : { Kind::Deployment, Kind::DaemonSet, Kind::ReplicaSet })
        if (!snapshot.objects(kind).empty())
            source.objectKinds.push_back(std::string(model::kindInfo(kind).name));
    if (source.objectKinds.empty()) {
        source.text = "Pods only: the cache mirrors no Deployment, DaemonSet or ReplicaSet "
                      "here, so workloads are grouped from their pods' ownerReferences";
        return source;
    }
    std::string kinds;
    for (size_t i = 0; i < source.objectKinds.size(); ++i)
        kinds += (i == 0                                      ? ""
                         : i + 1 == source.objectKinds.size() ? " and "
                                                              : ", ")
            + source.objectKinds[i] + "s";
    source.text = kinds
        + " as the cache mirrors them; StatefulSets, Jobs and bare pods from their pods' "
          "ownerReferences";
    return source;
}

std::vector<LegacyWorkload> findLegacyWorkloads(
    const inventory::Snapshot &snapshot, std::string_view ns)
{
    // Nodes' allocatable, to say how many nodes offer each resource.
    std::map<std::string, int> advertising;
    for (const auto &node : snapshot.objects(Kind::Node))
        if (const auto *body = node->as<model::Node>())
            for (const auto &[name, value] : body->allocatable)
                if (isExtendedResourceName(name) && countOf(json(value)) > 0)
                    ++advertising[name];

    std::map<WorkloadKey, LegacyWorkload> found;
    const auto inScope
        = [&](const model::Object &object) { return ns.empty() || object.meta.ns == ns; };
    for (Kind kind : { Kind::Deployment, Kind::DaemonSet, Kind::ReplicaSet }) {
        for (const auto &object : snapshot.objects(kind)) {
            if (!inScope(*object))
                continue;
            const model::OwnerReference *owner = controllerOf(*object);
            if (kind == Kind::ReplicaSet && owner && owner->kind == "Deployment")
                continue; // its Deployment stands for it
            const json &raw = *object->raw;
            LegacyWorkload workload;
            workload.ns = object->meta.ns;
            workload.kind = std::string(object->info().name);
            workload.name = object->meta.name;
            workload.source = "object";
            workload.podTemplate = raw.value("spec", json::object()).value("template", json());
            const json *replicas = at(raw, { "spec", "replicas" });
            workload.replicas
                = kind == Kind::DaemonSet ? 0 : (replicas ? int(countOf(*replicas)) : 1);
            found[{ workload.ns, workload.kind, workload.name }] = std::move(workload);
        }
    }
    for (const auto &pod : snapshot.objects(Kind::Pod)) {
        if (!inScope(*pod) || finished(*pod))
            continue;
        const auto [kind, name] = workloadOf(snapshot, *pod);
        auto it = found.find({ pod->meta.ns, kind, name });
        if (it == found.end()) {
            LegacyWorkload workload;
            workload.ns = pod->meta.ns;
            workload.kind = kind;
            workload.name = name;
            workload.source = "pods";
            workload.replicas = 0;
            workload.podTemplate = templateOfPod(*pod);
            it = found.emplace(WorkloadKey { pod->meta.ns, kind, name }, std::move(workload)).first;
        }
        it->second.pods.push_back(pod->meta.name);
        if (it->second.source == "pods")
            ++it->second.replicas;
    }

    std::vector<LegacyWorkload> out;
    for (auto &[key, workload] : found) {
        if (workload.kind == "DaemonSet")
            workload.replicas = int(workload.pods.size());
        const json *spec
            = workload.podTemplate.is_object() ? at(workload.podTemplate, { "spec" }) : nullptr;
        if (!spec)
            continue;
        workload.requests = extendedRequests(*spec);
        if (workload.requests.empty())
            continue;
        for (ExtendedRequest &request : workload.requests)
            request.nodesAdvertising = advertising[request.resource];
        out.push_back(std::move(workload));
    }
    return out;
}

} // namespace dra::alloc
