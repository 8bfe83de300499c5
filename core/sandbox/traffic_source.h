// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <QObject>
#include <QTimer>

#include "core/common/clock.h"
#include "core/sandbox/object_view.h"
#include "core/sandbox/service_endpoints.h"
#include "core/sandbox/traffic_metrics.h"

namespace dra::sandbox {

// The demo cluster's users: a steady stream of requests through every HTTPRoute, split over the
// route's backendRefs by their weights and copied to the backends of its RequestMirror filters
// (their `percent`), each sent over a real socket to a Running, Ready pod behind the Service, and
// what came back (status, duration) counted in TrafficMetrics under the pod's Deployment. So a
// canary's error rate and latency, a shadow's mirrored load and each cutover step's share are
// measured from what the pods answer, not assumed. Every scrape interval it samples the metrics.
// Thread of the control plane.
class TrafficSource final : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        int requestsPerSecond = 20; // per route rule
        int scrapeIntervalMs = 1000;
        int timeoutMs = 2000;
        int maxInFlight = 64; // requests beyond this are not sent (counted as nothing)
    };

    TrafficSource(
        TrafficMetrics &metrics, common::Clock &clock, Options options, QObject *parent = nullptr);
    ~TrafficSource() override;

    // Reads the routes, Services and pods of the pass: where requests go from now on.
    void sync(const ObjectView &view);
    // Sends requests and scrapes on timers until destroyed.
    void start();
    // One request through every route rule (and its mirrors); for tests that step by hand.
    void sendRound();
    // Samples the metrics now (the scrape timer's work).
    void scrape();
    int inFlight() const { return m_inFlight; }

    struct Backend
    {
        std::string service;
        int weight = 1;
        std::vector<ServiceEndpoint> endpoints;
        size_t next = 0; // round robin over the endpoints
    };
    struct Mirror
    {
        Backend backend;
        int percent = 100;
        int64_t credit = 0; // per-mille of a request owed to the mirror
    };
    // One rule of a route: its weighted backends (smooth weighted round robin keeps the exact
    // ratio) and mirrors.
    struct Rule
    {
        std::string route; // "ns/name#index", for logs
        std::vector<Backend> backends;
        std::vector<int> current; // smooth weighted round robin state
        std::vector<Mirror> mirrors;
    };
    const std::vector<Rule> &rules() const { return m_rules; }

private:
    void send(Backend &backend);

    TrafficMetrics &m_metrics;
    common::Clock &m_clock;
    Options m_options;
    std::vector<Rule> m_rules;
    int m_inFlight = 0;
    QTimer m_sendTimer, m_scrapeTimer;
};

} // namespace dra::sandbox
