// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The rollout controllers a long-running process hosts for one state file (`dractl serve`, so a
// rollout started from the web console runs): the same RolloutController `dractl rollout run`
// runs in a shell, one per rollout that needs driving, under the same controller lease. A
// rollout another process drives (a `dractl rollout run` elsewhere) is followed, not competed
// with: its verbs wait in the state file's inbox for that controller.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <QObject>
#include <QString>
#include <QThread>

#include "core/common/clock.h"
#include "core/common/result.h"
#include "core/kube/client_config.h"
#include "core/kube/leader_lease.h"
#include "core/rollout/cluster_port.h"
#include "core/rollout/rollout_controller.h"
#include "core/rollout/rollout_start.h"

namespace dra::rollout {

// A cluster port for the hosted controllers and whatever keeps it alive; made on the host's
// thread, where it is used and destroyed.
struct HostedCluster
{
    std::shared_ptr<void> owner;
    ClusterPort *port = nullptr;
};
using HostedClusterFactory = std::function<Result<HostedCluster>()>;

// A KubeCluster over a kube::RestClient of `config` (no terminal to prompt an exec plugin on).
HostedClusterFactory kubeClusterFactory(kube::ClientConfig config, std::string userAgent);

// A line a hosted controller said about a rollout.
struct HostMessage
{
    int64_t at = 0;
    std::string text;
};

// Who drives a state file's rollouts where replicas compete for a cluster Lease (in a cluster,
// an old and a new pod may overlap): only the one that holds it.
struct HostLeadership
{
    std::string lease; // "NAMESPACE/NAME"
    std::string identity; // this replica's
    std::string holder; // as last read; "" when free or not read yet
    bool leading = false;
};

struct RolloutHostOptions
{
    ControllerOptions controller; // every hosted controller's (tick, lease owner, executor)
    int64_t scanMs = 1'000; // how often the state file is looked at for rollouts to drive
    size_t messagesKept = 100; // per rollout
};

// Drives the rollouts of the state file at `statePath` that need it: a rollout not settled, or
// with verbs waiting, whose lease no other live controller holds, gets a RolloutController here
// (lease owner options.controller.owner); it stops once its rollout settled with nothing queued.
// Thread of its parent (a thread of its own in a server); the clock must outlive it.
class RolloutHost final : public QObject
{
    Q_OBJECT
public:
    RolloutHost(QString statePath, HostedClusterFactory clusters, common::Clock &clock,
        RolloutHostOptions options = {}, QObject *parent = nullptr);
    ~RolloutHost() override;

    const QString &statePath() const { return m_statePath; }

    // Looks at the state file now and every scanMs, until stop().
    void start();
    // Stops every hosted controller (leases released; the rollouts stay resumable).
    void stop();
    // One look: starts controllers for rollouts that need one, and has a running one take the
    // verbs just queued for it at once.
    void scan();
    // Starts `plan` as `dractl rollout start` does (startRollout: the pre-flight, then the
    // rollout created with its start queued); a controller here carries the start out. `done`
    // on this object's thread.
    void startRollout(const RolloutPlan &plan, const StartRequest &request,
        std::function<void(StartOutcome)> done);

    // Drives rollouts only while `leadership` says this replica leads: controllers stop (their
    // state-file leases released) when it no longer does. Without a call, the host drives
    // whenever no other controller holds a rollout's state-file lease.
    void setLeadership(HostLeadership leadership);
    // The leadership last set; nullopt when the host is not gated by one. Any thread.
    std::optional<HostLeadership> leadership() const;

    // What the controllers said about rollout `id`, oldest first. Any thread.
    std::vector<HostMessage> messages(const std::string &id) const;
    // Whether a controller here drives `id` now. Any thread.
    bool drives(const std::string &id) const;

Q_SIGNALS:
    void message(const QString &rollout, const QString &text);

private:
    bool ensureCluster();
    void stopControllers();
    bool mayDrive() const;
    void drive(const std::string &id);
    void afterTick(const std::string &id);
    void keep(const std::string &id, const QString &text);
    void scanLater();

    QString m_statePath;
    HostedClusterFactory m_clusters;
    common::Clock &m_clock;
    RolloutHostOptions m_options;
    HostedCluster m_cluster;
    std::map<std::string, RolloutController *> m_controllers;
    bool m_running = false;
    mutable std::mutex m_mutex; // guards m_messages, m_driven and m_leadership
    std::map<std::string, std::deque<HostMessage>> m_messages;
    std::vector<std::string> m_driven;
    std::optional<HostLeadership> m_leadership;
};

// The cluster Lease a replicated host competes for, and the connection it is read and written
// over (the replica's own, e.g. its service account).
struct ClusterLeaseSetup
{
    kube::ClientConfig config;
    kube::LeaderLeaseOptions options;
    std::string userAgent;
};

// A RolloutHost on a thread of its own with the system clock, scanning from construction; its
// controllers stop (leases released) and the thread ends when this is destroyed. With `lease`,
// it drives only while it holds that Lease, and gives it up when destroyed. Thread of the owner.
class RolloutHostThread final
{
public:
    RolloutHostThread(QString statePath, HostedClusterFactory clusters,
        RolloutHostOptions options = {}, std::optional<ClusterLeaseSetup> lease = std::nullopt);
    ~RolloutHostThread();
    RolloutHostThread(const RolloutHostThread &) = delete;
    RolloutHostThread &operator=(const RolloutHostThread &) = delete;

    RolloutHost *host() const { return m_host; }

private:
    QThread m_thread;
    RolloutHost *m_host;
    QObject *m_election = nullptr; // the Lease's connection and candidate, on m_thread
};

} // namespace dra::rollout
