// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The rollout controller against the fake cluster, with a manual clock: whole rollouts, stop
// conditions and rollback, verbs from another process, and a restart in the middle of a step.
#include "core/rollout/rollout_controller.h"

#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/kube/apply_diff.h"
#include "core/rollout/mutation_manifests.h"
#include "core/rollout/rollout_store.h"
#include "tests/support/fake_cluster.h"
#include "tests/support/rollout_fixtures.h"

using namespace dra::rollout;
using ObjKind = dra::model::Kind;
using nlohmann::json;

namespace {

constexpr int64_t kMinute = 60'000;

class RolloutControllerTest : public testing::Test
{
protected:
    void SetUp() override { m_cluster.seedExampleWorld(); }
    // DRA_KEEP_ROLLOUT_STATE=DIR keeps each test's state file there, to look at with dractl
    // (rollout status, report, audit).
    void TearDown() override
    {
        const QString keep = qEnvironmentVariable("DRA_KEEP_ROLLOUT_STATE");
        if (keep.isEmpty())
            return;
        const QString name
            = QString::fromLatin1(testing::UnitTest::GetInstance()->current_test_info()->name());
        QFile::remove(keep + QLatin1Char('/') + name + QStringLiteral(".db"));
        QFile::copy(statePath(), keep + QLatin1Char('/') + name + QStringLiteral(".db"));
    }

    QString statePath() const { return m_dir.filePath(QStringLiteral("state.db")); }

    dra::store::StateDb openState()
    {
        dra::Result<dra::store::StateDb> db
            = dra::store::StateDb::open(statePath(), dra::store::OpenMode::ReadWrite);
        if (!db)
            ADD_FAILURE() << db.error().message.toStdString();
        return db ? std::move(*db) : dra::store::StateDb();
    }

    // Creates the rollout of `planText` and queues its start, as `dractl rollout start` does.
    void createAndQueueStart(const std::string &planText)
    {
        const PlanParse parsed = parsePlan(planText);
        ASSERT_TRUE(parsed.plan);
        const RolloutMachine machine(*parsed.plan, m_clock);
        {
            dra::store::StateDb db = openState();
            ASSERT_TRUE(RolloutStore(db)
                            .create(machine.initialState(), planText, "alice", m_clock.nowMs())
                            .has_value());
        }
        queue(Command { Verb::Start, "alice", "maintenance window" });
    }

    // A verb written by another process: its own handle on the state file.
    int64_t queue(const Command &command)
    {
        dra::store::StateDb db = openState();
        dra::Result<int64_t> seq = ControllerInbox(db).enqueue(kId, command, m_clock.nowMs());
        EXPECT_TRUE(seq.has_value());
        return seq.value_or(0);
    }

    std::unique_ptr<RolloutController> controller(bool autoPromote)
    {
        ControllerOptions options;
        options.autoPromote = autoPromote;
        options.owner = { "test", "test-host", 42 };
        auto made
            = std::make_unique<RolloutController>(statePath(), kId, m_cluster, m_clock, options);
        const dra::Result<void> loaded = made->load();
        EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().message.toStdString());
        QObject::connect(made.get(), &RolloutController::message, made.get(),
            [this](const QString &text) { m_log.push_back(text.toStdString()); });
        return made;
    }

    // An auto-promoting controller of the queued start, ticked into Canary and a minute later
    // once more, so the canary's gates have been evaluated; null when it did not reach Canary.
    std::unique_ptr<RolloutController> canaryEvaluatedOnce()
    {
        auto ctl = controller(/*autoPromote=*/true);
        ctl->tick();
        if (ctl->state().stage != Stage::Canary) {
            ADD_FAILURE() << "not in Canary after the start\n" << logText();
            return nullptr;
        }
        m_clock.advance(kMinute);
        ctl->tick();
        return ctl;
    }

