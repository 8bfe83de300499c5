// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl rollout as a user runs it: plan files, and state files written by the rollout library.
#include <QDateTime>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/rollout/controller_inbox.h"
#include "core/rollout/rollout_store.h"
#include "core/store/state_db.h"
#include "tests/support/dractl_run.h"
#include "tests/support/upstream.h"

using namespace dra::rollout;

namespace {

using dra::test::dractl;
using dra::test::DractlRun;

QString examplePlan()
{
    return QStringLiteral(DRA_SOURCE_DIR "/resources/rollouts/llm-inference-h100.yaml");
}

class RolloutCliTest : public testing::Test
{
protected:
    QString state() const { return m_dir.filePath(QStringLiteral("state.db")); }

    // A rollout of the example plan, started and paused, in a fresh state file.
    void writeRollout()
    {
        const std::string text = dra::test::readFile(examplePlan().toStdString());
        const PlanParse parsed = parsePlan(text);
        ASSERT_TRUE(parsed.plan);
        dra::common::ManualClock clock;
        const RolloutMachine machine(*parsed.plan, clock);
        dra::Result<dra::store::StateDb> db
            = dra::store::StateDb::open(state(), dra::store::OpenMode::ReadWrite);
        ASSERT_TRUE(db.has_value());
        RolloutStore store(*db);
        RolloutState rollout = machine.initialState();
        ASSERT_TRUE(store.create(rollout, text, "alice", clock.nowMs()).has_value());
        Command start { Verb::Start, "alice" };
        start.baselineReplicas = 8;
        start.evidence = { gateResult(GateKind::Baseline,
            { Check { "baseline Ready", Verdict::Passed, "8/8 replicas Ready" } }) };
        ASSERT_TRUE(store.execute(machine, rollout, start, clock.nowMs()).value().allowed);
        machine.recordGate(rollout,
            gateResult(GateKind::Node,
                { Check { "device identity", Verdict::Inconclusive,
                    "the driver publishes no status" } }));
        ASSERT_TRUE(store
                        .execute(machine, rollout,
                            Command { Verb::Pause, "bob", "node gate inconclusive" }, clock.nowMs())
                        .value()
                        .allowed);
    }

    QTemporaryDir m_dir;
};

} // namespace

TEST_F(RolloutCliTest, PlanPrintsASummaryOrJson)
{
    DractlRun run = dractl({ QStringLiteral("rollout"), QStringLiteral("plan"), examplePlan() });
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find(
                  "Rollout llm-server-to-dra: inference/llm-server from the device plugin to DRA"),
        std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("Cutover    100%, observe 1h"), std::string::npos) << run.out;

    run = dractl({ QStringLiteral("rollout"), QStringLiteral("plan"), QStringLiteral("-o"),
        QStringLiteral("json"), examplePlan() });
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const nlohmann::json json = nlohmann::json::parse(run.out);
    EXPECT_EQ(json["spec"]["cutover"]["steps"].size(), 4u);
    EXPECT_EQ(json["spec"]["variant"]["resourceClaimTemplate"]["name"], "llm-server-h100");
}

