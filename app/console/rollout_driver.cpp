// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/rollout_driver.h"

#include <QFileInfo>
#include <QThread>

#include "core/common/json_text.h"
#include "core/common/clock.h"
#include "core/rollout/controller_inbox.h"
#include "core/rollout/rollout_controller.h"
#include "core/rollout/rollout_start.h"
#include "core/rollout/rollout_store.h"
#include "core/rollout/state_writer.h"
#include "core/store/state_db.h"
#include "views/rollout/rollout_panel.h"

namespace dra::console {

namespace {

using common::qs;
using views::RolloutSnapshot;

// Everything the panel shows of the state file at `path`, with rollout `id` open ("" for none).
std::shared_ptr<RolloutSnapshot> readRolloutSnapshot(
    const QString &path, const std::string &id, int64_t now)
{
    auto snapshot = std::make_shared<RolloutSnapshot>();
    snapshot->statePath = path;
    snapshot->at = now;
    if (!QFileInfo::exists(path))
        return snapshot;
    Result<store::StateDb> db = store::StateDb::open(path, store::OpenMode::ReadOnly);
    if (!db) {
        snapshot->error = db.error();
        return snapshot;
    }
    rollout::RolloutStore store(*db);
    rollout::ControllerInbox inbox(*db);
    const auto failed = [&](const common::Error &error) {
        snapshot->error = error;
        return snapshot;
    };
    Result<std::vector<rollout::RolloutRecord>> records = store.list();
    if (!records)
        return failed(records.error());
    for (const rollout::RolloutRecord &record : *records)
        snapshot->rollouts.push_back(
            { record.state.id, record.state.workload, record.state.stage, record.updatedAt });
    if (id.empty())
        return snapshot;
    Result<std::optional<rollout::RolloutRecord>> record = store.load(id);
    if (!record)
        return failed(record.error());
    if (!*record)
        return failed(common::Error { common::Error::Code::NotFound,
            QStringLiteral("no rollout named %1 in %2").arg(qs(id), path) });
    snapshot->state = (*record)->state;
    if (const rollout::PlanParse parsed = rollout::parsePlan((*record)->planYaml); parsed.plan)
        snapshot->plan = std::make_shared<const rollout::RolloutPlan>(*parsed.plan);
    Result<rollout::AuditLog::TargetAudit> audit = store.audit().entriesVerified(id);
    if (!audit)
        return failed(audit.error());
    snapshot->audit = std::move(audit->entries);
    snapshot->verification = std::move(audit->verification);
    Result<std::optional<rollout::ControllerLease>> lease = inbox.lease(id);
    if (!lease)
        return failed(lease.error());
    snapshot->lease = *lease;
    Result<std::vector<rollout::QueuedCommand>> pending = inbox.pending(id);
    if (!pending)
        return failed(pending.error());
    snapshot->pending = std::move(*pending);
    return snapshot;
}

// What decides whether a new snapshot is news (heartbeats alone are not).
std::string snapshotKey(const RolloutSnapshot &snapshot)
{
    std::string key = std::to_string(int(snapshot.drive)) + "|";
    for (const views::RolloutSummary &summary : snapshot.rollouts)
        key += summary.id + ":" + rollout::stageName(summary.stage) + ":"
            + std::to_string(summary.updatedAt) + ",";
    key += "|" + std::to_string(snapshot.audit.size())
        + (snapshot.audit.empty() ? "" : snapshot.audit.back().hash);
    key += "|" + std::to_string(snapshot.pending.size());
    key += "|" + (snapshot.lease ? snapshot.lease->owner : std::string());
    key += "|" + (snapshot.error ? snapshot.error->message.toStdString() : std::string());
    return key;
}

} // namespace

// Lives on the worker thread: the controller, its cluster port, and every read and write of
// the state file.
class RolloutDriver::Worker final : public QObject
{
public:
    Worker(QString statePath, ClusterFactory clusters, common::Clock &clock,
        RolloutDriverOptions options, std::function<void(views::RolloutSnapshotPtr)> publish,
        std::function<void(QString)> say)
        : m_statePath(std::move(statePath))
        , m_clusters(std::move(clusters))
        , m_clock(clock)
        , m_options(std::move(options))
        , m_publish(std::move(publish))
        , m_say(std::move(say))
    {
    }
    ~Worker() override { shutdown(); }