    // Ticks (time moving on by `step` before each) until the rollout is in `stage` or `ticks` ran
    // out.
    void tickUntil(RolloutController &ctl, Stage stage, int ticks = 20, int64_t step = 61 * kMinute)
    {
        for (int i = 0; i < ticks && ctl.state().stage != stage; ++i) {
            m_clock.advance(step);
            ctl.tick();
            ASSERT_FALSE(ctl.busy()) << "the fake cluster answers at once, so a tick ends at once";
        }
        std::string gates;
        for (const auto &[kind, result] : ctl.state().gates)
            gates += std::string(gateName(kind)) + ": " + result.summary() + "\n";
        ASSERT_EQ(ctl.state().stage, stage) << "at " << stageName(ctl.state().stage) << "\n"
                                            << gates << logText();
    }

    // The example plan with its WrongDeviceIdentity stop condition pausing instead of rolling
    // back, so a test can look at the paused state first.
    static std::string planPausingOnWrongDevice()
    {
        std::string plan = test::examplePlanText();
        const std::string rollback = "- type: WrongDeviceIdentity\n    action: Rollback";
        EXPECT_NE(plan.find(rollback), std::string::npos);
        if (const size_t at = plan.find(rollback); at != std::string::npos)
            plan.replace(at, rollback.size(), "- type: WrongDeviceIdentity\n    action: Pause");
        return plan;
    }

    std::string logText() const
    {
        std::string text;
        for (const std::string &line : m_log)
            text += line + "\n";
        return text;
    }

    std::vector<AuditEntry> audit()
    {
        dra::store::StateDb db = openState();
        return RolloutStore(db).audit().entries().value_or(std::vector<AuditEntry> {});
    }

    void expectAuditIntact()
    {
        dra::store::StateDb db = openState();
        const dra::Result<AuditVerification> verified = RolloutStore(db).audit().verify();
        ASSERT_TRUE(verified.has_value());
        EXPECT_TRUE(verified->intact) << verified->reason;
    }

    // The cluster mutations the transitions decided, and those carried out, in audit order.
    std::pair<std::vector<std::string>, std::vector<std::string>> decidedAndApplied()
    {
        std::vector<std::string> decided, applied;
        for (const AuditEntry &entry : audit()) {
            if (entry.action == "mutate") {
                applied.push_back(entry.details["mutation"]["description"]);
                continue;
            }
            if (!entry.details.contains("mutations") || entry.result.starts_with("refused"))
                continue;
            for (const json &m : entry.details["mutations"])
                if (m["kind"] != "mark-variant-rejected")
                    decided.push_back(m["description"]);
        }
        return { decided, applied };
    }

    int replicasOf(const std::string &deployment)
    {
        const std::optional<json> object
            = m_cluster.object(ObjKind::Deployment, "inference", deployment);
        return object ? (*object)["spec"].value("replicas", -1) : -1;
    }

    const std::string kId = "llm-server-to-dra";
    QTemporaryDir m_dir;
    dra::common::ManualClock m_clock;
    test::FakeCluster m_cluster;
    std::vector<std::string> m_log;
};

} // namespace

TEST_F(RolloutControllerTest, AutoPromotedRolloutRunsThroughEveryStageToComplete)
{
    createAndQueueStart(test::examplePlanText());
    auto ctl = controller(/*autoPromote=*/true);
    ctl->tick();
    ASSERT_EQ(ctl->state().stage, Stage::Canary) << logText();
    EXPECT_EQ(replicasOf("llm-server-dra"), 1);
    ASSERT_TRUE(m_cluster.object(ObjKind::ResourceClaimTemplate, "inference", "llm-server-h100"));
    ASSERT_TRUE(m_cluster.object(
        ObjKind::ResourceClaim, "inference", "llm-server-to-dra-negative-control"));

    tickUntil(*ctl, Stage::Shadow);
    tickUntil(*ctl, Stage::Cutover);
    tickUntil(*ctl, Stage::Complete);

    EXPECT_EQ(replicasOf("llm-server"), 0) << "Complete scales the baseline to zero but keeps it";
    EXPECT_EQ(replicasOf("llm-server-dra"), 8);
    const auto [baselineWeight, canaryWeight] = routeWeights(
        ctl->plan(), *m_cluster.object(ObjKind::HTTPRoute, "inference", "llm-server"));
    EXPECT_EQ(baselineWeight, 0);
    EXPECT_EQ(canaryWeight, 100);
    EXPECT_FALSE(m_cluster.object(
        ObjKind::ResourceClaim, "inference", "llm-server-to-dra-negative-control"));

    const auto [decided, applied] = decidedAndApplied();
    EXPECT_EQ(applied, decided) << "every mutation carried out once, in the machine's order";
    EXPECT_GE(applied.size(), 15u);
    expectAuditIntact();

    // The evidence of the last stage is in the state, each gate with the checks that decided it.
    std::vector<std::string> history;
    for (const HistoryEntry &h : ctl->state().history)
        history.push_back(std::string(verbName(h.verb)) + " " + stageName(h.to));
    EXPECT_EQ(history,
        (std::vector<std::string> { "start Canary", "promote Shadow", "promote Cutover",
            "promote Cutover", "promote Cutover", "promote Cutover", "promote Complete" }));
}

