// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/rollout_host.h"

#include <algorithm>

#include <QEventLoop>
#include <QFileInfo>
#include <QTimer>

#include "core/common/json_text.h"
#include "core/common/logging.h"
#include "core/kube/rest_client.h"
#include "core/rollout/controller_inbox.h"
#include "core/rollout/controller_lease.h"
#include "core/rollout/kube_cluster.h"
#include "core/rollout/rollout_store.h"
#include "core/store/state_db.h"

namespace dra::rollout {

using common::qs;

HostedClusterFactory kubeClusterFactory(kube::ClientConfig config, std::string userAgent)
{
    return [config, userAgent]() -> Result<HostedCluster> {
        struct Connection
        {
            std::unique_ptr<kube::RestClient> client;
            std::unique_ptr<KubeCluster> cluster; // goes before the client it uses
        };
        kube::RestOptions rest;
        rest.userAgent = QByteArray::fromStdString(userAgent);
        rest.exec.terminalAvailable = false;
        auto connection = std::make_shared<Connection>();
        connection->client = std::make_unique<kube::RestClient>(config, rest);
        connection->cluster = std::make_unique<KubeCluster>(*connection->client);
        ClusterPort *port = connection->cluster.get();
        return HostedCluster { std::move(connection), port };
    };
}

RolloutHost::RolloutHost(QString statePath, HostedClusterFactory clusters, common::Clock &clock,
    RolloutHostOptions options, QObject *parent)
    : QObject(parent)
    , m_statePath(std::move(statePath))
    , m_clusters(std::move(clusters))
    , m_clock(clock)
    , m_options(std::move(options))
{
}

RolloutHost::~RolloutHost()
{
    stop();
}

void RolloutHost::start()
{
    m_running = true;
    scan();
    scanLater();
}

void RolloutHost::scanLater()
{
    m_clock.callLater(m_options.scanMs, this, [this]() {
        if (!m_running)
            return;
        scan();
        scanLater();
    });
}

void RolloutHost::stop()
{
    m_running = false;
    stopControllers();
}

void RolloutHost::stopControllers()
{
    for (auto &[id, controller] : m_controllers) {
        controller->stop();
        delete controller;
    }
    m_controllers.clear();
    std::lock_guard lock(m_mutex);
    m_driven.clear();
}

bool RolloutHost::ensureCluster()
{
    if (m_cluster.port)
        return true;
    if (!m_clusters)
        return false;
    Result<HostedCluster> made = m_clusters();
    if (!made)
        return false;
    m_cluster = std::move(*made);
    return true;
}

bool RolloutHost::mayDrive() const
{
    std::lock_guard lock(m_mutex);
    return !m_leadership || m_leadership->leading;
}

void RolloutHost::setLeadership(HostLeadership leadership)
{
    const bool leading = leadership.leading;
    {
        std::lock_guard lock(m_mutex);
        m_leadership = std::move(leadership);
    }
    if (!leading) {
        // Another replica may take the rollouts over: none is driven here from now on.
        stopControllers();
        return;
    }
    if (m_running)
        scan();
}

std::optional<HostLeadership> RolloutHost::leadership() const
{
    std::lock_guard lock(m_mutex);
    return m_leadership;
}

void RolloutHost::scan()
{
    if (!mayDrive() || !QFileInfo::exists(m_statePath))
        return;
    std::vector<std::string> toDrive, toTick;
    {
        Result<store::StateDb> db = store::StateDb::open(m_statePath, store::OpenMode::ReadOnly);
        if (!db)
            return;
        Result<std::vector<RolloutRecord>> records = RolloutStore(*db).list();
        if (!records)
            return;
        ControllerInbox inbox(*db);
        const int64_t now = m_clock.nowMs();
        for (const RolloutRecord &record : *records) {
            const std::string &id = record.state.id;
            Result<std::vector<QueuedCommand>> pending = inbox.pending(id);
            const bool waiting = pending && !pending->empty();
            if (const auto hosted = m_controllers.find(id); hosted != m_controllers.end()) {
                // A verb just queued is taken now rather than at the next tick.
                if (waiting && !hosted->second->busy())
                    toTick.push_back(id);
                continue;
            }
            if (isSettled(record.state.stage) && !waiting)
                continue;
            Result<std::optional<ControllerLease>> lease = othersLiveLease(
                *db, id, m_options.controller.owner, now, m_options.controller.leaseStaleMs);
            if (!lease || *lease)
                continue; // another controller drives it: followed, not competed with
            toDrive.push_back(id);
        }
    }
    // The state file is closed by now: a tick writes to it.
    for (const std::string &id : toTick)
        if (const auto hosted = m_controllers.find(id); hosted != m_controllers.end())
            hosted->second->tick();
    for (const std::string &id : toDrive)
        drive(id);
}

void RolloutHost::drive(const std::string &id)
{
    if (!ensureCluster()) {
        keep(id, QStringLiteral("cannot drive %1 here: no cluster").arg(qs(id)));
        return;
    }
    auto controller = std::make_unique<RolloutController>(
        m_statePath, id, *m_cluster.port, m_clock, m_options.controller, this);
    if (Result<void> loaded = controller->load(); !loaded) {
        keep(id, loaded.error().message);
        return;
    }
    connect(controller.get(), &RolloutController::message, this,
        [this, id](const QString &text) { keep(id, text); });
    connect(
        controller.get(), &RolloutController::tickFinished, this, [this, id]() { afterTick(id); });
    RolloutController *started = controller.release();
    m_controllers[id] = started;
    {
        std::lock_guard lock(m_mutex);
        m_driven.push_back(id);
    }
    keep(id,
        QStringLiteral("driving %1 at %2 (%3)")
            .arg(qs(id), QString::fromLatin1(stageName(started->state().stage)),
                qs(m_options.controller.owner.text())));
    started->start();
}

void RolloutHost::afterTick(const std::string &id)
{
    const auto hosted = m_controllers.find(id);
    if (hosted == m_controllers.end())
        return;
    RolloutController *controller = hosted->second;
    if (!isSettled(controller->state().stage))
        return;
    // Nothing left to drive: the lease goes; a verb given later starts a controller again.
    bool waiting = false;
    if (Result<store::StateDb> db = store::StateDb::open(m_statePath, store::OpenMode::ReadOnly))
        if (Result<std::vector<QueuedCommand>> pending = ControllerInbox(*db).pending(id))
            waiting = !pending->empty();
    if (waiting)
        return;
    controller->stop();
    keep(id,
        QStringLiteral("%1 is %2: its controller stopped")
            .arg(qs(id), QString::fromLatin1(stageName(controller->state().stage))));
    m_controllers.erase(hosted);
    controller->deleteLater();
    std::lock_guard lock(m_mutex);
    std::erase(m_driven, id);
}

void RolloutHost::startRollout(
    const RolloutPlan &plan, const StartRequest &request, std::function<void(StartOutcome)> done)
{
    if (!ensureCluster()) {
        StartOutcome outcome;
        outcome.error = common::Error { common::Error::Code::Unsupported,
            QStringLiteral("this server has no cluster to start %1 on").arg(qs(plan.name)) };
        done(std::move(outcome));
        return;
    }
    keep(plan.name,
        QStringLiteral("pre-flight of %1 (%2) for %3")
            .arg(qs(plan.name), qs(plan.workloadKey()), qs(request.actor)));
    rollout::startRollout(m_statePath, plan, request, *m_cluster.port, m_clock, this,
        [this, name = plan.name, done = std::move(done)](StartOutcome outcome) {
            if (outcome.preflight)
                keep(name, QStringLiteral("pre-flight: %1").arg(qs(outcome.preflight->summary())));
            if (outcome.error)
                keep(name, QStringLiteral("not started: %1").arg(outcome.error->message));
            const bool started = outcome.started();
            done(std::move(outcome));
            if (started)
                scan(); // the start is carried out by a controller here
        });
}

void RolloutHost::keep(const std::string &id, const QString &text)
{
    {
        std::lock_guard lock(m_mutex);
        std::deque<HostMessage> &kept = m_messages[id];
        kept.push_back({ m_clock.nowMs(), text.toStdString() });
        while (kept.size() > m_options.messagesKept)
            kept.pop_front();
    }
    Q_EMIT message(QString::fromStdString(id), text);
}

std::vector<HostMessage> RolloutHost::messages(const std::string &id) const
{
    std::lock_guard lock(m_mutex);
    const auto found = m_messages.find(id);
    return found == m_messages.end()
        ? std::vector<HostMessage>()
        : std::vector<HostMessage>(found->second.begin(), found->second.end());
}

bool RolloutHost::drives(const std::string &id) const
{
    std::lock_guard lock(m_mutex);
    return std::find(m_driven.begin(), m_driven.end(), id) != m_driven.end();
}

namespace {

// How long a stopping host waits for the cluster to take its Lease back; past it, the Lease
// simply expires.
constexpr int kReleaseWaitMs = 3'000;

// The candidate for a host's Lease and the connection it uses, made on the host's thread.
QObject *electOver(RolloutHost *host, const ClusterLeaseSetup &setup)
{
    auto *election = new QObject;
    kube::RestOptions rest;
    rest.userAgent = QByteArray::fromStdString(setup.userAgent);
    rest.exec.terminalAvailable = false;
    auto *client = new kube::RestClient(setup.config, rest, common::Clock::system(), election);
    auto *candidate
        = new kube::LeaderLease(*client, setup.options, common::Clock::system(), election);
    candidate->setObjectName(QStringLiteral("lease"));
    const std::string leaseName = candidate->leaseName();
    const std::string identity = setup.options.identity;
    host->setLeadership({ leaseName, identity, {}, false });
    // Leading only while the holder read is this replica, so a holder seen to change away from
    // it is not driven for even one scan before the candidate says it lost the Lease.
    const auto follow = [host, candidate, leaseName, identity]() {
        host->setLeadership({ leaseName, identity, candidate->holder(),
            candidate->leading() && candidate->holder() == identity });
    };
    QObject::connect(candidate, &kube::LeaderLease::holderChanged, host, follow);
    QObject::connect(candidate, &kube::LeaderLease::leadingChanged, host,
        [follow, leaseName, identity](bool leading) {
            follow();
            qCInfo(lcKube).noquote()
                << QStringLiteral("rollouts: %1 %2 Lease %3")
                       .arg(qs(identity),
                           leading ? QStringLiteral("holds") : QStringLiteral("no longer holds"),
                           qs(leaseName));
        });
    QObject::connect(candidate, &kube::LeaderLease::problem, host, [](const QString &message) {
        qCWarning(lcKube).noquote() << QStringLiteral("rollouts: ") + message;
    });
    candidate->start();
    return election;
}

} // namespace

RolloutHostThread::RolloutHostThread(QString statePath, HostedClusterFactory clusters,
    RolloutHostOptions options, std::optional<ClusterLeaseSetup> lease)
    : m_host(new RolloutHost(
        std::move(statePath), std::move(clusters), common::Clock::system(), std::move(options)))
{
    m_thread.setObjectName(QStringLiteral("rollout-host"));
    m_host->moveToThread(&m_thread);
    m_thread.start();
    if (lease)
        QMetaObject::invokeMethod(
            m_host, [this, setup = std::move(*lease)]() { m_election = electOver(m_host, setup); },
            Qt::BlockingQueuedConnection);
    QMetaObject::invokeMethod(
        m_host, [host = m_host]() { host->start(); }, Qt::QueuedConnection);
}

RolloutHostThread::~RolloutHostThread()
{
    // Its controllers, their cluster connection and timers end on the thread they live on.
    QMetaObject::invokeMethod(
        m_host, [host = m_host]() { delete host; }, Qt::BlockingQueuedConnection);
    if (m_election)
        // The Lease is given up, so that another replica takes over at once rather than after
        // its duration; a cluster that does not answer in time lets it expire instead.
        QMetaObject::invokeMethod(
            m_election,
            [election = m_election]() {
                QEventLoop released;
                auto *candidate = election->findChild<kube::LeaderLease *>(QStringLiteral("lease"));
                candidate->release([&released]() { released.quit(); });
                QTimer::singleShot(kReleaseWaitMs, &released, &QEventLoop::quit);
                if (candidate->releasing())
                    released.exec();
                delete election;
            },
            Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

} // namespace dra::rollout
