// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The RolloutPlan document (`apiVersion: draconsole.io/v1alpha1`, `kind: RolloutPlan`): what a
// canary -> shadow -> cutover rollout moves, how traffic is split, and when it stops.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <QString>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace dra::rollout {

inline constexpr std::string_view kPlanApiVersion = "draconsole.io/v1alpha1";
inline constexpr std::string_view kPlanKind = "RolloutPlan";

// The device-plugin workload the rollout starts from.
struct Baseline
{
    std::string ns; // spec.baseline.namespace
    std::string deployment; // spec.baseline.deployment
};

// How the canary's pod template differs from the baseline's.
struct PodTemplateChange
{
    std::vector<std::string> removeResources {
        "nvidia.com/gpu"
    }; // dropped from requests and limits
    std::string claimName = "gpu"; // the pod's resourceClaims[].name
    std::vector<std::string> containers; // containers that get resources.claims; empty: all
    std::vector<std::pair<std::string, std::string>>
        nodeSelector; // selects the DRA pool, replacing the baseline's
};

// The DRA variant: a ResourceClaimTemplate plus the pod template change. `name` identifies the
// variant for `reject` (default: the template's name).
struct Variant
{
    std::string name;
    std::string deployment; // the canary Deployment (default: "<baseline>-dra")
    std::string templateName;
    nlohmann::json templateManifest; // the full ResourceClaimTemplate, resource.k8s.io/v1
    std::string templateFile; // where it came from when given as `file:` (as written)
    PodTemplateChange podTemplate;
};

enum class TrafficMode {
    HttpRoute, // Gateway API HTTPRoute backend weights, RequestMirror filter for shadow
    ReplicaRatio, // no gateway: both Deployments behind one Service, traffic by replica count
};

struct Traffic
{
    TrafficMode mode = TrafficMode::HttpRoute;
    std::string route; // HTTPRoute name (HttpRoute mode)
    std::string baselineService; // the route's backend for the baseline (HttpRoute mode)
    std::string canaryService; // the route's backend for the canary (HttpRoute mode)
    std::string service; // the shared Service (ReplicaRatio mode)
    int mirrorPercent = 100; // RequestMirror percent during shadow
};

struct CanaryStage
{
    int replicas = 1;
    int64_t observationMs = 10 * 60'000;
};

struct ShadowStage
{
    bool enabled = true;
    int64_t observationMs = 30 * 60'000;
};

struct CutoverStep
{
    int percent = 0;
    int64_t observationMs = 0;
};

struct ApplicationGateConfig
{
    std::string probePath; // HTTP path probed on each canary pod; empty: no probe
    int probePort = 0;
    double minProbeSuccess = 1.0; // fraction of probes that must succeed
    std::string
        prometheusUrl; // query endpoint, or an API server path to it; empty: no metrics comparison
    std::string errorRateQuery, latencyQuery; // PromQL, `$deployment` replaced by the workload
    std::optional<double> maxErrorRate; // absolute ceiling for the canary (0..1)
    std::optional<double> maxErrorRateIncrease; // canary minus baseline (0..1)
    std::optional<double> maxLatencyRatio; // canary / baseline
};

struct NodeGateConfig
{
    std::string identityAttribute = "uuid"; // ResourceSlice attribute naming the device
    std::string identityField = "uuid"; // key in the claim's status.devices[].data
    // Run in each canary's container through pods/exec: the GPU and MIG UUIDs it prints must
    // be exactly those of the pod's allocated devices. Empty: not run.
    std::vector<std::string> command = { "nvidia-smi", "-L" };
    std::string container; // empty: the pod's default container
    // The DRA driver's DaemonSet ("namespace/name") whose pod on each canary's node must be
    // Ready. Empty: the DaemonSets named as kubelet plugins are ("...kubelet-plugin"), and
    // when there is none the check is not made.
    std::string driverDaemonSet;
};

struct NegativeControlConfig
{
    bool enabled = true;
    std::string selector; // CEL that no device satisfies; default: an impossible UUID
    std::string deviceClassName; // default: the variant template's first request class
};