TEST_F(RolloutControllerTest, WithoutAutoPromoteTheRolloutWaitsForThePromoteVerb)
{
    createAndQueueStart(test::examplePlanText());
    auto ctl = controller(/*autoPromote=*/false);
    for (int i = 0; i < 3; ++i) {
        m_clock.advance(61 * kMinute);
        ctl->tick();
    }
    ASSERT_EQ(ctl->state().stage, Stage::Canary); // gates passed and window run: still waiting
    EXPECT_EQ(ctl->state().gates.at(GateKind::Api).verdict, Verdict::Passed);
    queue(Command { Verb::Promote, "bob", "evidence reviewed" });
    ctl->tick();
    EXPECT_EQ(ctl->state().stage, Stage::Shadow) << logText();
    EXPECT_EQ(ctl->state().history.back().actor, "bob");
}

// The driver reports the right device, but the canary's container sees a neighbour's GPU too
// (nvidia-smi -L through pods/exec): the node gate fails and the rollout stops at Canary.
TEST_F(RolloutControllerTest, ANeighboursGpuInTheCanaryContainerStopsTheRollout)
{
    const std::string plan = planPausingOnWrongDevice();
    m_cluster.execNeighbour = true;
    createAndQueueStart(plan);
    auto ctl = canaryEvaluatedOnce();
    ASSERT_TRUE(ctl);
    ASSERT_EQ(ctl->state().stage, Stage::Paused) << logText();
    const GateResult &node = ctl->state().gates.at(GateKind::Node);
    EXPECT_EQ(node.verdict, Verdict::Failed);
    ASSERT_TRUE(node.decisive());
    EXPECT_NE(node.decisive()->evidence.find("not allocated to it"), std::string::npos)
        << node.summary();
    EXPECT_NE(ctl->state().pauseReason.find("WrongDeviceIdentity"), std::string::npos)
        << ctl->state().pauseReason;
}

