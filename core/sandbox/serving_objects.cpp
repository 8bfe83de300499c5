// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/serving_objects.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

// The pod-template-hash a Deployment controller would give the current template: stable for a
// given app, from the factory's seed like every other generated name.
std::string templateHash(const ObjectFactory &factory, const ServingApp &app)
{
    return factory.nameSuffix("pod-template-hash/" + app.ns + '/' + app.name, 10);
}

json selectorLabels(const ServingApp &app)
{
    return { { "app", app.name } };
}

json podTemplate(const ServingApp &app, json labels)
{
    // Past the GPU nodes' taint; the GPU servers on the device plugin's nodes only.
    json spec = { { "containers", json::array({ servingContainer(app) }) },
        { "tolerations",
            json::array({ { { "key", "nvidia.com/gpu" }, { "operator", "Exists" },
                { "effect", "NoSchedule" } } }) } };
    if (app.gpusPerPod > 0)
        spec["nodeSelector"] = { { "sandbox.dra-console.io/gpu-stack", "device-plugin" } };
    return { { "metadata", { { "labels", std::move(labels) } } }, { "spec", std::move(spec) } };
}

json controllerReference(const ObjectFactory &factory, std::string_view apiVersion,
    std::string_view kind, const std::string &name, const std::string &ns)
{
    return { { "apiVersion", apiVersion }, { "kind", kind }, { "name", name },
        { "uid", factory.uid(kind, name, ns) }, { "controller", true },
        { "blockOwnerDeletion", true } };
}

} // namespace

std::string servingReplicaSetName(const ObjectFactory &factory, const ServingApp &app)
{
    return app.name + '-' + templateHash(factory, app);
}

json servingContainer(const ServingApp &app)
{
    json container = { { "name", "server" }, { "image", app.image },
        { "ports",
            json::array({ { { "name", "http" }, { "containerPort", app.port },
                { "protocol", "TCP" } } }) } };
    if (app.gpusPerPod > 0) {
        const std::string gpus = std::to_string(app.gpusPerPod);
        container["resources"] = { { "limits", { { "nvidia.com/gpu", gpus } } },
            { "requests", { { "nvidia.com/gpu", gpus } } } };
    }
    return container;
}

json servingPodLabels(const ObjectFactory &factory, const ServingApp &app)
{
    json labels = selectorLabels(app);
    labels["pod-template-hash"] = templateHash(factory, app);
    return labels;
}

json servingPodOwner(const ObjectFactory &factory, const ServingApp &app)
{
    return controllerReference(
        factory, "apps/v1", "ReplicaSet", servingReplicaSetName(factory, app), app.ns);
}

json servingDeployment(const ObjectFactory &factory, const ServingApp &app)
{
    json deployment = factory.object("apps/v1", "Deployment", app.name, app.ns);
    deployment["metadata"]["labels"] = selectorLabels(app);
    deployment["metadata"]["annotations"] = { { "deployment.kubernetes.io/revision", "1" } };
    deployment["spec"] = { { "replicas", app.replicas },
        { "selector", { { "matchLabels", selectorLabels(app) } } },
        { "template", podTemplate(app, selectorLabels(app)) },
        { "strategy",
            { { "type", "RollingUpdate" },
                { "rollingUpdate", { { "maxUnavailable", "25%" }, { "maxSurge", "25%" } } } } },
        { "revisionHistoryLimit", 10 }, { "progressDeadlineSeconds", 600 } };
    deployment["status"] = { { "observedGeneration", 1 }, { "replicas", app.replicas },
        { "updatedReplicas", app.replicas }, { "readyReplicas", app.replicas },
        { "availableReplicas", app.replicas },
        { "conditions",
            json::array({ { { "type", "Available" }, { "status", "True" },
                              { "reason", "MinimumReplicasAvailable" },
                              { "message", "Deployment has minimum availability." } },
                { { "type", "Progressing" }, { "status", "True" },
                    { "reason", "NewReplicaSetAvailable" },
                    { "message",
                        "ReplicaSet \"" + servingReplicaSetName(factory, app)
                            + "\" has successfully progressed." } } }) } };
    return deployment;
}

