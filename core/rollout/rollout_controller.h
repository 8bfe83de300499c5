// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <QObject>
#include <QString>

#include "core/common/result.h"
#include "core/common/clock.h"
#include "core/rollout/cluster_port.h"
#include "core/rollout/controller_inbox.h"
#include "core/rollout/controller_lease.h"
#include "core/rollout/mutation_executor.h"
#include "core/rollout/rollout_machine.h"
#include "core/rollout/stop_conditions.h"

namespace dra::rollout {

class EvidenceCollector;

struct ControllerOptions
{
    bool autoPromote = false; // promote as soon as the gates pass and the window has run
    int64_t tickMs = 5'000; // how often the cluster is looked at
    int64_t leaseStaleMs = kLeaseStaleMs; // a heartbeat older than this means no controller runs
    ExecutorOptions executor;
    bool reportDiffs = false; // message() the preview diff of every applied mutation
    ControllerOwner owner = ControllerOwner::thisProcess(); // who runs it, for the lease
};

// Drives one rollout against a cluster. Each tick it looks at the cluster for the current stage
// (EvidenceCollector) and records the gates, carries out verbs queued in the state file by other
// processes (each exactly once), fires the plan's stop conditions (pause or rollback), confirms
// a finished rollback, and — only with autoPromote — promotes when the gates pass and the
// window has run. The mutations of every transition are applied in order by the
// MutationExecutor; the cursor through them is kept in the state file with the transition, so a
// controller started again resumes the interrupted step (replaying at most the mutation that
// was under way, which changes nothing when it was done). The state file is opened as writer
// only for each write, so other processes can queue verbs meanwhile. Every action goes to the
// audit log. Thread of its parent; the cluster and clock must outlive it.
class RolloutController final : public QObject
{
    Q_OBJECT
public:
    RolloutController(QString statePath, std::string rolloutId, ClusterPort &cluster,
        common::Clock &clock, ControllerOptions options = {}, QObject *parent = nullptr);
    ~RolloutController() override;

    // Reads the rollout and its plan from the state file. Fails when there is no such rollout
    // or its stored plan no longer validates.
    [[nodiscard]] Result<void> load();
    // Ticks now and then every tickMs until stop().
    void start();
    // Ends ticking after the current tick and releases the lease; the state stays resumable.
    void stop();
    // One pass; tickFinished() when done (possibly before tick() returns). A tick asked for while
    // one runs is run right after it.
    void tick();

    bool busy() const { return m_busy; }
    const RolloutState &state() const { return m_state; }
    const RolloutPlan &plan() const { return *m_plan; }
    // The latest error of a tick (a failed mutation, an unreachable cluster), if any.
    const std::optional<common::Error> &lastError() const { return m_lastError; }

Q_SIGNALS:
    void tickFinished();
    // A line for the user: a transition, a mutation's outcome, a stop condition.
    void message(const QString &text);
    void stageChanged(dra::rollout::Stage stage);

private:
    template <typename T>
    [[nodiscard]] Result<T> withState(const std::function<Result<T>(store::StateDb &)> &work);
    void beat();
    void keepBeating();
    void gathered(Result<struct StageEvidence> evidence);
    void takeCommands();
    void afterCommands();
    void decideOwnMoves();
    void finishTick();
    // Executes `command` and then its mutations; `then` runs when all is done or it stopped.
    void execute(
        Command command, std::optional<int64_t> queuedSeq, std::function<void(bool ok)> then);
    void runProgress(std::function<void(bool ok)> then);
    void report(const QString &text);

    QString m_statePath;
    std::string m_id;
    ClusterPort &m_cluster;
    common::Clock &m_clock;
    ControllerOptions m_options;
    std::unique_ptr<RolloutPlan> m_plan;
    std::unique_ptr<RolloutMachine> m_machine;
    MutationExecutor *m_executor = nullptr;
    EvidenceCollector *m_collector = nullptr;
    RolloutState m_state;
    std::optional<MutationProgress> m_progress;
    StopObservation m_observation;
    Stage m_observedStage = Stage::Baseline;
    int m_observedStep = -1;
    int m_baselineReplicasNow = 0;
    std::optional<common::Error> m_lastError;
    std::optional<StopCondition::Type> m_lastRollbackStop;
    int64_t m_startedAt = 0;
    bool m_busy = false, m_again = false, m_running = false, m_movedThisTick = false;
};

} // namespace dra::rollout