enum class StopAction { Pause, Rollback };

struct StopCondition
{
    enum class Type {
        PendingTooLong,
        WrongDeviceIdentity,
        ReadinessFailures,
        ErrorRateAbove,
        ClaimNotReleased
    };
    Type type = Type::PendingTooLong;
    StopAction action = StopAction::Pause;
    int64_t afterMs = 0; // PendingTooLong, ClaimNotReleased
    int threshold = 0; // ReadinessFailures: failures in a row
    double rate = 0; // ErrorRateAbove: 0..1
};

struct RollbackConfig
{
    // How long traffic is back on the baseline before the canary is deleted, so that requests
    // in flight finish (spec.rollback.drainWindow).
    int64_t drainMs = 30'000;
};

// When the verbs that move a rollout forward may be given (spec.maintenanceWindow): on `days`,
// from `startMinute` local time for `durationMs`, in the IANA time zone `timeZone`. Outside it
// they need a force and a reason (governance.h).
struct MaintenanceWindow
{
    std::vector<int> days; // ISO weekdays, 1 Monday .. 7 Sunday, ascending; every day by default
    int startMinute = 0; // after local midnight
    int64_t durationMs = 0; // at most 7 days
    std::string timeZone = "UTC";
};

// A validated plan. `metadata.name` is the rollout's id.
struct RolloutPlan
{
    std::string name;
    std::string description;
    Baseline baseline;
    Variant variant;
    Traffic traffic;
    CanaryStage canary;
    ShadowStage shadow;
    std::vector<CutoverStep> cutover; // ascending percents, last one 100
    ApplicationGateConfig application;
    NodeGateConfig node;
    NegativeControlConfig negativeControl;
    std::vector<StopCondition> stopConditions;
    RollbackConfig rollback;
    std::string owner; // spec.owner: who answers for the rollout (shown, not enforced)
    int approvals = 1; // spec.approvals: 2 = promotion and finalise need a second person
    std::optional<MaintenanceWindow> maintenanceWindow;

    // "inference/llm" — one rollout per workload at a time.
    std::string workloadKey() const { return baseline.ns + "/" + baseline.deployment; }
    const StopCondition *stopCondition(StopCondition::Type type) const;
};

// One thing wrong with a plan: where (file, line and column when known, field path) and why.
struct PlanError
{
    std::string path; // "spec.cutover.steps[2]"
    int line = 0; // 1-based, 0 when unknown
    int column = 0;
    std::string reason;

    // "FILE:LINE:COL: PATH: reason" (the position left out when unknown).
    QString message(const QString &file) const;
};

// A plan or every reason it is not one.
struct PlanParse
{
    std::optional<RolloutPlan> plan; // set only when errors is empty
    std::vector<PlanError> errors; // in document order

    // All errors, one per line, each naming `file`.
    QString errorText(const QString &file) const;
};

// Parses and validates a plan. Never stops at the first problem: unknown fields, missing and
// malformed values and inconsistencies (steps not ascending, shadow without a mirror-capable
// traffic mode, ...) are all reported. `baseDir` resolves `file:` references (empty: no file
// access; a `file:` reference is then an error). Thread-safe.
PlanParse parsePlan(std::string_view yaml, const QString &baseDir = {});

// Reads and parses a plan file; file errors come back as a single PlanError at path "".
PlanParse readPlanFile(const QString &path);

// The plan as JSON (durations as text, e.g. "10m"), for `dractl rollout plan -o json`. It is
// itself a valid, self-contained plan (a `file:` template is inlined, defaults are spelled
// out): the form to store with a rollout.
nlohmann::json planJson(const RolloutPlan &plan);

// A readable multi-line summary of the plan.
std::string planSummary(const RolloutPlan &plan);

const char *trafficModeName(TrafficMode mode);
const char *stopActionName(StopAction action);
const char *stopConditionName(StopCondition::Type type);

} // namespace dra::rollout
