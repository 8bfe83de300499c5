// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include <QObject>

#include <nlohmann/json.hpp>

#include "core/common/clock.h"
#include "core/rollout/cluster_port.h"
#include "core/rollout/gates.h"
#include "core/rollout/rollout_plan.h"
#include "core/rollout/rollout_state.h"

namespace dra::rollout {

// What one look at the cluster found for the current stage: the gates it could evaluate, and
// the facts the stop conditions follow over time.
struct StageEvidence
{
    std::vector<GateResult> gates;
    bool canaryPending = false; // a canary pod or its claim is still waiting
    bool readinessFailed = false; // a started canary pod is not Ready
    std::optional<double> canaryErrorRate;
    bool claimsRemain = false; // rolling back: the variant's claims are still there
    int baselineReplicas = 0; // the baseline Deployment's spec.replicas now
};

// Parses a Prometheus instant-query answer (`{"status":"success","data":{"resultType":"vector",
// "result":[{"value":[ts,"0.01"]}]}}`): the first sample's value, nullopt for an empty vector.
Result<std::optional<double>> prometheusScalar(const QByteArray &body);

// Gathers from the cluster what the gates of the rollout's current stage need and runs the
// gates: the canary's pods with their claims, the slices and Events; both Deployments; the
// negative-control claim; the route's weights; HTTP probes of the canary pods and the Prometheus
// queries when the plan configures them. Thread of its parent; plan, cluster and clock must
// outlive it.
class EvidenceCollector final : public QObject
{
    Q_OBJECT
public:
    EvidenceCollector(const RolloutPlan &plan, ClusterPort &cluster, common::Clock &clock,
        int httpTimeoutMs = 5'000, QObject *parent = nullptr);

    // Evidence for `state`'s (effective) stage: Baseline gives the pre-flight baseline gate;
    // Canary, Shadow and Cutover the api, node and application gates (and the negative control
    // during Canary); RollingBack the rollback gate; other stages nothing. Not called back once
    // the collector is gone.
    void collect(const RolloutState &state, std::function<void(Result<StageEvidence>)> done);

private:
    struct Gathering;
    void next(std::shared_ptr<Gathering> gathering);
    void gatherBaselineFacts(std::shared_ptr<Gathering> gathering);
    // The DRA driver's DaemonSets and their pods, for the node gate's driver check.
    void gatherDriverPods(std::shared_ptr<Gathering> gathering);
    void listDriverPods(std::shared_ptr<Gathering> gathering, std::vector<std::string> namespaces,
        std::function<void()> then);
    void evaluate(std::shared_ptr<Gathering> gathering);
    StageEvidence evaluateGathered(const Gathering &gathering);
    void probe(std::shared_ptr<Gathering> gathering, size_t index, std::function<void()> then);
    // Runs the node gate's command in the canary pods from `index` on.
    void look(std::shared_ptr<Gathering> gathering, size_t index, std::function<void()> then);
    void query(const std::string &queryText, const std::string &deployment,
        std::function<void(std::optional<double>)> then);
    // The plan's error rate and p95 latency of `deployment`; nullopt without an error rate.
    void queryMetrics(
        const std::string &deployment, std::function<void(std::optional<TrafficMetrics>)> then);

    const RolloutPlan &m_plan;
    ClusterPort &m_cluster;
    common::Clock &m_clock;
    int m_httpTimeoutMs;
};

} // namespace dra::rollout
