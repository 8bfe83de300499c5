// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <QObject>
#include <QString>

#include "core/common/result.h"
#include "core/rollout/controller_lease.h"
#include "core/rollout/rollout_host.h"
#include "views/rollout/rollout_snapshot.h"

class QThread;

namespace dra::kube {
class Clock;
}
namespace dra::rollout {
class ClusterPort;
}
namespace dra::views {
class RolloutPanel;
}

namespace dra::console {

// The controller's cluster port and what keeps it alive (rollout::HostedCluster), made on the
// driver's worker thread, where it is used and destroyed; rollout::kubeClusterFactory makes one
// over the user's own connection.
using ClusterFactory = rollout::HostedClusterFactory;

// The user agent the desktop's rollout controller says it is.
std::string rolloutUserAgent();

struct RolloutDriverOptions
{
    std::string actor = rollout::localUserName(); // who gives the verbs, for the audit log
    // The controller's lease owner: this process, named as dractl names its own.
    rollout::ControllerOwner owner = rollout::ControllerOwner::thisProcess();
    int64_t tickMs = 5'000; // how often the controller looks at the cluster
    int64_t followMs = 1'000; // how often the state file is looked at for others' changes
    int64_t leaseStaleMs = rollout::kLeaseStaleMs;
    // Run the controller on a thread of its own (the console). Off: everything runs on the
    // driver's thread, for tests that move a manual clock.
    bool workerThread = true;
};

// Drives the rollouts of one state file from the desktop console, as `dractl rollout run`
// does from a shell: opening a rollout nobody drives starts the same RolloutController here (on
// a worker thread, so the GUI never waits on the cluster or the state file); a rollout whose
// lease another process holds is followed instead, and verbs are queued for that controller.
// Verbs go through the state file's inbox, exactly as dractl sends them, and the controller
// ticks to carry them out. Every change comes back as an immutable snapshot. GUI thread; the
// clock must outlive the driver.
class RolloutDriver final : public QObject
{
    Q_OBJECT
public:
    RolloutDriver(QString statePath, ClusterFactory clusters, common::Clock &clock,
        RolloutDriverOptions options = {}, QObject *parent = nullptr);
    ~RolloutDriver() override;

    const QString &statePath() const { return m_statePath; }
    views::RolloutSnapshotPtr snapshot() const { return m_snapshot; }

    // Reads the state file's rollouts (and the open one) again.
    void refresh();
    // Opens rollout `id`: drives it here, or follows the process that does.
    void open(const QString &id);
    // Starts the rollout of a plan file as `dractl rollout start` does (rollout::startRollout:
    // the pre-flight, then the rollout created with its start queued), then opens it to drive
    // the start; a rollout of the plan already under way is opened instead.
    void startFromPlan(const QString &planFile);
    // Gives the open rollout a verb.
    void give(const dra::views::VerbRequest &request);
    // Stops the controller (the lease is released; the rollout stays resumable).
    void shutdown();

Q_SIGNALS:
    void snapshotChanged(const dra::views::RolloutSnapshotPtr &snapshot);
    // A line of the controller, or of what the driver saw another controller do.
    void message(const QString &text);

private:
    class Worker;
    void post(std::function<void(Worker &)> work);
    void publish(const views::RolloutSnapshotPtr &snapshot);

    QString m_statePath;
    QThread *m_thread = nullptr;
    Worker *m_worker = nullptr;
    views::RolloutSnapshotPtr m_snapshot;
};

// Wires a panel to a driver: the panel's choices go to the driver, snapshots and messages back.
void connectRolloutPanel(views::RolloutPanel *panel, RolloutDriver *driver);

} // namespace dra::console