// The DRA driver's kubelet plugin on the canary's node is not Ready: the node gate fails on it
// and the canary is not promoted; once the plugin is Ready the rollout goes on.
TEST_F(RolloutControllerTest, ADriverPodNotReadyOnTheCanarysNodeHoldsTheCanary)
{
    const auto driverPod = [](bool ready) {
        return json { { "apiVersion", "v1" }, { "kind", "Pod" },
            { "metadata",
                { { "name", "nvidia-dra-driver-gpu-kubelet-plugin-x2k9d" },
                    { "namespace", "nvidia-dra-driver-gpu" }, { "uid", "plugin-pod-1" },
                    { "ownerReferences",
                        json::array({ { { "apiVersion", "apps/v1" }, { "kind", "DaemonSet" },
                            { "name", "nvidia-dra-driver-gpu-kubelet-plugin" },
                            { "uid", "plugin-ds" }, { "controller", true } } }) } } },
            { "spec", { { "nodeName", "node-a" } } },
            { "status",
                { { "phase", "Running" },
                    { "conditions",
                        json::array({ { { "type", "Ready" },
                            { "status", ready ? "True" : "False" } } }) } } } };
    };
    m_cluster.put({ { "apiVersion", "apps/v1" }, { "kind", "DaemonSet" },
        { "metadata",
            { { "name", "nvidia-dra-driver-gpu-kubelet-plugin" },
                { "namespace", "nvidia-dra-driver-gpu" }, { "uid", "plugin-ds" } } },
        { "spec", json::object() } });
    m_cluster.put(driverPod(false));
    createAndQueueStart(test::examplePlanText());
    auto ctl = canaryEvaluatedOnce();
    ASSERT_TRUE(ctl);
    EXPECT_EQ(ctl->state().stage, Stage::Canary) << "not promoted past a failed node gate";
    ASSERT_TRUE(ctl->state().gates.contains(GateKind::Node)) << logText();
    const GateResult &node = ctl->state().gates.at(GateKind::Node);
    EXPECT_EQ(node.verdict, Verdict::Failed) << node.summary();
    ASSERT_TRUE(node.decisive());
    EXPECT_EQ(node.decisive()->name, "driver pod Ready");
    EXPECT_NE(node.decisive()->evidence.find("DaemonSet nvidia-dra-driver-gpu/"
                                             "nvidia-dra-driver-gpu-kubelet-plugin on node "
                                             "node-a is not Ready"),
        std::string::npos)
        << node.summary();

    // Ready: the node gate passes (promotion needs it) and the canary moves on.
    m_cluster.put(driverPod(true));
    tickUntil(*ctl, Stage::Shadow);
}

// Exec refused (no create on pods/exec): the node gate cannot verify and the canary waits.
TEST_F(RolloutControllerTest, AForbiddenExecLeavesTheNodeGateInconclusive)
{
    m_cluster.execForbidden = true;
    createAndQueueStart(test::examplePlanText());
    auto ctl = canaryEvaluatedOnce();
    ASSERT_TRUE(ctl);
    EXPECT_EQ(ctl->state().stage, Stage::Canary) << logText();
    const GateResult &node = ctl->state().gates.at(GateKind::Node);
    EXPECT_EQ(node.verdict, Verdict::Inconclusive) << node.summary();
    EXPECT_NE(node.summary().find("cannot create resource \"pods/exec\""), std::string::npos)
        << node.summary();
}

TEST_F(RolloutControllerTest, WrongDeviceIdentityAtCanaryPausesThenAbortRollsBackAndVerifies)
{
    const std::string plan = planPausingOnWrongDevice();
    m_cluster.wrongDeviceIdentity = true;
    const json routeBefore = *m_cluster.object(ObjKind::HTTPRoute, "inference", "llm-server");
    const json baselineBefore = *m_cluster.object(ObjKind::Deployment, "inference", "llm-server");
    createAndQueueStart(plan);
    auto ctl = controller(/*autoPromote=*/true);
    ctl->tick();
    ASSERT_EQ(ctl->state().stage, Stage::Canary) << logText();

    m_clock.advance(kMinute);
    ctl->tick();
    ASSERT_EQ(ctl->state().stage, Stage::Paused) << logText();
    EXPECT_EQ(ctl->state().pausedStage, Stage::Canary);
    EXPECT_EQ(ctl->state().gates.at(GateKind::Node).verdict, Verdict::Failed);
    EXPECT_NE(ctl->state().pauseReason.find("WrongDeviceIdentity"), std::string::npos)
        << ctl->state().pauseReason;

    queue(Command { Verb::Abort, "bob", "wrong GPU handed out" });
    ctl->tick();
    ASSERT_EQ(ctl->state().stage, Stage::RollingBack) << logText();
    // Traffic goes back first; the canary stays for the drain window.
    EXPECT_EQ(ctl->state().step, kRollbackDraining);
    EXPECT_TRUE(m_cluster.object(ObjKind::Deployment, "inference", "llm-server-dra"));
    EXPECT_TRUE(m_cluster.object(ObjKind::ResourceClaimTemplate, "inference", "llm-server-h100"));

    tickUntil(*ctl, Stage::RolledBack, 6, kMinute);
    EXPECT_FALSE(m_cluster.object(ObjKind::Deployment, "inference", "llm-server-dra"));
    EXPECT_FALSE(m_cluster.object(ObjKind::ResourceClaimTemplate, "inference", "llm-server-h100"));
    EXPECT_EQ(m_cluster.count(ObjKind::Pod), 0u);
    // The steps in their order, each with what it waited for, then the verification.
    std::vector<std::string> steps;
    for (const HistoryEntry &entry : ctl->state().history)
        if (entry.verb == Verb::RollbackStep)
            steps.push_back(entry.note);
    EXPECT_EQ(steps,
        (std::vector<std::string> { "traffic is back on the baseline and the drain window has run",
            "the canary's claims are released" }));
    EXPECT_EQ(ctl->state().history.back().verb, Verb::RollbackVerified);
    EXPECT_EQ(replicasOf("llm-server"), 8);
    // Restored object by object: the route and the baseline as they were before the start.
    EXPECT_EQ(dra::kube::comparableObject(
                  *m_cluster.object(ObjKind::HTTPRoute, "inference", "llm-server")),
        dra::kube::comparableObject(routeBefore));
    EXPECT_EQ(dra::kube::comparableObject(
                  *m_cluster.object(ObjKind::Deployment, "inference", "llm-server")),
        dra::kube::comparableObject(baselineBefore));
    for (const auto &[kind, name] : std::vector<std::pair<ObjKind, std::string>> {
             { ObjKind::ResourceClaim, "llm-server-to-dra-negative-control" },
             { ObjKind::ResourceClaim, "llm-server-dra-pod-0-gpu" } })
        EXPECT_FALSE(m_cluster.object(kind, "inference", name)) << name;

    const auto [decided, applied] = decidedAndApplied();
    EXPECT_EQ(applied, decided);
    expectAuditIntact();
}

