// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The rollout panel driven through its buttons: the console's RolloutDriver runs the rollout
// controller against the in-memory fake cluster with a manual clock, and the panel's models
// show the timeline, the gates, the audit log and which buttons are enabled.
#include "app/console/rollout_driver.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QHostInfo>
#include <QProcess>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStringListModel>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/common/clock.h"
#include "core/rollout/controller_inbox.h"
#include "core/rollout/rollout_store.h"
#include "core/store/state_db.h"
#include "tests/support/fake_cluster.h"
#include "tests/support/rollout_fixtures.h"
#include "views/rollout/rollout_audit_model.h"
#include "views/rollout/rollout_gate_model.h"
#include "views/rollout/rollout_panel.h"
#include "views/rollout/rollout_timeline_model.h"

using dra::console::RolloutDriver;
using dra::rollout::Stage;
using dra::rollout::Verb;
using dra::views::RolloutPanel;
using dra::views::RolloutSnapshot;
using dra::views::RolloutTimelineModel;

namespace {

constexpr int64_t kPanelMinute = 60'000;

} // namespace

// A console: the panel wired to its own driver, as the main window wires them.
struct PanelConsole
{
    std::unique_ptr<RolloutDriver> driver;
    std::unique_ptr<RolloutPanel> panel;
};

class RolloutPanelTest : public testing::Test
{
protected:
    void SetUp() override
    {
        m_cluster.seedExampleWorld();
        m_planFile = m_dir.filePath(QStringLiteral("llm-inference-h100.yaml"));
        QFile file(m_planFile);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(dra::rollout::test::examplePlanText()));
    }

    QString statePath() const { return m_dir.filePath(QStringLiteral("state.db")); }

    PanelConsole console(const std::string &owner)
    {
        dra::console::RolloutDriverOptions options;
        options.actor = "alice";
        const std::optional<dra::rollout::ControllerOwner> parsed
            = dra::rollout::ControllerOwner::parse(owner);
        EXPECT_TRUE(parsed.has_value()) << owner;
        options.owner = parsed.value_or(dra::rollout::ControllerOwner {});
        // Ticks and looks at the state file every 10 minutes of the manual clock, so an hour
        // moves a handful of ticks; a lease lives 3 hours.
        options.tickMs = 10 * kPanelMinute;
        options.followMs = 10 * kPanelMinute;
        options.leaseStaleMs = 180 * kPanelMinute;
        options.workerThread = false; // the manual clock is moved by this thread
        dra::rollout::ClusterPort *port = &m_cluster;
        PanelConsole made;
        made.driver = std::make_unique<RolloutDriver>(
            statePath(),
            [port]() -> dra::Result<dra::rollout::HostedCluster> {
                return dra::rollout::HostedCluster { {}, port };
            },
            m_clock, options);
        made.panel = std::make_unique<RolloutPanel>();
        dra::console::connectRolloutPanel(made.panel.get(), made.driver.get());
        return made;
    }

    static std::optional<Stage> stageOf(const RolloutPanel &panel)
    {
        const auto snapshot = panel.snapshot();
        return snapshot && snapshot->state ? std::optional<Stage>(snapshot->state->stage)
                                           : std::nullopt;
    }

    static std::string stageText(const RolloutPanel &panel)
    {
        const std::optional<Stage> stage = stageOf(panel);
        return stage ? dra::rollout::stageName(*stage) : "(none)";
    }

    static std::vector<Verb> enabledVerbs(const RolloutPanel &panel)
    {
        std::vector<Verb> enabled;
        for (Verb verb : { Verb::Start, Verb::Promote, Verb::Pause, Verb::Resume, Verb::Abort,
                 Verb::RetryGate, Verb::Finalise, Verb::Reject }) {
            QPushButton *button = panel.button(verb);
            EXPECT_TRUE(button && button->isVisible() == panel.isVisible())
                << "every verb keeps its button";
            if (button && button->isEnabled())
                enabled.push_back(verb);
        }
        return enabled;
    }

    // The current row of the timeline: its stage label.
    static QString currentStage(const RolloutPanel &panel)
    {
        const int row = panel.timeline()->currentRow();
        return row < 0
            ? QString()
            : panel.timeline()->index(row, RolloutTimelineModel::StageColumn).data().toString();
    }

    // Lets an hour pass (the windows run, the controller ticks) and promotes from the panel.
    void promoteAfterAnHour(RolloutPanel &panel)
    {
        m_clock.advance(61 * kPanelMinute);
        ASSERT_TRUE(panel.trigger(Verb::Promote)) << "promote disabled at " << stageText(panel);
    }

    QTemporaryDir m_dir;
    QString m_planFile;
    dra::common::ManualClock m_clock;
    dra::rollout::test::FakeCluster m_cluster;
};

