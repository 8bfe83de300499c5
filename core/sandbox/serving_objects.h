// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The serving stack a GPU rollout starts from, shaped as a real cluster holds it: a model
// server Deployment on the device-plugin pool with its ReplicaSet, a Service and an HTTPRoute in
// front of it, the DaemonSets of the NVIDIA device plugin and DRA driver, and the Prometheus
// that measures the model server.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/sandbox/object_factory.h"

namespace dra::sandbox {

// The namespace of the GPU drivers' DaemonSets.
inline constexpr const char *kGpuOperatorNamespace = "gpu-operator";
// The demo's Prometheus: Deployment and Service `monitoring/prometheus`, port 9090.
inline constexpr const char *kMonitoringNamespace = "monitoring";

struct ServingApp
{
    std::string ns; // "inference"
    std::string name; // "llm-server": Deployment, Service and HTTPRoute share it
    std::string image;
    int replicas = 1;
    int gpusPerPod = 1; // nvidia.com/gpu limit of the server container; 0: no GPU, any node
    int port = 8000; // the server's container port
    int servicePort = 80; // where the Service listens
};

// The Deployment, fully rolled out (status says every replica is ready).
nlohmann::json servingDeployment(const ObjectFactory &factory, const ServingApp &app);
// Its current ReplicaSet, owned by the Deployment; pods are named "<its name>-<suffix>".
nlohmann::json servingReplicaSet(const ObjectFactory &factory, const ServingApp &app);
// That ReplicaSet's name: "<app>-<pod-template-hash>".
std::string servingReplicaSetName(const ObjectFactory &factory, const ServingApp &app);
// The labels of the app's pods (app, pod-template-hash) and their owner reference.
nlohmann::json servingPodLabels(const ObjectFactory &factory, const ServingApp &app);
nlohmann::json servingPodOwner(const ObjectFactory &factory, const ServingApp &app);
// The container of the app's pods: image, port, GPU limit.
nlohmann::json servingContainer(const ServingApp &app);
nlohmann::json servingService(const ObjectFactory &factory, const ServingApp &app);
// All traffic to the app's Service, through the `public` Gateway.
nlohmann::json servingRoute(const ObjectFactory &factory, const ServingApp &app);

// A driver DaemonSet on the nodes labelled `nodeLabel`=`value`, running on `nodes` of them.
nlohmann::json driverDaemonSet(const ObjectFactory &factory, const std::string &name,
    const std::string &image, const std::string &nodeLabel, const std::string &value, int nodes);

} // namespace dra::sandbox
