// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/object_table.h"

#include <map>

#include <nlohmann/json.hpp>

#include "core/inventory/age.h"

namespace dra::inventory {

using model::Kind;

namespace {

TableColumn nameColumn()
{
    return { "Name", "string", "name", "Name must be unique within a namespace.", 0 };
}

TableColumn ageColumn()
{
    return { "Age", "string", "", "Time since the object was created.", 0 };
}

std::string join(const std::vector<std::string> &parts, const char *separator = ",")
{
    std::string out;
    for (const std::string &part : parts) {
        if (!out.empty())
            out += separator;
        out += part;
    }
    return out;
}

// The node an allocation pins a claim to, read from its node selector's hostname term.
std::string allocatedNode(const model::AllocationResult &allocation)
{
    const nlohmann::json &selector = allocation.nodeSelector;
    if (!selector.is_object())
        return {};
    const auto terms = selector.find("nodeSelectorTerms");
    if (terms == selector.end() || !terms->is_array())
        return {};
    for (const nlohmann::json &term : *terms) {
        for (const char *listName : { "matchFields", "matchExpressions" }) {
            const auto list = term.find(listName);
            if (list == term.end() || !list->is_array())
                continue;
            for (const nlohmann::json &requirement : *list) {
                const std::string key = requirement.value("key", "");
                const auto values = requirement.find("values");
                if ((key == "metadata.name" || key == "kubernetes.io/hostname")
                    && values != requirement.end() && values->is_array() && values->size() == 1
                    && (*values)[0].is_string())
                    return (*values)[0].get<std::string>();
            }
        }
    }
    return {};
}

std::string devicesOf(const model::AllocationResult &allocation)
{
    std::vector<std::string> names;
    for (const auto &result : allocation.results)
        names.push_back(result.pool + "/" + result.device);
    return join(names);
}

std::string readyCount(const model::Pod &pod)
{
    // Container readiness is in the raw status; the typed model keeps the pod-level condition.
    const size_t total = pod.containers.size();
    return std::to_string(pod.ready() ? total : 0) + "/" + std::to_string(total);
}

std::string nodeRoles(const model::ObjectMeta &meta)
{
    std::vector<std::string> roles;
    const std::string prefix = "node-role.kubernetes.io/";
    for (const auto &[key, value] : meta.labels)
        if (key.rfind(prefix, 0) == 0 && key.size() > prefix.size())
            roles.push_back(key.substr(prefix.size()));
    return roles.empty() ? "<none>" : join(roles);
}

std::string labelText(const model::StringPairs &labels)
{
    std::vector<std::string> pairs;
    for (const auto &[key, value] : labels)
        pairs.push_back(key + "=" + value);
    return pairs.empty() ? "<none>" : join(pairs);
}

// CONTAINERS and IMAGES of a pod template, as kubectl -o wide shows them.
std::pair<std::string, std::string> templateContainers(const model::PodTemplate &podTemplate)
{
    std::vector<std::string> names, images;
    for (const model::PodContainer &container : podTemplate.pod.containers) {
        names.push_back(container.name);
        images.push_back(container.image);
    }
    return { join(names), join(images) };
}

std::string servicePorts(const model::Service &service)
{
    std::vector<std::string> ports;
    for (const model::ServicePort &port : service.ports)
        ports.push_back(
            std::to_string(port.port) + "/" + (port.protocol.empty() ? "TCP" : port.protocol));
    return ports.empty() ? "<none>" : join(ports);
}

std::string routeBackends(const model::HTTPRoute &route)
{
    std::vector<std::string> backends;
    for (const model::RouteRule &rule : route.rules) {
        for (const model::RouteBackend &backend : rule.backends)
            backends.push_back(backend.name + ":" + std::to_string(backend.weight));
        for (const model::RouteBackend &mirror : rule.mirrors)
            backends.push_back(mirror.name + " (mirror)");
    }
    return join(backends);
}

// kubectl's columns for RoleBindings and ClusterRoleBindings: the role, then (wide) who holds it.
std::vector<TableColumn> bindingColumns()
{
    return { nameColumn(), { "Role", "string", "", "The role granted, as Kind/name.", 0 },
        ageColumn(), { "Users", "string", "", "Users the role is granted to.", 1 },
        { "Groups", "string", "", "Groups the role is granted to.", 1 },
        { "ServiceAccounts", "string", "", "Service accounts, as namespace/name.", 1 } };
}

// "ClusterRole/view": the roleRef of a binding.
std::string boundRole(const model::Object &object)
{
    if (!object.raw || !object.raw->contains("roleRef") || !(*object.raw)["roleRef"].is_object())
        return {};
    const nlohmann::json &ref = (*object.raw)["roleRef"];
    return ref.value("kind", "") + "/" + ref.value("name", "");
}

// The subjects of a binding of one kind, comma-separated (service accounts as namespace/name).
std::string boundSubjects(const model::Object &object, std::string_view kind)
{
    std::vector<std::string> names;
    if (object.raw && object.raw->contains("subjects") && (*object.raw)["subjects"].is_array())
        for (const nlohmann::json &subject : (*object.raw)["subjects"]) {
            if (!subject.is_object() || subject.value("kind", "") != kind)
                continue;
            const std::string ns = subject.value("namespace", "");
            names.push_back((kind == "ServiceAccount" && !ns.empty() ? ns + "/" : std::string())
                + subject.value("name", ""));
        }
    return join(names);
}

// kubectl's REQUEST or LIMIT column of a ResourceQuota: "name: used/hard" for each hard limit
// whose name starts with "limits." (`limits`) or not, the usage as the quota controller reported
// it ("0" before it has).
std::string quotaColumn(const model::Object &object, bool limits)
{
    if (!object.raw)
        return {};
    const nlohmann::json hard
        = object.raw->value(nlohmann::json::json_pointer("/spec/hard"), nlohmann::json::object());
    const nlohmann::json used
        = object.raw->value(nlohmann::json::json_pointer("/status/used"), nlohmann::json::object());
    std::vector<std::string> parts;
    for (const auto &[name, limit] : hard.items()) {
        if (name.starts_with("limits.") != limits || !limit.is_string())
            continue;
        const nlohmann::json usage = used.value(name, nlohmann::json("0"));
        parts.push_back(name + ": " + (usage.is_string() ? usage.get<std::string>() : "0") + "/"
            + limit.get<std::string>());
    }
    return join(parts, ", ");
}

} // namespace

const std::vector<TableColumn> &tableColumns(Kind kind)
{
    static const std::map<Kind, std::vector<TableColumn>> columns = {
        { Kind::DeviceClass,
            { nameColumn(), ageColumn(),
                { "Selectors", "integer", "", "Number of CEL selectors.", 1 },
                { "Extended Resource", "string", "", "Extended resource name served by this class.",
                    1 } } },
        { Kind::ResourceSlice,
            { nameColumn(),
                { "Node", "string", "", "The node whose devices this slice publishes.", 0 },
                { "Driver", "string", "", "The driver that publishes the slice.", 0 },
                { "Pool", "string", "", "The pool the slice belongs to.", 0 }, ageColumn(),
                { "Devices", "integer", "", "Number of devices in the slice.", 1 },
                { "Generation", "integer", "", "Pool generation.", 1 } } },
        { Kind::ResourceClaim,
            { nameColumn(),
                { "State", "string", "",
                    "A summary of the claim's state: allocated, reserved, pending.", 0 },
                ageColumn(), { "Node", "string", "", "The node the allocation is bound to.", 1 },
                { "Devices", "string", "", "Allocated devices as pool/device.", 1 } } },
        { Kind::ResourceClaimTemplate,
            { nameColumn(), ageColumn(),
                { "Requests", "integer", "", "Number of device requests.", 1 } } },
        { Kind::DeviceTaintRule,
            { nameColumn(), ageColumn(), { "Effect", "string", "", "The taint's effect.", 1 },
                { "Key", "string", "", "The taint's key.", 1 } } },
        { Kind::Node,
            { nameColumn(), { "Status", "string", "", "The node's readiness.", 0 },
                { "Roles", "string", "", "The node's roles.", 0 }, ageColumn(),
                { "Version", "string", "", "Kubelet version.", 0 },
                { "GPUs (plugin)", "integer", "",
                    "nvidia.com/gpu capacity advertised by the device plugin.", 1 },
                { "OS-Image", "string", "", "OS image reported by the node.", 1 },
                { "Container-Runtime", "string", "", "Container runtime version.", 1 } } },
        { Kind::Pod,
            { nameColumn(), { "Ready", "string", "", "Ready containers out of all containers.", 0 },
                { "Status", "string", "", "The pod's phase.", 0 }, ageColumn(),
                { "Node", "string", "", "The node the pod runs on.", 1 },
                { "Claims", "string", "", "Resource claims of the pod.", 1 } } },
        { Kind::Namespace,
            { nameColumn(), { "Status", "string", "", "The namespace's phase.", 0 },
                ageColumn() } },
        { Kind::Event,
            { { "Last Seen", "string", "", "Time of the last occurrence.", 0 },
                { "Type", "string", "", "Normal or Warning.", 0 },
                { "Reason", "string", "", "Why the event happened.", 0 },
                { "Object", "string", "", "The object the event is about.", 0 },
                { "Message", "string", "", "What happened.", 0 } } },
        { Kind::Deployment,
            { nameColumn(), { "Ready", "string", "", "Ready pods out of the desired number.", 0 },
                { "Up-to-date", "integer", "", "Pods running the current template.", 0 },
                { "Available", "integer", "", "Pods available to serve.", 0 }, ageColumn(),
                { "Containers", "string", "", "Containers of the pod template.", 1 },
                { "Images", "string", "", "Images of the pod template.", 1 },
                { "Selector", "string", "", "Labels of the deployment's pods.", 1 } } },
        { Kind::ReplicaSet,
            { nameColumn(), { "Desired", "integer", "", "Desired number of pods.", 0 },
                { "Current", "integer", "", "Pods that exist.", 0 },
                { "Ready", "integer", "", "Pods that are Ready.", 0 }, ageColumn(),
                { "Containers", "string", "", "Containers of the pod template.", 1 },
                { "Images", "string", "", "Images of the pod template.", 1 },
                { "Selector", "string", "", "Labels of the replica set's pods.", 1 } } },
        { Kind::DaemonSet,
            { nameColumn(), { "Desired", "integer", "", "Nodes that should run a pod.", 0 },
                { "Current", "integer", "", "Nodes running a pod.", 0 },
                { "Ready", "integer", "", "Nodes whose pod is Ready.", 0 },
                { "Up-to-date", "integer", "", "Nodes running the current template.", 0 },
                { "Available", "integer", "", "Nodes whose pod is available.", 0 },
                { "Node Selector", "string", "", "Labels a node needs to run a pod.", 0 },
                ageColumn(), { "Containers", "string", "", "Containers of the pod template.", 1 },
                { "Images", "string", "", "Images of the pod template.", 1 } } },
        { Kind::Service,
            { nameColumn(), { "Type", "string", "", "How the service is exposed.", 0 },
                { "Cluster-IP", "string", "", "The service's virtual IP.", 0 },
                { "External-IP", "string", "", "Addresses outside the cluster.", 0 },
                { "Port(s)", "string", "", "Ports the service exposes.", 0 }, ageColumn(),
                { "Selector", "string", "", "Labels of the pods traffic goes to.", 1 } } },
        { Kind::HTTPRoute,
            { nameColumn(), { "Hostnames", "string", "", "Host names the route matches.", 0 },
                ageColumn(),
                { "Backends", "string", "", "Backends with their weights; mirrors marked.", 1 } } },
        { Kind::RoleBinding, bindingColumns() },
        { Kind::ResourceQuota,
            { nameColumn(), ageColumn(),
                { "Request", "string", "", "Used and hard limit of each request quota.", 0 },
                { "Limit", "string", "", "Used and hard limit of each limits quota.", 0 } } },
        { Kind::ClusterRoleBinding, bindingColumns() },
        { Kind::Lease,
            { nameColumn(), { "Holder", "string", "", "Who holds the lease.", 0 }, ageColumn() } },
    };
    static const std::vector<TableColumn> fallback = { nameColumn(), ageColumn() };
    const auto it = columns.find(kind);
    return it == columns.end() ? fallback : it->second;
}

std::vector<std::string> tableRow(const model::Object &object, int64_t now)
{
    const std::string age = humanAge(object.meta.creationTimestamp, now);
    const std::string &name = object.meta.name;
    switch (object.kind) {
    case Kind::DeviceClass: {
        const auto &deviceClass = *object.as<model::DeviceClass>();
        return { name, age, std::to_string(deviceClass.selectors.size()),
            deviceClass.extendedResourceName };
    }
    case Kind::ResourceSlice: {
        const auto &slice = *object.as<model::ResourceSlice>();
        return { name, slice.nodeName, slice.driver, slice.pool.name, age,
            std::to_string(slice.devices.size()), std::to_string(slice.pool.generation) };
    }
    case Kind::ResourceClaim: {
        const auto &claim = *object.as<model::ResourceClaim>();
        const bool deleting = !object.meta.deletionTimestamp.empty();
        return { name, claim.state(deleting), age,
            claim.allocation ? allocatedNode(*claim.allocation) : "",
            claim.allocation ? devicesOf(*claim.allocation) : "" };
    }
    case Kind::ResourceClaimTemplate:
        return { name, age,
            std::to_string(object.as<model::ResourceClaimTemplate>()->spec.requests.size()) };
    case Kind::DeviceTaintRule: {
        const auto &rule = *object.as<model::DeviceTaintRule>();
        return { name, age, rule.taint.effect, rule.taint.key };
    }
    case Kind::Node: {
        const auto &node = *object.as<model::Node>();
        return { name, node.status(), nodeRoles(object.meta), age, node.kubeletVersion,
            std::to_string(node.devicePluginGpus()), node.osImage, node.containerRuntimeVersion };
    }
    case Kind::Pod: {
        const auto &pod = *object.as<model::Pod>();
        std::vector<std::string> claims;
        for (const auto &status : pod.resourceClaimStatuses)
            claims.push_back(status.resourceClaimName);
        for (const auto &claim : pod.resourceClaims)
            if (!claim.resourceClaimName.empty())
                claims.push_back(claim.resourceClaimName);
        return { name, readyCount(pod), pod.phase.empty() ? "Unknown" : pod.phase, age,
            pod.nodeName, join(claims) };
    }
    case Kind::Namespace:
        return { name,
            object.as<model::Namespace>()->phase.empty() ? "Active"
                                                         : object.as<model::Namespace>()->phase,
            age };
    case Kind::Event: {
        const auto &event = *object.as<model::Event>();
        const std::string &last
            = !event.lastTimestamp.empty() ? event.lastTimestamp : event.eventTime;
        std::string kind = event.involvedObject.kind;
        for (char &c : kind)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        return { humanAge(last, now), event.type, event.reason,
            kind + "/" + event.involvedObject.name, event.message };
    }
    case Kind::Deployment: {
        const auto &d = *object.as<model::Deployment>();
        const auto [containers, images] = templateContainers(d.podTemplate);
        return { name, std::to_string(d.readyReplicas) + "/" + std::to_string(d.replicas),
            std::to_string(d.updatedReplicas), std::to_string(d.availableReplicas), age, containers,
            images, labelText(d.selector.matchLabels) };
    }
    case Kind::ReplicaSet: {
        const auto &r = *object.as<model::ReplicaSet>();
        const auto [containers, images] = templateContainers(r.podTemplate);
        return { name, std::to_string(r.replicas), std::to_string(r.statusReplicas),
            std::to_string(r.readyReplicas), age, containers, images,
            labelText(r.selector.matchLabels) };
    }
    case Kind::DaemonSet: {
        const auto &d = *object.as<model::DaemonSet>();
        const auto [containers, images] = templateContainers(d.podTemplate);
        return { name, std::to_string(d.desiredNumberScheduled),
            std::to_string(d.currentNumberScheduled), std::to_string(d.numberReady),
            std::to_string(d.updatedNumberScheduled), std::to_string(d.numberAvailable),
            labelText(d.podTemplate.pod.nodeSelector), age, containers, images };
    }
    case Kind::Service: {
        const auto &service = *object.as<model::Service>();
        return { name, service.type, service.clusterIP.empty() ? "<none>" : service.clusterIP,
            "<none>", servicePorts(service), age, labelText(service.selector) };
    }
    case Kind::HTTPRoute: {
        const auto &route = *object.as<model::HTTPRoute>();
        return { name, route.hostnames.empty() ? "*" : join(route.hostnames), age,
            routeBackends(route) };
    }
    case Kind::RoleBinding:
    case Kind::ClusterRoleBinding:
        return { name, boundRole(object), age, boundSubjects(object, "User"),
            boundSubjects(object, "Group"), boundSubjects(object, "ServiceAccount") };
    case Kind::Role:
    case Kind::ResourceQuota:
        return { name, age, quotaColumn(object, false), quotaColumn(object, true) };
    case Kind::Lease:
        return { name,
            object.raw ? object.raw->value(nlohmann::json::json_pointer("/spec/holderIdentity"), "")
                       : std::string(),
            age };
    case Kind::ClusterRole:
    case Kind::ServiceAccount:
    case Kind::StatefulSet:
    case Kind::NetworkPolicy:
    case Kind::ResourcePoolStatusRequest:
    case Kind::Unknown:
        break;
    }
    return { name, age };
}

} // namespace dra::inventory