TEST_F(RolloutPanelTest, PromotesAPlanThroughEveryStageToCompleteAndFinalises)
{
    PanelConsole c = console("alice on console-a (pid 4242)");
    QAbstractItemModelTester timelineTester(c.panel->timeline());
    QAbstractItemModelTester gateTester(c.panel->gates());
    QAbstractItemModelTester auditTester(c.panel->audit());
    EXPECT_EQ(enabledVerbs(*c.panel), std::vector<Verb> {})
        << "nothing to act on before a rollout is open";

    Q_EMIT c.panel->startFromPlanRequested(m_planFile);
    ASSERT_EQ(stageOf(*c.panel), Stage::Canary)
        << c.panel->messages()->stringList().join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(c.panel->snapshot()->drive, RolloutSnapshot::Drive::Local);
    EXPECT_EQ(c.panel->snapshot()->lease->owner, "alice on console-a (pid 4242)");
    EXPECT_EQ(c.panel->picker()->currentData().toString(), QStringLiteral("llm-server-to-dra"));
    EXPECT_EQ(currentStage(*c.panel), QStringLiteral("Canary"));
    EXPECT_EQ(enabledVerbs(*c.panel),
        (std::vector<Verb> {
            Verb::Promote, Verb::Pause, Verb::Abort, Verb::RetryGate, Verb::Reject }));
    EXPECT_TRUE(c.panel->driveLabel()->text().contains(QStringLiteral("this console")))
        << c.panel->driveLabel()->text().toStdString();

    // Too early: the canary's window has not run, so the machine refuses and the stage holds.
    ASSERT_TRUE(c.panel->trigger(Verb::Promote));
    EXPECT_EQ(stageOf(*c.panel), Stage::Canary);
    const auto &refusedEntry = c.panel->audit()->entries().back();
    EXPECT_EQ(refusedEntry.action, "promote");
    EXPECT_TRUE(refusedEntry.result.starts_with("refused")) << refusedEntry.result;

    promoteAfterAnHour(*c.panel);
    ASSERT_EQ(stageOf(*c.panel), Stage::Shadow);
    // The canary's gates were judged before the promotion; Shadow's come with its first tick.
    m_clock.advance(11 * kPanelMinute);
    const QModelIndex api = c.panel->gates()->gateIndex(dra::rollout::GateKind::Api);
    ASSERT_TRUE(api.isValid()) << "the api gate is evaluated in Shadow";
    EXPECT_EQ(api.siblingAtColumn(dra::views::RolloutGateModel::VerdictColumn).data().toString(),
        QStringLiteral("Passed"));
    EXPECT_GT(c.panel->gates()->rowCount(api), 0) << "each check with its evidence under its gate";

    promoteAfterAnHour(*c.panel);
    ASSERT_EQ(stageOf(*c.panel), Stage::Cutover);
    const int steps = int(c.panel->snapshot()->plan->cutover.size());
    ASSERT_GE(steps, 2);
    EXPECT_EQ(currentStage(*c.panel),
        QStringLiteral("Cutover %1%").arg(c.panel->snapshot()->plan->cutover.front().percent));
    for (int step = 1; step <= steps; ++step)
        promoteAfterAnHour(*c.panel);
    ASSERT_EQ(stageOf(*c.panel), Stage::Complete)
        << c.panel->messages()->stringList().join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(
        enabledVerbs(*c.panel), (std::vector<Verb> { Verb::Abort, Verb::Finalise, Verb::Reject }))
        << "at Complete rollback is still one button away";

    // Every forward stage has been entered, in order, with its time; Finalised is still ahead.
    const auto &rows = c.panel->timeline()->rows();
    ASSERT_EQ(rows.size(), size_t(3 + steps + 2));
    int64_t previous = 0;
    for (size_t i = 0; i + 2 < rows.size(); ++i) {
        EXPECT_EQ(rows[i].status, RolloutTimelineModel::Status::Done)
            << rows[i].label.toStdString();
        EXPECT_GE(rows[i].enteredAt, previous) << rows[i].label.toStdString();
        previous = rows[i].enteredAt;
    }
    EXPECT_EQ(rows[rows.size() - 2].label, QStringLiteral("Complete"));
    EXPECT_EQ(rows[rows.size() - 2].status, RolloutTimelineModel::Status::Current);
    EXPECT_EQ(rows.back().status, RolloutTimelineModel::Status::Pending);
    EXPECT_EQ(m_cluster.object(dra::model::Kind::Deployment, "inference", "llm-server-dra")
                  ->at("spec")
                  .value("replicas", -1),
        8);

    ASSERT_TRUE(c.panel->trigger(Verb::Finalise));
    EXPECT_EQ(stageOf(*c.panel), Stage::Finalised);
    EXPECT_EQ(c.panel->snapshot()->drive, RolloutSnapshot::Drive::Idle)
        << "a settled rollout needs no controller";
    EXPECT_FALSE(c.panel->snapshot()->lease) << "the lease was released";
    EXPECT_EQ(enabledVerbs(*c.panel), std::vector<Verb> {});
    EXPECT_TRUE(c.panel->snapshot()->verification.intact);
    EXPECT_TRUE(c.panel->chainLabel()->text().contains(QStringLiteral("verifies")));
    EXPECT_FALSE(c.panel->messages()->stringList().isEmpty())
        << "the controller's lines reach the panel";
}