    void begin()
    {
        publishNow(true);
        follow();
    }

    void refresh() { publishNow(true); }

    void open(const std::string &id)
    {
        stopController();
        m_id = id;
        m_error.reset();
        m_drive = RolloutSnapshot::Drive::Idle;
        const std::optional<rollout::ControllerLease> lease = othersLease();
        if (lease) {
            m_drive = RolloutSnapshot::Drive::Remote;
            m_seenAudit = lastAuditSeq();
            m_say(QStringLiteral("%1 is driven by %2: following it, verbs are queued for it")
                      .arg(qs(id), qs(lease->owner)));
        } else {
            driveHere(/*evenWhenSettled=*/false);
        }
        publishNow(true);
    }

    void startFromPlan(const QString &file)
    {
        const rollout::PlanParse parsed = rollout::readPlanFile(file);
        if (!parsed.plan) {
            m_error = common::Error { common::Error::Code::Invalid,
                QStringLiteral("%1 is not a valid plan: %2").arg(file, parsed.errorText(file)) };
            return publishNow(true);
        }
        const rollout::RolloutPlan &plan = *parsed.plan;
        if (!ensureCluster()) // a rollout nobody here could start is not created
            return publishNow(true);
        m_say(QStringLiteral("pre-flight of %1 (%2)…").arg(qs(plan.name), qs(plan.workloadKey())));
        rollout::startRollout(m_statePath, plan, rollout::StartRequest { m_options.actor },
            *m_cluster.port, m_clock, this,
            [this, name = plan.name, file](rollout::StartOutcome outcome) {
                if (outcome.preflight)
                    m_say(QStringLiteral("pre-flight: %1").arg(qs(outcome.preflight->summary())));
                if (outcome.existingStage) {
                    m_say(QStringLiteral("%1 exists already (at %2): opened it")
                              .arg(qs(name),
                                  QString::fromLatin1(rollout::stageName(*outcome.existingStage))));
                    return open(name);
                }
                if (outcome.error) {
                    m_error = outcome.error;
                    return publishNow(true);
                }
                m_say(QStringLiteral("created %1 from %2; start queued").arg(qs(name), file));
                open(name);
            });
    }

    void give(const views::VerbRequest &request)
    {
        if (m_id.empty())
            return;
        rollout::Command command { request.verb, m_options.actor, request.reason };
        command.acceptInconclusive = request.acceptInconclusive;
        command.force = request.force;
        command.gate = request.gate;
        // A verb nobody here could carry out is not queued, so no later controller takes it by
        // surprise.
        if (m_drive != RolloutSnapshot::Drive::Remote && !m_controller && !ensureCluster())
            return publishNow(true);
        const Result<int64_t> queued = [&]() -> Result<int64_t> {
            Result<store::StateDb> db = rollout::openStateWriter(m_statePath);
            if (!db)
                return fail(db.error());
            return rollout::ControllerInbox(*db).enqueue(m_id, command, m_clock.nowMs());
        }();
        if (!queued) {
            m_error = queued.error();
            return publishNow(true);
        }
        m_error.reset();
        if (m_drive == RolloutSnapshot::Drive::Remote) {
            m_say(QStringLiteral("%1 queued for the controller that drives %2")
                      .arg(QString::fromLatin1(rollout::verbName(request.verb)), qs(m_id)));
            return publishNow(true);
        }
        if (!m_controller) {
            driveHere(/*evenWhenSettled=*/true); // its first tick takes the verb
        } else if (m_running) {
            m_controller->tick();
        } else {
            m_running = true;
            m_drive = RolloutSnapshot::Drive::Local;
            m_controller->start();
        }
        publishNow(true);
    }

    void shutdown()
    {
        m_stopped = true;
        stopController();
    }

private:
    // The live lease of the open rollout when another controller holds it (as dractl decides
    // it: a dead process of this host holds none).
    std::optional<rollout::ControllerLease> othersLease()
    {
        if (!QFileInfo::exists(m_statePath))
            return std::nullopt;
        Result<store::StateDb> db = store::StateDb::open(m_statePath, store::OpenMode::ReadOnly);
        if (!db)
            return std::nullopt;
        Result<std::optional<rollout::ControllerLease>> lease = rollout::othersLiveLease(
            *db, m_id, m_options.owner, m_clock.nowMs(), m_options.leaseStaleMs);
        return lease ? *lease : std::nullopt;
    }

