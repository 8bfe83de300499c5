// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Starting a rollout as both faces do: nothing is written unless the pre-flight passes; then the
// rollout exists at Baseline with the pre-flight recorded and its start waits in the inbox.
#include "core/rollout/rollout_start.h"

#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/rollout/controller_inbox.h"
#include "core/rollout/rollout_report.h"
#include "core/rollout/rollout_store.h"
#include "core/store/state_db.h"
#include "tests/support/fake_cluster.h"
#include "tests/support/rollout_fixtures.h"

using namespace dra::rollout;

namespace {

class RolloutStartTest : public testing::Test
{
protected:
    void SetUp() override { m_cluster.seedExampleWorld(); }

    QString statePath() const { return m_dir.filePath(QStringLiteral("state.db")); }

    // The fake cluster answers at once, so the outcome is in when startRollout() returns.
    StartOutcome start(const StartRequest &request)
    {
        std::optional<StartOutcome> outcome;
        startRollout(statePath(), m_plan, request, m_cluster, m_clock, &m_context,
            [&outcome](StartOutcome got) { outcome = std::move(got); });
        EXPECT_TRUE(outcome.has_value());
        return outcome.value_or(StartOutcome {});
    }

    dra::store::StateDb openState()
    {
        dra::Result<dra::store::StateDb> db
            = dra::store::StateDb::open(statePath(), dra::store::OpenMode::ReadWrite);
        EXPECT_TRUE(db.has_value());
        return db ? std::move(*db) : dra::store::StateDb();
    }

    void makeBaselineUnready()
    {
        nlohmann::json baseline
            = *m_cluster.object(dra::model::Kind::Deployment, "inference", "llm-server");
        baseline["status"]["readyReplicas"] = 3;
        m_cluster.put(baseline);
    }

    // Carries out `command` on the stored rollout directly, as a controller would.
    void execute(const Command &command, Stage expected)
    {
        dra::store::StateDb db = openState();
        RolloutStore store(db);
        const auto record = store.load(m_plan.name);
        ASSERT_TRUE(record && *record);
        RolloutState state = (*record)->state;
        const RolloutMachine machine(m_plan, m_clock);
        const auto decision = store.execute(machine, state, command, m_clock.nowMs());
        ASSERT_TRUE(decision.has_value()) << decision.error().message.toStdString();
        ASSERT_TRUE(decision->allowed) << decision->refusal;
        ASSERT_EQ(state.stage, expected);
    }

    QTemporaryDir m_dir;
    QObject m_context;
    dra::common::ManualClock m_clock;
    test::FakeCluster m_cluster;
    const RolloutPlan m_plan = test::examplePlan();
};

} // namespace

TEST_F(RolloutStartTest, APassingPreflightCreatesTheRolloutAndQueuesItsStart)
{
    const StartOutcome outcome = start({ "alice", "maintenance window" });
    ASSERT_TRUE(outcome.started()) << outcome.error->message.toStdString();
    ASSERT_TRUE(outcome.preflight.has_value());
    EXPECT_EQ(outcome.preflight->verdict, Verdict::Passed);

    dra::store::StateDb db = openState();
    const auto record = RolloutStore(db).load(m_plan.name);
    ASSERT_TRUE(record && *record);
    EXPECT_EQ((*record)->state.stage, Stage::Baseline);
    EXPECT_EQ((*record)->state.gates.at(GateKind::Baseline).verdict, Verdict::Passed)
        << "the pre-flight is the rollout's baseline evidence";
    const auto pending = ControllerInbox(db).pending(m_plan.name);
    ASSERT_TRUE(pending && pending->size() == 1u);
    EXPECT_EQ(pending->front().seq, outcome.queued);
    EXPECT_EQ(pending->front().command.verb, Verb::Start);
    EXPECT_EQ(pending->front().command.actor, "alice");
    EXPECT_EQ(pending->front().command.reason, "maintenance window");
    EXPECT_TRUE(parsePlan((*record)->planYaml).plan) << "the stored plan reads back";
}

TEST_F(RolloutStartTest, AFailedPreflightWritesNothingAndAStartAgainReusesTheBaseline)
{
    makeBaselineUnready();
    const StartOutcome refused = start({ "alice" });
    ASSERT_FALSE(refused.started());
    ASSERT_TRUE(refused.preflight.has_value());
    EXPECT_EQ(refused.preflight->verdict, Verdict::Failed);
    EXPECT_TRUE(refused.error->message.contains(QStringLiteral("nothing was changed")))
        << refused.error->message.toStdString();
    EXPECT_FALSE(QFile::exists(statePath())) << "not even the state file";

    EXPECT_FALSE(preflightAllows(*refused.preflight, true).has_value())
        << "accepting Inconclusive does not let a Failed pre-flight through";
}

TEST_F(RolloutStartTest, ARolloutUnderWayIsRefusedBeforeThePreflight)
{
    ASSERT_TRUE(start({ "alice" }).started());
    Command go { Verb::Start, "alice" };
    go.baselineReplicas = 8; // what the controller reads from the cluster before it starts
    execute(go, Stage::Canary);
    const size_t calls = m_cluster.calls.size();
    const StartOutcome underWay = start({ "bob" });
    ASSERT_FALSE(underWay.started());
    EXPECT_EQ(underWay.existingStage, Stage::Canary);
    EXPECT_FALSE(underWay.preflight.has_value());
    EXPECT_EQ(m_cluster.calls.size(), calls) << "the cluster was not asked";
}