TEST_F(RolloutControllerTest, AVerbFromAnotherProcessIsCarriedOutExactlyOnce)
{
    createAndQueueStart(test::examplePlanText());
    auto ctl = controller(/*autoPromote=*/false);
    ctl->tick();
    ASSERT_EQ(ctl->state().stage, Stage::Canary);
    {
        dra::store::StateDb db = openState();
        const auto lease = ControllerInbox(db).lease(kId);
        ASSERT_TRUE(lease.has_value() && lease->has_value());
        EXPECT_EQ((*lease)->pid, 42);
        EXPECT_TRUE((*lease)->isLive(m_clock.nowMs(), 30'000));
    }

    const int64_t seq = queue(Command { Verb::Pause, "bob", "lunch" });
    ctl->tick();
    ctl->tick();
    ASSERT_EQ(ctl->state().stage, Stage::Paused);
    int pauses = 0;
    for (const HistoryEntry &h : ctl->state().history)
        pauses += h.verb == Verb::Pause;
    EXPECT_EQ(pauses, 1);

    dra::store::StateDb db = openState();
    ControllerInbox inbox(db);
    const auto command = inbox.command(seq);
    ASSERT_TRUE(command.has_value() && command->has_value());
    EXPECT_TRUE((*command)->consumedAt.has_value());
    EXPECT_EQ((*command)->result, "Canary -> Paused");
    EXPECT_TRUE(inbox.pending(kId).value().empty());
    EXPECT_FALSE(inbox.takeNext(kId, m_clock.nowMs()).value().has_value())
        << "a second reader gets nothing";
}

TEST_F(RolloutControllerTest, AControllerStoppedMidCutoverResumesWithoutRepeatingSideEffects)
{
    createAndQueueStart(test::examplePlanText());
    auto ctl = controller(/*autoPromote=*/true);
    ctl->tick();
    tickUntil(*ctl, Stage::Cutover);
    ASSERT_EQ(ctl->state().step, 0);

    // The next step scales the canary to 2; its pods do not come up before the controller dies.
    m_cluster.settleDeployments = false;
    m_clock.advance(61 * kMinute);
    ctl->tick();
    ASSERT_TRUE(ctl->busy()) << "waiting for the canary to be Ready\n" << logText();
    ASSERT_EQ(ctl->state().step, 1);
    EXPECT_EQ(replicasOf("llm-server-dra"), 2);
    ctl.reset();
    const size_t writesBefore = m_cluster.writes().size();

    m_cluster.settleDeployments = true;
    m_cluster.reconcile();
    auto again = controller(/*autoPromote=*/true);
    EXPECT_EQ(again->state().stage, Stage::Cutover);
    again->tick();
    ASSERT_FALSE(again->busy());
    EXPECT_EQ(again->state().step, 1);
    // Only the route's weights remained: the scale is not sent again.
    const std::vector<std::string> writes = m_cluster.writes();
    ASSERT_EQ(writes.size(), writesBefore + 1) << logText();
    EXPECT_EQ(writes.back(), "apply HTTPRoute inference/llm-server");
    EXPECT_EQ(routeWeights(
                  again->plan(), *m_cluster.object(ObjKind::HTTPRoute, "inference", "llm-server"))
                  .second,
        25);

    tickUntil(*again, Stage::Complete);
    const auto [decided, applied] = decidedAndApplied();
    // The interrupted scale has one outcome: the replay that found it done.
    EXPECT_EQ(applied, decided);
    expectAuditIntact();
}

TEST_F(RolloutControllerTest, ADeploymentThatNeverGetsReadyFailsTheStepAndPauses)
{
    createAndQueueStart(test::examplePlanText());
    auto ctl = controller(/*autoPromote=*/true);
    ctl->tick();
    tickUntil(*ctl, Stage::Cutover);
    m_cluster.settleDeployments = false;
    m_clock.advance(61 * kMinute);
    ctl->tick();
    ASSERT_TRUE(ctl->busy());
    m_clock.advance(6 * kMinute); // past the five-minute wait
    ASSERT_FALSE(ctl->busy()) << logText();
    EXPECT_EQ(ctl->state().stage, Stage::Paused);
    ASSERT_TRUE(ctl->lastError().has_value());
    EXPECT_NE(ctl->lastError()->message.indexOf(QStringLiteral(
                  "Deployment inference/llm-server-dra is not Ready at 2 replica(s) after 5m")),
        -1)
        << ctl->lastError()->message.toStdString();
    EXPECT_NE(ctl->state().pauseReason.find("step failed"), std::string::npos);
}

TEST_F(RolloutControllerTest, ADeniedAccessReviewSendsNothing)
{
    m_cluster.denied.insert({ "create", ObjKind::ResourceClaimTemplate });
    createAndQueueStart(test::examplePlanText());
    auto ctl = controller(/*autoPromote=*/false);
    ctl->tick();
    EXPECT_EQ(ctl->state().stage, Stage::Paused) << logText();
    EXPECT_TRUE(m_cluster.writes().empty());
    ASSERT_TRUE(ctl->lastError().has_value());
    EXPECT_EQ(ctl->lastError()->code, dra::common::Error::Code::Forbidden);
    bool denied = false;
    for (const AuditEntry &entry : audit())
        denied = denied || (entry.action == "mutate" && entry.result.starts_with("denied"));
    EXPECT_TRUE(denied);
}

TEST_F(RolloutControllerTest, WithoutASchedulerEventTheSimulationExplainsTheNegativeControl)
{
    m_cluster.negativeControlEvents = false;
    createAndQueueStart(test::examplePlanText());
    auto ctl = controller(/*autoPromote=*/false);
    ctl->tick();
    m_clock.advance(kMinute);
    ctl->tick();
    ASSERT_EQ(ctl->state().stage, Stage::Canary);
    const GateResult &negative = ctl->state().gates.at(GateKind::NegativeControl);
    EXPECT_EQ(negative.verdict, Verdict::Passed) << negative.summary();
    ASSERT_FALSE(negative.checks.empty());
    EXPECT_TRUE(negative.checks.back().evidence.starts_with("simulation:")
        || negative.checks.back().evidence.starts_with("diagnosis:"))
        << negative.checks.back().evidence;
}

TEST_F(RolloutControllerTest, ARunningControllerKeepsItsLeaseFreshAndReleasesItOnStop)
{
    createAndQueueStart(test::examplePlanText());
    auto ctl = controller(/*autoPromote=*/false);
    ctl->start();
    m_clock.advance(2 * kMinute);
    {
        dra::store::StateDb db = openState();
        const auto lease = ControllerInbox(db).lease(kId);
        ASSERT_TRUE(lease.has_value() && lease->has_value());
        EXPECT_TRUE((*lease)->isLive(m_clock.nowMs(), 30'000))
            << "last beat " << m_clock.nowMs() - (*lease)->heartbeatAt << "ms ago";
    }
    ctl->stop();
    dra::store::StateDb db = openState();
    EXPECT_FALSE(ControllerInbox(db).lease(kId).value().has_value())
        << "a clean stop releases the lease";
}

TEST_F(RolloutControllerTest,
    ReplicaRatioRolloutShiftsReplicasBehindOneServiceAndRollsBackFromComplete)
{
    std::string plan = test::examplePlanText();
    const auto replace = [&](const std::string &from, const std::string &to) {
        const size_t at = plan.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        plan.replace(at, from.size(), to);
    };
    replace("    mode: HTTPRoute\n    httpRoute:\n      name: llm-server\n      baselineBackend: "
            "llm-server\n"
            "      canaryBackend: llm-server-dra\n    mirrorPercent: 100\n",
        "    mode: ReplicaRatio\n    service: llm-server\n");
    replace("  shadow:\n    observation: 30m\n", "  shadow:\n    enabled: false\n");
    const json routeBefore = *m_cluster.object(ObjKind::HTTPRoute, "inference", "llm-server");
    createAndQueueStart(plan);
    auto ctl = controller(/*autoPromote=*/true);
    ctl->tick();
    ASSERT_EQ(ctl->state().stage, Stage::Canary) << logText();
    // Behind one Service the canary keeps the label the Service selects.
    const json canary = *m_cluster.object(ObjKind::Deployment, "inference", "llm-server-dra");
    EXPECT_EQ(canary["spec"]["template"]["metadata"]["labels"]["app"], "llm-server");

    tickUntil(*ctl, Stage::Cutover);
    EXPECT_EQ(replicasOf("llm-server-dra"), 1);
    EXPECT_EQ(replicasOf("llm-server"), 7)
        << "5% of 8 replicas is one canary in place of one baseline pod";
    tickUntil(*ctl, Stage::Complete);
    EXPECT_EQ(replicasOf("llm-server-dra"), 8);
    EXPECT_EQ(replicasOf("llm-server"), 0);
    EXPECT_EQ(*m_cluster.object(ObjKind::HTTPRoute, "inference", "llm-server"), routeBefore)
        << "no route in this mode";

    queue(Command { Verb::Abort, "bob", "latency regression found after cutover" });
    ctl->tick();
    tickUntil(*ctl, Stage::RolledBack, 3, kMinute);
    EXPECT_EQ(replicasOf("llm-server"), 8);
    EXPECT_FALSE(m_cluster.object(ObjKind::Deployment, "inference", "llm-server-dra"));
    const auto [decided, applied] = decidedAndApplied();
    EXPECT_EQ(applied, decided);
    expectAuditIntact();
}

TEST_F(RolloutControllerTest, PendingTooLongKeepsCountingAcrossARestart)
{
    m_cluster.settleDeployments = false; // the canary's pod never appears
    createAndQueueStart(test::examplePlanText());
    auto ctl = controller(/*autoPromote=*/false);
    ctl->tick();
    m_clock.advance(kMinute);
    ctl->tick(); // pending from here
    ctl.reset();
    m_clock.advance(3 * kMinute);
    auto again = controller(/*autoPromote=*/false);
    again->tick();
    EXPECT_EQ(again->state().stage, Stage::Canary) << "3m of the 5m limit";
    m_clock.advance(2 * kMinute + 1);
    again->tick();
    ASSERT_EQ(again->state().stage, Stage::Paused) << logText();
    EXPECT_NE(again->state().pauseReason.find("PendingTooLong: waiting 5m"), std::string::npos)
        << again->state().pauseReason;
}