    int64_t lastAuditSeq() const
    {
        Result<store::StateDb> db = store::StateDb::open(m_statePath, store::OpenMode::ReadOnly);
        if (!db)
            return 0;
        Result<std::vector<rollout::AuditEntry>> entries
            = rollout::RolloutStore(*db).audit().entries(m_id);
        return !entries || entries->empty() ? 0 : entries->back().seq;
    }

    // The cluster port of this console's controller; false (and the error kept) when there is
    // none to be had.
    bool ensureCluster()
    {
        if (m_cluster.port)
            return true;
        Result<rollout::HostedCluster> made = m_clusters
            ? m_clusters()
            : fail(common::Error::Code::Invalid, QStringLiteral("no cluster"));
        if (!made) {
            m_error = common::Error { made.error().code,
                QStringLiteral("cannot drive the rollout here: %1").arg(made.error().message) };
            return false;
        }
        m_cluster = std::move(*made);
        return true;
    }

    // Starts the controller of the open rollout here; a settled rollout gets one only for a verb.
    void driveHere(bool evenWhenSettled)
    {
        if (!ensureCluster())
            return;
        rollout::ControllerOptions options;
        options.autoPromote = false; // promotion is the reviewer's button
        options.tickMs = m_options.tickMs;
        options.leaseStaleMs = m_options.leaseStaleMs;
        options.owner = m_options.owner;
        auto controller = std::make_unique<rollout::RolloutController>(
            m_statePath, m_id, *m_cluster.port, m_clock, options, this);
        if (Result<void> loaded = controller->load(); !loaded) {
            m_error = loaded.error();
            return;
        }
        connect(controller.get(), &rollout::RolloutController::message, this,
            [this](const QString &text) { m_say(text); });
        connect(controller.get(), &rollout::RolloutController::tickFinished, this,
            [this]() { afterTick(); });
        m_controller = std::move(controller);
        if (!evenWhenSettled && rollout::isSettled(m_controller->state().stage))
            return;
        m_running = true;
        m_drive = RolloutSnapshot::Drive::Local;
        m_controller->start();
    }

    void afterTick()
    {
        if (!m_controller)
            return;
        m_error = m_controller->lastError();
        // Nothing is left to drive once the rollout settled: the lease goes, verbs restart it.
        if (m_running && rollout::isSettled(m_controller->state().stage)) {
            m_running = false;
            m_controller->stop();
            m_drive = RolloutSnapshot::Drive::Idle;
        }
        publishNow(false);
    }

    void stopController()
    {
        if (m_controller && m_running)
            m_controller->stop();
        m_running = false;
        m_controller.reset();
    }

    // Looks at the state file every followMs: another controller's moves, a lease gone stale.
    void follow()
    {
        if (m_stopped)
            return;
        if (m_drive == RolloutSnapshot::Drive::Remote && !m_id.empty()) {
            if (!othersLease()) {
                m_say(QStringLiteral("the controller of %1 stopped: this console drives it now")
                          .arg(qs(m_id)));
                m_drive = RolloutSnapshot::Drive::Idle;
                driveHere(/*evenWhenSettled=*/false);
            }
        }
        publishNow(false);
        m_clock.callLater(m_options.followMs, this, [this]() { follow(); });
    }

    void publishNow(bool force)
    {
        std::shared_ptr<RolloutSnapshot> snapshot
            = readRolloutSnapshot(m_statePath, m_id, m_clock.nowMs());
        snapshot->drive = m_drive;
        if (m_error && !snapshot->error)
            snapshot->error = m_error;
        if (m_drive == RolloutSnapshot::Drive::Remote) {
            // What the other controller did, as it appears in the audit log.
            for (const rollout::AuditEntry &entry : snapshot->audit)
                if (entry.seq > m_seenAudit)
                    m_say(QStringLiteral("[%1] %2 %3: %4")
                              .arg(qs(m_id), qs(entry.actor), qs(entry.action), qs(entry.result)));
            if (!snapshot->audit.empty())
                m_seenAudit = std::max(m_seenAudit, snapshot->audit.back().seq);
        }
        std::string key = snapshotKey(*snapshot);
        if (!force && key == m_lastKey)
            return;
        m_lastKey = std::move(key);
        m_publish(std::move(snapshot));
    }

