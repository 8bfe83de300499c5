// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <QObject>
#include <QTimer>

#include "core/common/result.h"
#include "core/common/clock.h"
#include "core/sandbox/claim_releaser.h"
#include "core/sandbox/daemon_set_controller.h"
#include "core/sandbox/pool_status_controller.h"
#include "core/sandbox/demo_kubelet.h"
#include "core/sandbox/deployment_controller.h"
#include "core/sandbox/garbage_collector.h"
#include "core/sandbox/pod_exec.h"
#include "core/sandbox/pod_responders.h"
#include "core/sandbox/pod_scheduler.h"
#include "core/sandbox/replica_set_controller.h"
#include "core/sandbox/sandbox_faults.h"
#include "core/sandbox/service_endpoints.h"
#include "core/sandbox/traffic_metrics.h"
#include "core/sandbox/traffic_source.h"
#include "core/server/object_writer.h"

namespace dra::sandbox {

struct ControlPlaneOptions
{
    int64_t startDelayMs = 1000; // how long a bound pod takes to start
    int tickMs = 150; // how often start() looks for changes; 0: only runPass()/settle() act
    bool podResponders = true; // each Running pod answers HTTP on its loopback podIP
    // Requests per second the demo traffic source sends through each HTTPRoute rule once
    // started (with the responders); 0: none.
    int trafficRequestsPerSecond = 20;
};

// The demo cluster's control plane: Deployment, ReplicaSet and DaemonSet controllers, garbage
// collector, scheduler, kubelet, claim release and per-pod HTTP responders, acting on what clients
// write. Each pass reads the cache through `writer` (the cache's single writer), lets every
// controller act, and commits their writes as one batch, then calls the committed callback
// (WatchHub::poll) so watchers see them at once. Passes run when the cache changed or a pod is
// due to start. Time comes from `clock`. Thread of the writer.
class ControlPlane final : public QObject
{
    Q_OBJECT
public:
    ControlPlane(server::ObjectWriter &writer, common::Clock &clock,
        ControlPlaneOptions options = {}, QObject *parent = nullptr);

    void setCommittedCallback(std::function<void()> callback) { m_committed = std::move(callback); }
    // Starts the timer (options.tickMs).
    void start();

    // One pass of every controller; true when it wrote something.
    [[nodiscard]] Result<bool> runPass();
    // Passes until one writes nothing (at most `maxPasses`).
    [[nodiscard]] Result<void> settle(int maxPasses = 20);

    // The faults in force; call faultsChanged() after changing them.
    FaultSet &faults() { return m_faults; }
    void faultsChanged() { m_lastRev = -1; }
    const PodResponders &responders() const { return m_responders; }
    // The request metrics the traffic source measured (the demo Prometheus answers from them).
    const TrafficMetrics &metrics() const { return m_metrics; }
    TrafficSource &traffic() { return m_traffic; }
    // The Ready pods behind a Service now (the services/proxy subresource); nullopt when there
    // is no such Service.
    std::optional<std::vector<ServiceEndpoint>> serviceEndpoints(
        const std::string &ns, const std::string &service, const std::string &port);
    // `command` run in `container` (empty: the first) of pod ns/name, as the demo's containers
    // answer it (pod_exec.h), the wrong-device fault applied. NotFound: no such pod; Invalid:
    // no such container, or the pod is not running.
    [[nodiscard]] Result<ExecOutcome> execInPod(const std::string &ns, const std::string &name,
        const std::string &container, const std::vector<std::string> &command);
    // Spreads proxied requests over a Service's pods.
    size_t nextProxyPick() { return m_proxyPicks++; }

private:
    void tick();
    std::pair<int, std::string> answerMetricsQuery(const std::string &target) const;

    server::ObjectWriter &m_writer;
    common::Clock &m_clock;
    ControlPlaneOptions m_options;
    FaultSet m_faults;
    GarbageCollector m_garbageCollector;
    DeploymentController m_deployments;
    ReplicaSetController m_replicaSets;
    DaemonSetController m_daemonSets;
    PodScheduler m_scheduler;
    DemoKubelet m_kubelet;
    ClaimReleaser m_claimReleaser;
    PoolStatusController m_poolStatus;
    PodResponders m_responders;
    TrafficMetrics m_metrics;
    TrafficSource m_traffic;
    size_t m_proxyPicks = 0;
    std::function<void()> m_committed;
    QTimer m_timer;
    int64_t m_lastRev = -1; // the cache's revision after the last pass
    int64_t m_wakeAtMs = 0;
};

} // namespace dra::sandbox
