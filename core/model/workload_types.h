// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The workloads a rollout moves from the device-plugin pool to DRA, and what routes traffic to
// them: apps/v1 Deployments, ReplicaSets and DaemonSets (the DRA driver's and the device
// plugin's), core/v1 Services and Gateway API HTTPRoutes. Only the fields the console reads;
// the raw JSON keeps the rest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/core_types.h"
#include "core/model/object_meta.h"

namespace dra::model {

// metav1.LabelSelector. matchExpressions are counted, not evaluated: the console matches
// workloads to pods by matchLabels and says so when a selector has expressions.
struct LabelSelector
{
    StringPairs matchLabels;
    int matchExpressions = 0;

    // True when every matchLabels pair is among `labels` (and there are no expressions).
    bool matches(const StringPairs &labels) const;
};

// The pod template of a workload: its labels and the pod spec fields the console reads.
struct PodTemplate
{
    StringPairs labels;
    Pod pod; // spec fields only (containers, resource claims, node selector)
};

struct Deployment
{
    int32_t replicas = 1; // spec.replicas, defaulted as the API server does
    LabelSelector selector;
    PodTemplate podTemplate;
    bool paused = false;
    // status
    int64_t observedGeneration = 0;
    int32_t statusReplicas = 0, updatedReplicas = 0, readyReplicas = 0, availableReplicas = 0;
    std::vector<NodeCondition> conditions;
};

struct ReplicaSet
{
    int32_t replicas = 1;
    LabelSelector selector;
    PodTemplate podTemplate;
    // status
    int64_t observedGeneration = 0;
    int32_t statusReplicas = 0, readyReplicas = 0, availableReplicas = 0;
};

struct DaemonSet
{
    LabelSelector selector;
    PodTemplate podTemplate;
    // status
    int64_t observedGeneration = 0;
    int32_t desiredNumberScheduled = 0, currentNumberScheduled = 0, numberReady = 0,
            numberAvailable = 0, updatedNumberScheduled = 0;
};

struct ServicePort
{
    std::string name, protocol, targetPort; // targetPort as written: a number or a port name
    int32_t port = 0;
};

struct Service
{
    std::string type; // ClusterIP, NodePort, LoadBalancer, ExternalName
    std::string clusterIP;
    StringPairs selector;
    std::vector<ServicePort> ports;
};

// A backend of an HTTPRoute rule (a Service, unless group/kind say otherwise).
struct RouteBackend
{
    std::string group, kind, name, ns; // ns empty: the route's namespace
    int32_t port = 0;
    int32_t weight = 1; // the Gateway API default
};

struct RouteRule
{
    std::vector<RouteBackend> backends;
    // RequestMirror filters: where a copy of the traffic goes (shadow).
    std::vector<RouteBackend> mirrors;
};

struct HTTPRoute
{
    std::vector<std::string> parents; // parentRefs as "namespace/name" or "name"
    std::vector<std::string> hostnames;
    std::vector<RouteRule> rules;
};

} // namespace dra::model