    QString m_statePath;
    ClusterFactory m_clusters;
    common::Clock &m_clock;
    RolloutDriverOptions m_options;
    std::function<void(views::RolloutSnapshotPtr)> m_publish;
    std::function<void(QString)> m_say;
    rollout::HostedCluster m_cluster;
    std::unique_ptr<rollout::RolloutController> m_controller;
    std::string m_id;
    RolloutSnapshot::Drive m_drive = RolloutSnapshot::Drive::Idle;
    std::optional<common::Error> m_error;
    std::string m_lastKey;
    int64_t m_seenAudit = 0;
    bool m_running = false, m_stopped = false;
};

std::string rolloutUserAgent()
{
    return "draconsole/" DRA_VERSION " (linux) rollout";
}

RolloutDriver::RolloutDriver(QString statePath, ClusterFactory clusters, common::Clock &clock,
    RolloutDriverOptions options, QObject *parent)
    : QObject(parent)
    , m_statePath(std::move(statePath))
{
    qRegisterMetaType<views::RolloutSnapshotPtr>();
    qRegisterMetaType<views::VerbRequest>();
    m_snapshot = std::make_shared<const RolloutSnapshot>();
    const bool threaded = options.workerThread;
    auto publish = [this](views::RolloutSnapshotPtr snapshot) {
        QMetaObject::invokeMethod(
            this, [this, snapshot]() { this->publish(snapshot); }, Qt::AutoConnection);
    };
    auto say = [this](QString text) {
        QMetaObject::invokeMethod(
            this, [this, text]() { Q_EMIT message(text); }, Qt::AutoConnection);
    };
    m_worker
        = new Worker(m_statePath, std::move(clusters), clock, std::move(options), publish, say);
    if (threaded) {
        m_thread = new QThread(this);
        m_thread->setObjectName(QStringLiteral("rollout"));
        m_worker->moveToThread(m_thread);
        // The controller releases its lease and goes on its own thread, as that thread ends.
        connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
        m_thread->start();
    }
    post([](Worker &worker) { worker.begin(); });
}

RolloutDriver::~RolloutDriver()
{
    if (m_thread) {
        m_thread->quit();
        m_thread->wait();
    } else {
        delete m_worker;
    }
}

void RolloutDriver::post(std::function<void(Worker &)> work)
{
    Worker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, work = std::move(work)]() { work(*worker); }, Qt::AutoConnection);
}

void RolloutDriver::publish(const views::RolloutSnapshotPtr &snapshot)
{
    m_snapshot = snapshot;
    Q_EMIT snapshotChanged(snapshot);
}

void RolloutDriver::refresh()
{
    post([](Worker &worker) { worker.refresh(); });
}

void RolloutDriver::open(const QString &id)
{
    post([id = id.toStdString()](Worker &worker) { worker.open(id); });
}

void RolloutDriver::startFromPlan(const QString &planFile)
{
    post([planFile](Worker &worker) { worker.startFromPlan(planFile); });
}

void RolloutDriver::give(const views::VerbRequest &request)
{
    post([request](Worker &worker) { worker.give(request); });
}

void RolloutDriver::shutdown()
{
    post([](Worker &worker) { worker.shutdown(); });
}

void connectRolloutPanel(views::RolloutPanel *panel, RolloutDriver *driver)
{
    QObject::connect(panel, &views::RolloutPanel::rolloutChosen, driver, &RolloutDriver::open);
    QObject::connect(
        panel, &views::RolloutPanel::startFromPlanRequested, driver, &RolloutDriver::startFromPlan);
    QObject::connect(panel, &views::RolloutPanel::verbRequested, driver, &RolloutDriver::give);
    QObject::connect(
        driver, &RolloutDriver::snapshotChanged, panel, &views::RolloutPanel::showSnapshot);
    QObject::connect(driver, &RolloutDriver::message, panel, &views::RolloutPanel::appendMessage);
    panel->showSnapshot(driver->snapshot());
}

} // namespace dra::console