TEST_F(RolloutPanelTest, AbortFromACutoverStepRollsBackAndTheAuditLogListsEveryAction)
{
    PanelConsole c = console("alice on console-a (pid 4242)");
    Q_EMIT c.panel->startFromPlanRequested(m_planFile);
    ASSERT_EQ(stageOf(*c.panel), Stage::Canary);
    promoteAfterAnHour(*c.panel);
    promoteAfterAnHour(*c.panel);
    ASSERT_EQ(stageOf(*c.panel), Stage::Cutover);
    promoteAfterAnHour(*c.panel); // the second cutover step
    ASSERT_EQ(stageOf(*c.panel), Stage::Cutover);
    ASSERT_EQ(c.panel->snapshot()->state->step, 1);

    // The rollback mutations run at once with the fake; the rollback gate is judged at the
    // next tick, so the rollout shows RollingBack first.
    m_cluster.settleDeployments = false;
    ASSERT_TRUE(c.panel->trigger(Verb::Abort));
    ASSERT_EQ(stageOf(*c.panel), Stage::RollingBack)
        << c.panel->messages()->stringList().join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(currentStage(*c.panel), QStringLiteral("RollingBack"));
    EXPECT_EQ(
        enabledVerbs(*c.panel), (std::vector<Verb> { Verb::Abort, Verb::RetryGate, Verb::Reject }));
    m_cluster.settleDeployments = true;
    m_cluster.reconcile();

    m_clock.advance(11 * kPanelMinute);
    ASSERT_EQ(stageOf(*c.panel), Stage::RolledBack)
        << c.panel->messages()->stringList().join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(currentStage(*c.panel), QStringLiteral("RolledBack"));
    EXPECT_EQ(m_cluster.object(dra::model::Kind::Deployment, "inference", "llm-server")
                  ->at("spec")
                  .value("replicas", -1),
        8);
    EXPECT_EQ(enabledVerbs(*c.panel), (std::vector<Verb> { Verb::Start, Verb::Reject }));
    // The timeline kept where the rollout went: cutover step 2 done, RollingBack done.
    std::vector<std::string> off;
    for (const auto &row : c.panel->timeline()->rows())
        if (row.stage == Stage::RollingBack || row.stage == Stage::RolledBack)
            off.push_back(
                row.label.toStdString() + ":" + dra::views::timelineStatusName(row.status));
    EXPECT_EQ(off, (std::vector<std::string> { "RollingBack:done", "RolledBack:current" }));

    // The audit table lists every action, in order, and the chain verifies.
    std::vector<std::string> actions;
    const QAbstractItemModel *audit = c.panel->audit();
    for (int row = 0; row < audit->rowCount(); ++row) {
        const std::string action = audit->index(row, dra::views::RolloutAuditModel::ActionColumn)
                                       .data()
                                       .toString()
                                       .toStdString();
        if (action != "gate" && action != "mutate")
            actions.push_back(action + " "
                + audit->index(row, dra::views::RolloutAuditModel::ResultColumn)
                      .data()
                      .toString()
                      .toStdString());
        EXPECT_EQ(audit->index(row, dra::views::RolloutAuditModel::SeqColumn).data().toLongLong(),
            c.panel->audit()->entries()[size_t(row)].seq);
    }
    ASSERT_EQ(actions.size(), 9u) << testing::PrintToString(actions);
    EXPECT_EQ(actions[0], "create Baseline");
    EXPECT_TRUE(actions[1].starts_with("start ")) << actions[1];
    EXPECT_TRUE(actions[2].starts_with("promote ")) << actions[2];
    EXPECT_TRUE(actions[5].starts_with("abort ")) << actions[5];
    EXPECT_TRUE(actions[5].find("RollingBack") != std::string::npos) << actions[5];
    // The rollback's steps (the canary after the drain window, the template once its claims
    // are released), then the verification.
    EXPECT_TRUE(actions[6].starts_with("rollback-step ")) << actions[6];
    EXPECT_TRUE(actions[7].starts_with("rollback-step ")) << actions[7];
    EXPECT_TRUE(actions[8].starts_with("rollback-verified ")) << actions[8];
    bool mutated = false;
    for (const auto &entry : c.panel->audit()->entries())
        mutated = mutated || entry.action == "mutate";
    EXPECT_TRUE(mutated) << "each mutation of the cluster is in the log too";
    EXPECT_TRUE(c.panel->snapshot()->verification.intact)
        << c.panel->snapshot()->verification.reason;
    EXPECT_EQ(c.panel->chainLabel()->text(),
        dra::views::auditChainText(c.panel->snapshot()->verification));
}