TEST_F(RolloutCliTest, InvalidPlanListsEveryProblemAndFails)
{
    const QString path = m_dir.filePath(QStringLiteral("bad.yaml"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(
        "apiVersion: draconsole.io/v1alpha1\nkind: RolloutPlan\nmetadata:\n  name: bad\nspec:\n"
        "  baseline:\n    namespace: ml\n  traffic:\n    mode: Carrier-Pigeon\n  cutover:\n    "
        "steps: [50, 20]\n");
    file.close();
    const DractlRun run = dractl({ QStringLiteral("rollout"), QStringLiteral("plan"), path });
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_TRUE(run.out.empty()) << run.out;
    const std::string prefix = path.toStdString();
    EXPECT_NE(
        run.err.find(prefix + ":7:5: spec.baseline.deployment: is required"), std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find(prefix + ":9:11: spec.traffic.mode: must be HTTPRoute or ReplicaRatio"),
        std::string::npos)
        << run.err;
    EXPECT_NE(
        run.err.find(prefix + ":11:17: spec.cutover.steps[1]: steps must increase (20 after 50)"),
        std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find("spec.variant: is required"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("is not a valid plan (4 problem(s))"), std::string::npos) << run.err;
}

TEST_F(RolloutCliTest, StatusReadsTheStateFile)
{
    DractlRun run = dractl({ QStringLiteral("rollout"), QStringLiteral("status"),
        QStringLiteral("--state"), state() });
    EXPECT_EQ(run.exitCode, 0);
    EXPECT_NE(run.err.find("No rollouts found."), std::string::npos) << run.err;

    writeRollout();
    run = dractl({ QStringLiteral("rollout"), QStringLiteral("status"), QStringLiteral("--state"),
        state() });
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("llm-server-to-dra"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("Paused"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("node=Inconclusive"), std::string::npos) << run.out;

    run = dractl({ QStringLiteral("rollout"), QStringLiteral("status"),
        QStringLiteral("llm-server-to-dra"), QStringLiteral("--state"), state() });
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("stage     Paused (in Canary)"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("paused    node gate inconclusive"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("[Inconclusive] device identity: the driver publishes no status"),
        std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("Verbs: resume, abort, retry-gate, reject"), std::string::npos)
        << run.out;

    run = dractl(
        { QStringLiteral("rollout"), QStringLiteral("status"), QStringLiteral("llm-server-to-dra"),
            QStringLiteral("-o"), QStringLiteral("json"), QStringLiteral("--state"), state() });
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const nlohmann::json json = nlohmann::json::parse(run.out);
    EXPECT_EQ(json["stage"], "Paused");
    EXPECT_EQ(json["pausedStage"], "Canary");
    EXPECT_EQ(json["history"].size(), 2u);

    run = dractl({ QStringLiteral("rollout"), QStringLiteral("status"), QStringLiteral("nope"),
        QStringLiteral("--state"), state() });
    EXPECT_EQ(run.exitCode, 1);
}

TEST_F(RolloutCliTest, AuditListsAndVerifiesTheChain)
{
    writeRollout();
    DractlRun run = dractl(
        { QStringLiteral("rollout"), QStringLiteral("audit"), QStringLiteral("--state"), state() });
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("Baseline -> Canary"), std::string::npos) << run.out;
    run = dractl({ QStringLiteral("rollout"), QStringLiteral("audit"), QStringLiteral("--verify"),
        QStringLiteral("--state"), state() });
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("audit log intact: 3 entries"), std::string::npos) << run.out;

    {
        dra::Result<dra::store::StateDb> db
            = dra::store::StateDb::open(state(), dra::store::OpenMode::ReadWrite);
        ASSERT_TRUE(db.has_value());
        ASSERT_TRUE(db->database()
                        .exec("DROP TRIGGER audit_log_no_update; UPDATE audit_log SET actor = "
                              "'nobody' WHERE seq = 2")
                        .has_value());
    }
    run = dractl({ QStringLiteral("rollout"), QStringLiteral("audit"), QStringLiteral("--verify"),
        QStringLiteral("--state"), state() });
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_NE(run.err.find("audit log broken: entry 2 does not match its hash (it was edited)"),
        std::string::npos)
        << run.err;
}

TEST_F(RolloutCliTest, VerbsWithoutARunningControllerAreCarriedOutHere)
{
    writeRollout();
    DractlRun resumed = dractl({ QStringLiteral("rollout"), QStringLiteral("resume"),
        QStringLiteral("llm-server-to-dra"), QStringLiteral("--state"), state() });
    ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
    EXPECT_NE(resumed.out.find("resume: Paused -> Canary"), std::string::npos) << resumed.out;

    DractlRun paused = dractl({ QStringLiteral("rollout"), QStringLiteral("pause"),
        QStringLiteral("llm-server-to-dra"), QStringLiteral("--reason"), QStringLiteral("lunch"),
        QStringLiteral("--state"), state() });
    ASSERT_EQ(paused.exitCode, 0) << paused.err;
    DractlRun again = dractl({ QStringLiteral("rollout"), QStringLiteral("pause"),
        QStringLiteral("llm-server-to-dra"), QStringLiteral("--state"), state() });
    EXPECT_EQ(again.exitCode, 1) << "a refused verb fails";
    EXPECT_NE(again.err.find("refused: only a canary, shadow or cutover stage can be paused"),
        std::string::npos)
        << again.err;

    DractlRun status = dractl({ QStringLiteral("rollout"), QStringLiteral("status"),
        QStringLiteral("llm-server-to-dra"), QStringLiteral("--state"), state() });
    ASSERT_EQ(status.exitCode, 0) << status.err;
    EXPECT_NE(status.out.find("paused    lunch"), std::string::npos) << status.out;
    EXPECT_NE(status.out.find("driver    none running"), std::string::npos) << status.out;

    DractlRun verified = dractl({ QStringLiteral("rollout"), QStringLiteral("audit"),
        QStringLiteral("--verify"), QStringLiteral("--state"), state() });
    EXPECT_EQ(verified.exitCode, 0) << verified.err;
}

TEST_F(RolloutCliTest, VerbsAreQueuedForARunningController)
{
    writeRollout();
    {
        dra::Result<dra::store::StateDb> db
            = dra::store::StateDb::open(state(), dra::store::OpenMode::ReadWrite);
        ASSERT_TRUE(db.has_value());
        const int64_t now = QDateTime::currentMSecsSinceEpoch();
        ASSERT_TRUE(ControllerInbox(*db)
                        .heartbeat("llm-server-to-dra", "carol on ops-1 (pid 4242)", 4242, now, now)
                        .has_value());
    }
    DractlRun run = dractl(
        { QStringLiteral("rollout"), QStringLiteral("resume"), QStringLiteral("llm-server-to-dra"),
            QStringLiteral("--reason"), QStringLiteral("driver fixed"), QStringLiteral("--wait"),
            QStringLiteral("500ms"), QStringLiteral("--state"), state() });
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(
        run.out.find("Queued for the controller of llm-server-to-dra (carol on ops-1 (pid 4242))"),
        std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("resume is queued"), std::string::npos) << run.out;

    dra::Result<dra::store::StateDb> db
        = dra::store::StateDb::open(state(), dra::store::OpenMode::ReadWrite);
    ASSERT_TRUE(db.has_value());
    const std::vector<QueuedCommand> pending
        = ControllerInbox(*db).pending("llm-server-to-dra").value();
    ASSERT_EQ(pending.size(), 1u);
    EXPECT_EQ(pending[0].command.verb, Verb::Resume);
    EXPECT_EQ(pending[0].command.reason, "driver fixed");
    const std::optional<RolloutRecord> record = RolloutStore(*db).load("llm-server-to-dra").value();
    EXPECT_EQ(record->state.stage, Stage::Paused) << "the controller carries it out, not the shell";

    DractlRun status = dractl(
        { QStringLiteral("rollout"), QStringLiteral("status"), QStringLiteral("llm-server-to-dra"),
            QStringLiteral("-o"), QStringLiteral("json"), QStringLiteral("--state"), state() });
    ASSERT_EQ(status.exitCode, 0) << status.err;
    const nlohmann::json json = nlohmann::json::parse(status.out);
    EXPECT_EQ(json["controller"]["owner"], "carol on ops-1 (pid 4242)");
    ASSERT_EQ(json["pendingVerbs"].size(), 1u);
    EXPECT_EQ(json["pendingVerbs"][0]["command"]["verb"], "resume");
}

TEST_F(RolloutCliTest, ReportIsTheEvidenceBundleAsJsonAndHtml)
{
    writeRollout();
    DractlRun json = dractl(
        { QStringLiteral("rollout"), QStringLiteral("report"), QStringLiteral("llm-server-to-dra"),
            QStringLiteral("-o"), QStringLiteral("json"), QStringLiteral("--state"), state() });
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const nlohmann::json report = nlohmann::json::parse(json.out);
    EXPECT_EQ(report["kind"], "RolloutReport");
    EXPECT_EQ(report["apiVersion"], "draconsole.io/v1alpha1");
    EXPECT_EQ(report["rollout"]["id"], "llm-server-to-dra");
    EXPECT_EQ(report["rollout"]["stage"], "Paused");
    EXPECT_EQ(report["rollout"]["pauseReason"], "node gate inconclusive");
    ASSERT_EQ(report["timeline"].size(), 2u);
    EXPECT_EQ(report["timeline"][0]["from"], "Baseline");
    EXPECT_EQ(report["timeline"][0]["to"], "Canary");
    EXPECT_EQ(report["timeline"][1]["actor"], "bob");
    EXPECT_EQ(report["plan"]["metadata"]["name"], "llm-server-to-dra");
    EXPECT_TRUE(report["gates"].is_array());
    EXPECT_TRUE(report["gateHistory"].is_array());
    EXPECT_TRUE(report["mutations"].is_array());
    EXPECT_EQ(report["audit"]["entries"].size(), 3u); // create, start, pause
    EXPECT_EQ(report["audit"]["verification"]["intact"], true);

    DractlRun html = dractl({ QStringLiteral("rollout"), QStringLiteral("report"),
        QStringLiteral("llm-server-to-dra"), QStringLiteral("--state"), state() });
    ASSERT_EQ(html.exitCode, 0) << html.err;
    EXPECT_TRUE(html.out.starts_with("<!DOCTYPE html>"));
    for (const char *part : { "<h2>Timeline</h2>", "Baseline &rarr; Canary", "<h2>Audit log</h2>",
             "intact, 3 entries" })
        EXPECT_NE(html.out.find(part), std::string::npos) << part;
    for (const char *external : { "<script", "<link", "src=\"http" })
        EXPECT_EQ(html.out.find(external), std::string::npos) << "self-contained: " << external;
}

TEST_F(RolloutCliTest, StartAndVerbsFailClearly)
{
    DractlRun start = dractl({ QStringLiteral("rollout"), QStringLiteral("start"), examplePlan(),
        QStringLiteral("--kubeconfig"), m_dir.filePath(QStringLiteral("missing-kubeconfig")),
        QStringLiteral("--state"), state() });
    EXPECT_EQ(start.exitCode, 1);
    EXPECT_NE(start.err.find("missing-kubeconfig"), std::string::npos) << start.err;
    EXPECT_FALSE(QFile::exists(state())) << "nothing is created before the pre-flight";

    DractlRun noName = dractl({ QStringLiteral("rollout"), QStringLiteral("promote"),
        QStringLiteral("--state"), state() });
    EXPECT_EQ(noName.exitCode, 2);
    DractlRun unknown = dractl({ QStringLiteral("rollout"), QStringLiteral("abort"),
        QStringLiteral("nope"), QStringLiteral("--state"), state() });
    EXPECT_EQ(unknown.exitCode, 1);
    EXPECT_NE(unknown.err.find("no state file"), std::string::npos) << unknown.err;
}

TEST_F(RolloutCliTest, StatusWatchEndsWhenTheRolloutHasSettled)
{
    writeRollout();
    {
        const std::string text = dra::test::readFile(examplePlan().toStdString());
        const PlanParse parsed = parsePlan(text);
        dra::common::ManualClock clock;
        const RolloutMachine machine(*parsed.plan, clock);
        dra::Result<dra::store::StateDb> db
            = dra::store::StateDb::open(state(), dra::store::OpenMode::ReadWrite);
        ASSERT_TRUE(db.has_value());
        RolloutStore store(*db);
        RolloutState rollout = store.load("llm-server-to-dra").value()->state;
        // Aborted twice: the second forces every step of the rollback at once.
        for (int i = 0; i < 2; ++i)
            ASSERT_TRUE(
                store.execute(machine, rollout, Command { Verb::Abort, "bob" }, clock.nowMs())
                    .value()
                    .allowed);
        Command verified { Verb::RollbackVerified, "controller" };
        verified.evidence = { gateResult(
            GateKind::Rollback, { Check { "baseline restored", Verdict::Passed, "8/8" } }) };
        ASSERT_TRUE(store.execute(machine, rollout, verified, clock.nowMs()).value().allowed);
    }
    DractlRun watch = dractl(
        { QStringLiteral("rollout"), QStringLiteral("status"), QStringLiteral("llm-server-to-dra"),
            QStringLiteral("-w"), QStringLiteral("--state"), state() });
    ASSERT_EQ(watch.exitCode, 0) << watch.err;
    EXPECT_NE(watch.out.find("stage     RolledBack"), std::string::npos) << watch.out;
    EXPECT_EQ(
        watch.out.find("Rollout llm-server-to-dra"), watch.out.rfind("Rollout llm-server-to-dra"))
        << "printed once";
}
