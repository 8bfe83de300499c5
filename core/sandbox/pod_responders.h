// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include <QObject>

#include <nlohmann/json.hpp>

#include "core/sandbox/object_view.h"
#include "core/sandbox/sandbox_faults.h"

class QTcpServer;
class QTcpSocket;

namespace dra::sandbox {

// What each running demo pod serves: plain HTTP on its loopback address (podLoopbackAddress) and
// first containerPort (8080 when none), any path answered 200 with {pod, namespace, node, devices:
// [uuid...]}, or 500 under the fault http-500. So probes, error rates and device identity checks
// reach a real socket. Pods labelled app (or app.kubernetes.io/name) = prometheus answer the
// Prometheus HTTP API instead, through the metrics handler. Thread of the control plane.
class PodResponders final : public QObject
{
    Q_OBJECT
public:
    explicit PodResponders(const FaultSet &faults, QObject *parent = nullptr);
    ~PodResponders() override;

    // Answers a request to a Prometheus pod: its request-target ("/api/v1/query?query=...") to
    // HTTP status and JSON body.
    using MetricsHandler = std::function<std::pair<int, std::string>(const std::string &target)>;
    void setMetricsHandler(MetricsHandler handler) { m_metricsHandler = std::move(handler); }

    // Starts a responder for each Running pod with a demo podIP and stops those of pods that
    // are gone or no longer running.
    void sync(const ObjectView &view);
    int count() const { return int(m_responders.size()); }

private:
    struct Responder;
    void answer(Responder &responder, QTcpSocket *socket);

    const FaultSet &m_faults;
    MetricsHandler m_metricsHandler;
    std::map<std::string, std::unique_ptr<Responder>> m_responders; // by pod uid
};

} // namespace dra::sandbox
