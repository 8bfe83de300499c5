// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/control_plane.h"

#include <algorithm>

#include <QUrl>
#include <QUrlQuery>

#include "core/common/logging.h"
#include "core/sandbox/control_pass.h"
#include "core/sandbox/controller_support.h"
#include "core/sandbox/metric_query.h"
#include "core/sandbox/object_view.h"

namespace dra::sandbox {

ControlPlane::ControlPlane(server::ObjectWriter &writer, common::Clock &clock,
    ControlPlaneOptions options, QObject *parent)
    : QObject(parent)
    , m_writer(writer)
    , m_clock(clock)
    , m_options(options)
    , m_kubelet(options.startDelayMs)
    , m_responders(m_faults)
    , m_traffic(m_metrics, clock, { options.trafficRequestsPerSecond })
{
    connect(&m_timer, &QTimer::timeout, this, &ControlPlane::tick);
    m_responders.setMetricsHandler(
        [this](const std::string &target) { return answerMetricsQuery(target); });
}

void ControlPlane::start()
{
    if (m_options.tickMs > 0)
        m_timer.start(m_options.tickMs);
    tick();
    if (m_options.podResponders)
        m_traffic.start();
}

std::optional<std::vector<ServiceEndpoint>> ControlPlane::serviceEndpoints(
    const std::string &ns, const std::string &service, const std::string &port)
{
    ObjectView view(m_writer);
    return readyEndpoints(view, ns, service, port);
}

Result<ExecOutcome> ControlPlane::execInPod(const std::string &ns, const std::string &name,
    const std::string &container, const std::vector<std::string> &command)
{
    ObjectView view(m_writer);
    const nlohmann::json *pod = view.find(model::Kind::Pod, ns, name);
    if (!pod)
        return std::unexpected(common::Error { common::Error::Code::NotFound,
            QStringLiteral("pods \"%1\" not found").arg(QString::fromStdString(name)) });
    std::string chosen = container;
    bool known = false;
    for (const nlohmann::json &spec :
        pod->value("/spec/containers"_json_pointer, nlohmann::json::array())) {
        if (chosen.empty())
            chosen = spec.value("name", "");
        known = known || spec.value("name", "") == chosen;
    }
    if (!known)
        return std::unexpected(common::Error { common::Error::Code::Invalid,
            QString::fromStdString("container " + chosen + " is not valid for pod " + name) });
    if (textAt(*pod, "/status/phase") != "Running")
        return std::unexpected(common::Error { common::Error::Code::Invalid,
            QString::fromStdString("pod " + name + " is not running (phase "
                + textAt(*pod, "/status/phase") + "): there is no container to exec in") });
    const bool wrongDevice
        = m_faults.applies(FaultKind::WrongDevice, ns, deploymentOfPod(view, *pod));
    return demoExec(view, *pod, chosen, command, wrongDevice);
}

std::pair<int, std::string> ControlPlane::answerMetricsQuery(const std::string &target) const
{
    // Form encoding, as Prometheus (and kubectl, which re-encodes the query) have it: '+' is a
    // space, a literal plus comes as %2B.
    std::string formTarget = target;
    if (const size_t query = formTarget.find('?'); query != std::string::npos)
        std::replace(formTarget.begin() + std::ptrdiff_t(query), formTarget.end(), '+', ' ');
    const QUrl url(QString::fromStdString("http://prometheus" + formTarget));
    if (url.path() != QLatin1String("/api/v1/query"))
        return { 404,
            nlohmann::json { { "status", "error" }, { "errorType", "not_found" },
                { "error", "this demo Prometheus answers /api/v1/query only" } }
                .dump() };
    const QUrlQuery query(url);
    // `time` is seconds since the epoch (fractions allowed); absent: now.
    bool timeGiven = false;
    const double seconds = query.queryItemValue(QStringLiteral("time")).toDouble(&timeGiven);
    const int64_t atMs = timeGiven ? int64_t(seconds * 1000) : m_clock.nowMs();
    const auto [status, body] = prometheusQueryApi(
        query.queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded).toStdString(), m_metrics,
        atMs);
    return { status, body.dump() };
}

Result<bool> ControlPlane::runPass()
{
    ObjectView view(m_writer);
    ControlPass pass { view, m_clock.nowMs(), m_faults };
    try {
        // Owners first, so a pass never makes pods for a ReplicaSet it then deletes.
        m_garbageCollector.reconcile(pass);
        m_deployments.reconcile(pass);
        m_replicaSets.reconcile(pass);
        m_daemonSets.reconcile(pass);
        m_scheduler.reconcile(pass);
        m_kubelet.reconcile(pass);
        m_claimReleaser.reconcile(pass);
        m_poolStatus.reconcile(pass);
    } catch (const std::exception &error) {
        // nlohmann throws on an object of an unexpected shape; one bad object must not stop
        // the demo, and nothing of this pass is stored.
        return dra::fail(common::Error::Code::Invalid,
            QStringLiteral("demo control plane: %1").arg(QString::fromUtf8(error.what())));
    }
    m_wakeAtMs = pass.wakeAtMs;
    const bool wrote = view.changed();
    if (Result<void> committed = view.commit(); !committed)
        return dra::fail(committed.error());
    if (view.removedAny(model::Kind::Pod) || view.removedAny(model::Kind::ResourceClaim))
        m_scheduler.retryUnschedulableNow();
    if (m_options.podResponders) {
        m_responders.sync(view);
        m_traffic.sync(view);
    }
    if (wrote && m_committed)
        m_committed();
    return wrote;
}

Result<void> ControlPlane::settle(int maxPasses)
{
    for (int i = 0; i < maxPasses; ++i) {
        Result<bool> wrote = runPass();
        if (!wrote)
            return dra::fail(wrote.error());
        if (!*wrote)
            break;
    }
    Result<int64_t> rev = m_writer.cache().currentRev();
    if (!rev)
        return dra::fail(rev.error());
    m_lastRev = *rev;
    return {};
}

void ControlPlane::tick()
{
    Result<int64_t> rev = m_writer.cache().currentRev();
    if (!rev) {
        qCWarning(lcSandbox, "demo control plane: %s", qPrintable(rev.error().message));
        return;
    }
    const bool due = m_wakeAtMs != 0 && m_clock.nowMs() >= m_wakeAtMs;
    if (*rev == m_lastRev && !due)
        return;
    if (Result<void> settled = settle(); !settled) {
        qCWarning(lcSandbox, "%s", qPrintable(settled.error().message));
        m_lastRev = *rev; // try again on the next change, not on every tick
    }
}

} // namespace dra::sandbox