TEST_F(RolloutPanelTest, ASecondConsoleOnTheSameStateFileFollowsTheControllerThatHoldsTheLease)
{
    PanelConsole first = console("alice on console-a (pid 4242)");
    Q_EMIT first.panel->startFromPlanRequested(m_planFile);
    ASSERT_EQ(stageOf(*first.panel), Stage::Canary);
    const size_t writesBefore = m_cluster.writes().size();

    PanelConsole second = console("bob on console-b (pid 4242)");
    ASSERT_EQ(second.panel->picker()->count(), 1) << "the picker lists the state file's rollouts";
    second.panel->picker()->setCurrentIndex(-1);
    second.panel->picker()->setCurrentIndex(0);
    ASSERT_EQ(stageOf(*second.panel), Stage::Canary);
    EXPECT_EQ(second.panel->snapshot()->drive, RolloutSnapshot::Drive::Remote);
    EXPECT_EQ(second.panel->snapshot()->lease->owner, "alice on console-a (pid 4242)");
    EXPECT_TRUE(second.panel->driveLabel()->text().contains(QStringLiteral("alice on console-a")))
        << second.panel->driveLabel()->text().toStdString();

    // The second console's pause is queued, not carried out: only the lease holder acts.
    ASSERT_TRUE(second.panel->trigger(Verb::Pause));
    EXPECT_EQ(stageOf(*second.panel), Stage::Canary);
    ASSERT_EQ(second.panel->snapshot()->pending.size(), 1u);
    EXPECT_EQ(second.panel->snapshot()->pending.front().command.verb, Verb::Pause);

    // The first console's controller takes it at its next tick; the second sees it happen.
    m_clock.advance(11 * kPanelMinute);
    EXPECT_EQ(stageOf(*first.panel), Stage::Paused);
    EXPECT_EQ(stageOf(*second.panel), Stage::Paused);
    EXPECT_TRUE(second.panel->snapshot()->pending.empty());
    EXPECT_EQ(second.panel->snapshot()->state->history.back().verb, Verb::Pause);
    EXPECT_EQ(second.panel->snapshot()->drive, RolloutSnapshot::Drive::Remote);
    EXPECT_EQ(m_cluster.writes().size(), writesBefore) << "a pause changes nothing in the cluster";
    EXPECT_TRUE(second.panel->messages()
                    ->stringList()
                    .join(QLatin1Char('\n'))
                    .contains(QStringLiteral("pause")))
        << "the second console shows what the controller did";
    EXPECT_EQ(enabledVerbs(*second.panel),
        (std::vector<Verb> { Verb::Resume, Verb::Abort, Verb::RetryGate, Verb::Reject }));

    // When the first console goes, its lease goes with it and the second takes over.
    first = {};
    m_clock.advance(11 * kPanelMinute);
    EXPECT_EQ(second.panel->snapshot()->drive, RolloutSnapshot::Drive::Local);
    ASSERT_TRUE(second.panel->snapshot()->lease);
    EXPECT_EQ(second.panel->snapshot()->lease->owner, "bob on console-b (pid 4242)");
    ASSERT_TRUE(second.panel->trigger(Verb::Resume));
    EXPECT_EQ(stageOf(*second.panel), Stage::Canary);
}

