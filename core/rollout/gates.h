// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The evidence gates as pure functions: model objects in, a verdict with the checks that
// decided it out. Nothing here reads the cluster; the controller gathers the objects.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/object.h"
#include "core/rollout/gate_result.h"
#include "core/rollout/rollout_plan.h"

namespace dra::alloc {
struct Diagnosis;
}

namespace dra::rollout {

// What the node gate's command (NodeGateConfig::command) did in a pod's container.
struct ContainerCommand
{
    std::string out, err;
    int exitCode = 0;
    std::string error; // it could not run: exec forbidden, no such pod, no answer
};

// The DRA driver's DaemonSets (NodeGateConfig::driverDaemonSet, or those named as kubelet
// plugins are) and their pods on every node, for the node gate's driver check.
struct DriverPods
{
    std::vector<std::string> daemonSets; // "namespace/name"
    std::vector<model::Object> pods;
    std::string error; // the DaemonSets or their pods could not be read
};

// One canary pod with the objects around it: its claims (any namespace; matched by the pod's
// namespace), the ResourceSlices that published their devices, and Events (about the pod or
// its claims; others are ignored); and what the node gate's command printed in it, when it ran.
struct PodEvidence
{
    model::Object pod;
    std::vector<model::Object> claims;
    std::vector<model::Object> slices;
    std::vector<model::Object> events;
    std::optional<ContainerCommand> command;
    std::optional<DriverPods> driver; // nullopt: no driver DaemonSet known, not checked
};

// The Deployment facts gates need (Deployments are not in the model).
struct WorkloadStatus
{
    bool exists = false;
    int replicas = 0; // spec.replicas
    int readyReplicas = 0; // status.readyReplicas
};

// API gate: every claim of the pod created, allocated and reserved for this pod, no repeated
// allocation-failure Events (a single failure before the claim was allocated is noted, not
// failed). Not yet created / allocated / reserved is Inconclusive: the PendingTooLong stop
// condition decides when waiting becomes a failure.
GateResult apiGate(const PodEvidence &evidence, int64_t now = 0);

// Node gate: the pod scheduled on the node of its devices, containers started, no driver
// preparation errors, and the device identity the driver reports in the claim's
// status.devices[].data[identityField] equal to the ResourceSlice's `identityAttribute`.
// Where the driver publishes no identity (or the slice none), the identity check is
// Inconclusive: never assumed. With a command (nvidia-smi -L), the GPU and MIG UUIDs it printed
// in the container must be exactly those allocated (a MIG device's parent GPU is expected): a
// neighbour's GPU fails; a command that could not run or is missing is Inconclusive. A pod
// without command evidence (the collector looks into a few running canaries) has no such check.
// With driver evidence, the driver's DaemonSet pod on the pod's node must be Ready: none there
// or one not Ready fails; pods that could not be read are Inconclusive.
GateResult nodeGate(const PodEvidence &evidence, const NodeGateConfig &config, int64_t now = 0);

// One HTTP probe of a canary pod.
struct ProbeResult
{
    bool ok = false;
    int status = 0; // HTTP status, 0 when no answer
    double latencyMs = 0;
    std::string error;
};

// Request metrics of a Deployment over the observation window (from Prometheus or the demo
// traffic source).
struct TrafficMetrics
{
    double errorRate = 0; // 0..1
    double latencyP95Ms = 0;
    int64_t requests = 0;
};

struct ApplicationEvidence
{
    std::vector<model::Object> pods; // the canary's pods
    std::vector<ProbeResult> probes;
    std::optional<TrafficMetrics> baseline, canary;
    // Who takes requests now (the route's weights and mirror): metrics are judged only where
    // there are requests to measure, so a canary before Shadow is not held up for want of
    // data, and at 100% the canary is held to the absolute ceiling, not to an idle baseline.
    bool canaryTakesTraffic = true;
    bool baselineTakesTraffic = true;
};

// Application gate: every canary pod Ready, probes answering (at the plan's success ratio),
// error rate and latency within the plan's thresholds against the baseline. A configured check
// without data is Inconclusive; an unconfigured one is not checked.
GateResult applicationGate(
    const ApplicationEvidence &evidence, const ApplicationGateConfig &config, int64_t now = 0);

// The negative control: a claim whose selector no device satisfies must stay unallocated with
// an explainable reason (an Event, or the allocation simulation's diagnosis).
struct NegativeControlEvidence
{
    std::optional<model::Object> claim;
    std::vector<model::Object> events;
    const alloc::Diagnosis *diagnosis = nullptr; // from alloc::diagnoseClaim, when available
};

GateResult negativeControlGate(const NegativeControlEvidence &evidence, int64_t now = 0);

// Pre-flight before start: the cluster serves resource.k8s.io, the baseline is Ready, and no
// node has both device-plugin GPUs and DRA devices of a GPU driver (one GPU, two managers).
struct BaselineEvidence
{
    std::vector<std::string> servedResourceVersions; // "v1", "v1beta2", ...
    WorkloadStatus baseline;
    std::vector<model::Object> nodes;
    std::vector<model::Object> slices;
    // Recorded as the baseline facts (baseline_facts.h), never judged:
    std::string kubernetesVersion; // empty when /version did not answer
    std::vector<model::Object> daemonSets;
    std::string daemonSetsError; // why they could not be listed, if so
    std::optional<TrafficMetrics> baselineMetrics;
    std::string identityAttribute = "uuid"; // the plan's node.identityAttribute
};

GateResult baselineGate(const BaselineEvidence &evidence, int64_t now = 0);

// Rollback verified: the baseline at its replicas and Ready, the canary Deployment and its
// pods gone, no claim from the variant's template left, traffic back (when a route is used).
struct RollbackEvidence
{
    WorkloadStatus baseline;
    int expectedReplicas = 0;
    WorkloadStatus canary;
    int canaryPods = 0;
    std::vector<std::string> remainingClaims; // "ns/name" of claims the variant created
    std::optional<int> routeBaselineWeight; // nullopt: no route (replica ratio)
};

GateResult rollbackGate(const RollbackEvidence &evidence, int64_t now = 0);

} // namespace dra::rollout