json servingReplicaSet(const ObjectFactory &factory, const ServingApp &app)
{
    const json labels = servingPodLabels(factory, app);
    json replicaSet
        = factory.object("apps/v1", "ReplicaSet", servingReplicaSetName(factory, app), app.ns);
    replicaSet["metadata"]["labels"] = labels;
    replicaSet["metadata"]["annotations"] = { { "deployment.kubernetes.io/revision", "1" },
        { "deployment.kubernetes.io/desired-replicas", std::to_string(app.replicas) } };
    replicaSet["metadata"]["ownerReferences"]
        = json::array({ controllerReference(factory, "apps/v1", "Deployment", app.name, app.ns) });
    replicaSet["spec"] = { { "replicas", app.replicas },
        { "selector", { { "matchLabels", labels } } }, { "template", podTemplate(app, labels) } };
    replicaSet["status"] = { { "observedGeneration", 1 }, { "replicas", app.replicas },
        { "fullyLabeledReplicas", app.replicas }, { "readyReplicas", app.replicas },
        { "availableReplicas", app.replicas } };
    return replicaSet;
}

json servingService(const ObjectFactory &factory, const ServingApp &app)
{
    json service = factory.object("v1", "Service", app.name, app.ns);
    service["metadata"]["labels"] = selectorLabels(app);
    const std::string ip = "10.96."
        + std::to_string(factory.hash("service-ip/" + app.ns + '/' + app.name) % 250 + 1) + ".10";
    service["spec"] = { { "type", "ClusterIP" }, { "clusterIP", ip },
        { "clusterIPs", json::array({ ip }) }, { "selector", selectorLabels(app) },
        { "ports",
            json::array({ { { "name", "http" }, { "port", app.servicePort },
                { "targetPort", "http" }, { "protocol", "TCP" } } }) } };
    service["status"] = { { "loadBalancer", json::object() } };
    return service;
}

json servingRoute(const ObjectFactory &factory, const ServingApp &app)
{
    json route = factory.object("gateway.networking.k8s.io/v1", "HTTPRoute", app.name, app.ns);
    route["spec"] = { { "parentRefs",
                          json::array({ { { "name", "public" }, { "namespace", "gateways" } } }) },
        { "hostnames", json::array({ app.name + ".demo.example.com" }) },
        { "rules",
            json::array({ { { "matches",
                                json::array({ { { "path",
                                    { { "type", "PathPrefix" }, { "value", "/" } } } } }) },
                { "backendRefs",
                    json::array(
                        { { { "name", app.name }, { "port", 80 }, { "weight", 100 } } }) } } }) } };
    return route;
}

json driverDaemonSet(const ObjectFactory &factory, const std::string &name,
    const std::string &image, const std::string &nodeLabel, const std::string &value, int nodes)
{
    json daemonSet = factory.object("apps/v1", "DaemonSet", name, kGpuOperatorNamespace);
    const json labels = { { "app.kubernetes.io/name", name } };
    daemonSet["metadata"]["labels"] = labels;
    daemonSet["spec"] = { { "selector", { { "matchLabels", labels } } },
        { "template",
            { { "metadata", { { "labels", labels } } },
                { "spec",
                    { { "nodeSelector", { { nodeLabel, value } } },
                        { "tolerations",
                            json::array({ { { "key", "nvidia.com/gpu" }, { "operator", "Exists" },
                                { "effect", "NoSchedule" } } }) },
                        { "containers",
                            json::array({ { { "name", name }, { "image", image } } }) } } } } },
        { "updateStrategy", { { "type", "RollingUpdate" } } } };
    daemonSet["status"] = { { "currentNumberScheduled", nodes }, { "numberMisscheduled", 0 },
        { "desiredNumberScheduled", nodes }, { "numberReady", nodes }, { "observedGeneration", 1 },
        { "updatedNumberScheduled", nodes }, { "numberAvailable", nodes } };
    return daemonSet;
}

} // namespace dra::sandbox