// As `dractl rollout run` decides it: a controller of this host whose process is gone (killed,
// crashed) holds its lease no longer, so a console opening the rollout drives it at once.
TEST_F(RolloutPanelTest, ALeaseLeftByADeadProcessOfThisHostIsTakenOverAtOnce)
{
    {
        PanelConsole first = console("alice on console-a (pid 4242)");
        Q_EMIT first.panel->startFromPlanRequested(m_planFile);
        ASSERT_EQ(stageOf(*first.panel), Stage::Canary);
    }
    QProcess killed;
    killed.start(QStringLiteral("true"), QStringList());
    ASSERT_TRUE(killed.waitForStarted());
    const int64_t deadPid = killed.processId();
    ASSERT_TRUE(killed.waitForFinished());
    const dra::rollout::ControllerOwner dead { "alice", QHostInfo::localHostName().toStdString(),
        deadPid };
    {
        dra::Result<dra::store::StateDb> db
            = dra::store::StateDb::open(statePath(), dra::store::OpenMode::ReadWrite);
        ASSERT_TRUE(db.has_value());
        ASSERT_TRUE(dra::rollout::ControllerInbox(*db)
                        .heartbeat("llm-server-to-dra", dead.text(), dead.pid, m_clock.nowMs(),
                            m_clock.nowMs())
                        .has_value());
    }

    PanelConsole second = console("bob on console-b (pid 4343)");
    second.panel->picker()->setCurrentIndex(-1);
    second.panel->picker()->setCurrentIndex(0);
    ASSERT_EQ(stageOf(*second.panel), Stage::Canary);
    EXPECT_EQ(second.panel->snapshot()->drive, RolloutSnapshot::Drive::Local)
        << "a fresh heartbeat of a dead process binds nobody";
    ASSERT_TRUE(second.panel->snapshot()->lease);
    EXPECT_EQ(second.panel->snapshot()->lease->owner, "bob on console-b (pid 4343)");
}