TEST_F(RolloutStartTest, ARejectedVariantStartsAgainOnlyOverridden)
{
    ASSERT_TRUE(start({ "alice" }).started());
    execute(Command { Verb::Reject, "alice", "wrong GPU UUIDs in the canary" }, Stage::Rejected);

    const StartOutcome rejected = start({ "bob" });
    ASSERT_FALSE(rejected.started());
    EXPECT_TRUE(rejected.variantRejected);
    EXPECT_FALSE(rejected.preflight.has_value());
    EXPECT_TRUE(rejected.error->message.contains(QStringLiteral("wrong GPU UUIDs")))
        << rejected.error->message.toStdString();

    StartRequest overriding { "bob" };
    overriding.overrideRejection = true;
    const StartOutcome again = start(overriding);
    ASSERT_TRUE(again.started()) << again.error->message.toStdString();
    dra::store::StateDb db = openState();
    const auto pending = ControllerInbox(db).pending(m_plan.name);
    ASSERT_TRUE(pending && !pending->empty());
    EXPECT_TRUE(pending->back().command.overrideRejection) << "the controller is told too";
}

TEST_F(RolloutStartTest, ThePreflightKeepsTheBaselineFactsForTheEvidenceBundle)
{
    m_cluster.put(nlohmann::json::parse(R"({"apiVersion":"apps/v1","kind":"DaemonSet",
        "metadata":{"name":"nvidia-dra-driver-gpu-kubelet-plugin","namespace":"gpu-operator"},
        "spec":{"selector":{"matchLabels":{"app":"dra"}},"template":{"metadata":{"labels":{"app":"dra"}},
          "spec":{"containers":[{"name":"plugin","image":"nvcr.io/nvidia/k8s-dra-driver-gpu:v25.8.0"}]}}},
        "status":{"desiredNumberScheduled":1,"numberReady":1}})"));
    nlohmann::json pluginNode = *m_cluster.object(dra::model::Kind::Node, "", "node-b");
    pluginNode["status"]["capacity"] = pluginNode["status"]["allocatable"];
    m_cluster.put(pluginNode);
    ASSERT_TRUE(start({ "alice" }).started());

    dra::store::StateDb db = openState();
    RolloutStore store(db);
    const auto record = store.load(m_plan.name);
    ASSERT_TRUE(record && *record);
    const auto audit = store.audit().entries(m_plan.name);
    ASSERT_TRUE(audit.has_value());
    const nlohmann::json facts = rolloutReportJson({ **record, *audit, {}, 0 })["baselineFacts"];
    ASSERT_TRUE(facts.is_object()) << "the report starts from the pre-flight's facts";

    EXPECT_EQ(facts["versions"]["kubernetes"], m_cluster.kubernetesVersion);
    EXPECT_EQ(facts["baseline"]["readyReplicas"], 8);
    // The baseline's own metrics, from the plan's Prometheus queries.
    EXPECT_DOUBLE_EQ(facts["baseline"]["errorRate"].get<double>(), 0.001);
    // Which manager has the GPUs of each node: the device plugin on node-b, DRA on node-a.
    ASSERT_EQ(facts["nodes"].size(), 2u) << facts["nodes"].dump();
    EXPECT_EQ(facts["nodes"][0]["name"], "node-a");
    EXPECT_EQ(facts["nodes"][0]["drivers"], nlohmann::json::array({ "gpu.nvidia.com" }));
    EXPECT_EQ(facts["nodes"][1]["devicePluginGpus"], 8);
    ASSERT_EQ(facts["devices"].size(), 8u);
    EXPECT_TRUE(facts["devices"][0]["uuid"].get<std::string>().starts_with("GPU-"));
    ASSERT_EQ(facts["daemonSets"].size(), 1u);
    EXPECT_EQ(facts["daemonSets"][0]["ready"], 1);
    EXPECT_EQ(facts["daemonSets"][0]["images"][0], "nvcr.io/nvidia/k8s-dra-driver-gpu:v25.8.0");

    const std::string html = rolloutReportHtml({ **record, *audit, {}, 0 });
    EXPECT_NE(html.find("<h2>Baseline facts</h2>"), std::string::npos);
    EXPECT_LT(html.find("Baseline facts"), html.find("<h2>Timeline</h2>"));
}

TEST_F(RolloutStartTest, OutsideTheWindowAStartIsRefusedBeforeThePreflight)
{
    const dra::rollout::PlanParse parsed = parsePlan(test::examplePlanText()
        + "  maintenanceWindow:\n    start: \"03:00\"\n    duration: 1m\n    timeZone: UTC\n");
    ASSERT_TRUE(parsed.plan);
    std::optional<StartOutcome> outcome;
    // ManualClock starts at 22:13 UTC: the window of 03:00 is closed.
    startRollout(statePath(), *parsed.plan, { "alice" }, m_cluster, m_clock, &m_context,
        [&outcome](StartOutcome got) { outcome = std::move(got); });
    ASSERT_TRUE(outcome && !outcome->started());
    EXPECT_NE(outcome->error->message.toStdString().find("closed, it opens"), std::string::npos)
        << outcome->error->message.toStdString();
    EXPECT_FALSE(outcome->preflight) << "nothing is read or written outside the window";
    EXPECT_FALSE(QFile::exists(statePath()));

    StartRequest forced { "alice", "hotfix for INC-1" };
    forced.force = true;
    outcome.reset();
    startRollout(statePath(), *parsed.plan, forced, m_cluster, m_clock, &m_context,
        [&outcome](StartOutcome got) { outcome = std::move(got); });
    ASSERT_TRUE(outcome && outcome->started()) << outcome->error->message.toStdString();
    dra::store::StateDb db = openState();
    const auto pending = ControllerInbox(db).pending(m_plan.name);
    ASSERT_TRUE(pending && pending->size() == 1u);
    EXPECT_TRUE(pending->front().command.force) << "the force travels with the queued start";
}