TEST_F(RolloutPanelTest, TheWorkerThreadDrivesTheRolloutAndReleasesTheLeaseWhenTheConsoleCloses)
{
    dra::console::RolloutDriverOptions options;
    options.actor = "alice";
    options.owner = { "alice", "console-t", 4242 };
    options.tickMs = 60 * kPanelMinute; // one tick at the start, then none during the test
    options.followMs = 50;
    dra::rollout::ClusterPort *port = &m_cluster; // used by the worker thread only from here on
    auto driver = std::make_unique<RolloutDriver>(
        statePath(),
        [port]() -> dra::Result<dra::rollout::HostedCluster> {
            return dra::rollout::HostedCluster { {}, port };
        },
        dra::common::Clock::system(), options);
    RolloutPanel panel;
    dra::console::connectRolloutPanel(&panel, driver.get());
    Q_EMIT panel.startFromPlanRequested(m_planFile);
    QElapsedTimer waited;
    waited.start();
    while (stageOf(panel) != Stage::Canary && waited.elapsed() < 30'000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    ASSERT_EQ(stageOf(panel), Stage::Canary)
        << panel.messages()->stringList().join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(panel.snapshot()->drive, RolloutSnapshot::Drive::Local);
    ASSERT_TRUE(panel.snapshot()->lease);
    EXPECT_EQ(panel.snapshot()->lease->owner, "alice on console-t (pid 4242)");

    driver.reset(); // the console closes: the controller stops on its thread
    dra::Result<dra::store::StateDb> db
        = dra::store::StateDb::open(statePath(), dra::store::OpenMode::ReadOnly);
    ASSERT_TRUE(db.has_value());
    const auto lease = dra::rollout::ControllerInbox(*db).lease("llm-server-to-dra");
    ASSERT_TRUE(lease.has_value());
    EXPECT_FALSE(lease->has_value())
        << "a closed console holds no lease, so dractl rollout run can take over";
}

TEST_F(RolloutPanelTest, WithoutAClusterNothingIsCreatedOrQueuedAndThePanelSaysWhy)
{
    dra::console::RolloutDriverOptions options;
    options.owner = { "alice", "console-d", 4242 };
    options.workerThread = false;
    RolloutDriver driver(
        statePath(),
        []() -> dra::Result<dra::rollout::HostedCluster> {
            return dra::fail(
                dra::common::Error::Code::Invalid, QStringLiteral("connect with --context"));
        },
        m_clock, options);
    RolloutPanel panel;
    dra::console::connectRolloutPanel(&panel, &driver);
    Q_EMIT panel.startFromPlanRequested(m_planFile);
    ASSERT_TRUE(panel.snapshot()->error);
    EXPECT_TRUE(panel.snapshot()->error->message.contains(QStringLiteral("connect with --context")))
        << panel.snapshot()->error->message.toStdString();
    EXPECT_TRUE(panel.snapshot()->rollouts.empty())
        << "no rollout is left waiting for a start nobody gives";
    EXPECT_FALSE(panel.snapshot()->state);
}

// The Rollouts page with no rollout open: the state file's rollouts are listed, the most recent
// one under way is opened, and "No rollouts in the state file" is said only when there are none.
TEST(RolloutPageTest, ArrivingListsTheStateFilesRolloutsAndOpensTheOneUnderWay)
{
    const auto snapshotOf = [](std::vector<dra::views::RolloutSummary> rollouts) {
        auto snapshot = std::make_shared<RolloutSnapshot>();
        snapshot->rollouts = std::move(rollouts);
        return snapshot;
    };
    RolloutPanel empty;
    EXPECT_EQ(empty.picker()->placeholderText(), QStringLiteral("No rollouts in the state file"));
    EXPECT_TRUE(empty.rolloutList()->isHidden());

    RolloutPanel settled;
    QStringList chosen;
    QObject::connect(
        &settled, &RolloutPanel::rolloutChosen, &settled, [&](const QString &id) { chosen << id; });
    settled.showSnapshot(snapshotOf({ { "r1", "llm-inference", Stage::Finalised, 100 },
        { "r2", "embeddings", Stage::RolledBack, 200 } }));
    EXPECT_FALSE(settled.rolloutList()->isHidden());
    ASSERT_EQ(settled.rolloutList()->count(), 2);
    EXPECT_TRUE(settled.rolloutList()->item(0)->text().contains(QStringLiteral("r1")));
    EXPECT_TRUE(settled.rolloutList()->item(1)->text().contains(QStringLiteral("embeddings")));
    EXPECT_NE(settled.picker()->placeholderText(), QStringLiteral("No rollouts in the state file"));
    EXPECT_TRUE(chosen.isEmpty()) << "nothing under way: nothing opened by itself";
    // Picking one from the list opens it.
    Q_EMIT settled.rolloutList()->itemActivated(settled.rolloutList()->item(1));
    EXPECT_EQ(chosen, QStringList { QStringLiteral("r2") });

    RolloutPanel active;
    QStringList opened;
    QObject::connect(
        &active, &RolloutPanel::rolloutChosen, &active, [&](const QString &id) { opened << id; });
    active.showSnapshot(snapshotOf({ { "r1", "llm-inference", Stage::Finalised, 900 },
        { "r3", "llm-inference", Stage::Canary, 400 },
        { "r4", "embeddings", Stage::Shadow, 500 } }));
    EXPECT_EQ(opened, QStringList { QStringLiteral("r4") });
    // Once one was opened, later snapshots without an open rollout do not open another.
    active.showSnapshot(snapshotOf({ { "r3", "llm-inference", Stage::Canary, 600 } }));
    EXPECT_EQ(opened, QStringList { QStringLiteral("r4") });
}
