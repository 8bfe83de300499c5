// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The rollout panel's models and button rules over hand-made snapshots.
#include "views/rollout/rollout_timeline_model.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include "tests/support/rollout_fixtures.h"
#include "views/rollout/rollout_actions.h"
#include "views/rollout/rollout_audit_model.h"
#include "views/rollout/rollout_gate_model.h"
#include "views/rollout/rollout_panel.h"

using dra::rollout::GateKind;
using dra::rollout::Stage;
using dra::rollout::Verb;
using dra::views::RolloutSnapshot;
using dra::views::RolloutTimelineModel;

namespace {

constexpr const char *kPanelSvg
    = R"(<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect x="10" y="10" width="50" height="30"/></svg>)";

dra::rollout::HistoryEntry panelHistory(
    int64_t at, Verb verb, Stage from, Stage to, int toStep = -1)
{
    return dra::rollout::HistoryEntry { at, "alice", verb, from, to, -1, toStep, {} };
}

// A rollout paused in its second cutover step, its node gate failed with a picture.
std::shared_ptr<RolloutSnapshot> pausedInCutover()
{
    auto snapshot = std::make_shared<RolloutSnapshot>();
    snapshot->plan
        = std::make_shared<const dra::rollout::RolloutPlan>(dra::rollout::test::examplePlan());
    dra::rollout::RolloutState state;
    state.id = "llm-server-to-dra";
    state.workload = "inference/llm-server";
    state.createdAt = 1000;
    state.stage = Stage::Paused;
    state.pausedStage = Stage::Cutover;
    state.pausedStep = 1;
    state.history = { panelHistory(2000, Verb::Start, Stage::Baseline, Stage::Canary),
        panelHistory(3000, Verb::Promote, Stage::Canary, Stage::Shadow),
        panelHistory(4000, Verb::Promote, Stage::Shadow, Stage::Cutover, 0),
        panelHistory(5000, Verb::Promote, Stage::Cutover, Stage::Cutover, 1),
        panelHistory(6000, Verb::Pause, Stage::Cutover, Stage::Paused) };
    state.gates[GateKind::Api] = dra::rollout::test::passedGate(GateKind::Api);
    dra::rollout::GateResult node = dra::rollout::gateResult(GateKind::Node,
        { { "device identity", dra::rollout::Verdict::Failed, "gpu-3 reports another UUID" },
            { "claim allocated", dra::rollout::Verdict::Passed, "allocated on node-a" } });
    node.pictures["node node-a"] = kPanelSvg;
    state.gates[GateKind::Node] = node;
    snapshot->state = state;
    snapshot->rollouts.push_back({ state.id, state.workload, state.stage, 6000 });
    return snapshot;
}

} // namespace

TEST(RolloutTimelineModelTest, APausedCutoverStepIsHeldAndPausedIsCurrent)
{
    RolloutTimelineModel model;
    QAbstractItemModelTester tester(&model);
    const auto snapshot = pausedInCutover();
    model.setSnapshot(snapshot);
    std::vector<std::string> rows;
    for (const auto &row : model.rows())
        rows.push_back(row.label.toStdString() + ":" + dra::views::timelineStatusName(row.status));
    ASSERT_GE(snapshot->plan->cutover.size(), 2u);
    std::vector<std::string> expected { "Baseline:done", "Canary:done", "Shadow:done" };
    for (size_t i = 0; i < snapshot->plan->cutover.size(); ++i)
        expected.push_back("Cutover " + std::to_string(snapshot->plan->cutover[i].percent) + "%:"
            + (i == 0        ? "done"
                    : i == 1 ? "held (paused)"
                             : "pending"));
    expected.insert(expected.end(), { "Complete:pending", "Finalised:pending", "Paused:current" });
    EXPECT_EQ(rows, expected);
    EXPECT_EQ(model.index(4, RolloutTimelineModel::EnteredColumn)
                  .data(RolloutTimelineModel::EnteredAtRole)
                  .toLongLong(),
        5000);
    EXPECT_EQ(model.index(0, 0).data(RolloutTimelineModel::EnteredAtRole).toLongLong(), 1000)
        << "Baseline: created";
    EXPECT_EQ(model.index(model.currentRow(), 0).data(RolloutTimelineModel::StageRole).toString(),
        QStringLiteral("Paused"));

    model.setSnapshot(std::make_shared<RolloutSnapshot>());
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(RolloutGateModelTest, GatesCarryTheirChecksAndPictures)
{
    dra::views::RolloutGateModel model;
    QAbstractItemModelTester tester(&model);
    model.setSnapshot(pausedInCutover());
    ASSERT_EQ(model.rowCount(), 2);
    const QModelIndex node = model.gateIndex(GateKind::Node);
    ASSERT_TRUE(node.isValid());
    EXPECT_EQ(node.siblingAtColumn(dra::views::RolloutGateModel::VerdictColumn).data().toString(),
        QStringLiteral("Failed"));
    EXPECT_TRUE(node.siblingAtColumn(dra::views::RolloutGateModel::EvidenceColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("gpu-3 reports another UUID")))
        << "the decisive check is the gate's evidence line";
    ASSERT_EQ(model.rowCount(node), 2);
    EXPECT_EQ(model.index(0, dra::views::RolloutGateModel::NameColumn, node).data().toString(),
        QStringLiteral("device identity"));
    EXPECT_EQ(model.index(1, dra::views::RolloutGateModel::VerdictColumn, node).data().toString(),
        QStringLiteral("Passed"));
    const QVariantMap pictures = node.data(dra::views::RolloutGateModel::PicturesRole).toMap();
    ASSERT_EQ(pictures.size(), 1);
    EXPECT_EQ(pictures.value(QStringLiteral("node node-a")).toByteArray(), QByteArray(kPanelSvg));
    EXPECT_TRUE(model.gateIndex(GateKind::Api)
                    .data(dra::views::RolloutGateModel::PicturesRole)
                    .toMap()
                    .isEmpty());
}

TEST(RolloutAuditModelTest, NewEntriesAreInsertedAndAnotherLogResets)
{
    dra::views::RolloutAuditModel model;
    QAbstractItemModelTester tester(&model);
    auto snapshot = std::make_shared<RolloutSnapshot>();
    snapshot->audit = { dra::rollout::AuditEntry {
        1, 1000, "alice", "create", "r", "Baseline", {}, "", "h1" } };
    model.setSnapshot(snapshot);
    ASSERT_EQ(model.rowCount(), 1);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    auto more = std::make_shared<RolloutSnapshot>(*snapshot);
    more->audit.push_back(dra::rollout::AuditEntry {
        2, 2000, "bob", "start", "r", "Baseline -> Canary", {}, "h1", "h2" });
    model.setSnapshot(more);
    EXPECT_EQ(inserted.count(), 1);
    EXPECT_EQ(reset.count(), 0);
    EXPECT_EQ(model.index(1, dra::views::RolloutAuditModel::ActorColumn).data().toString(),
        QStringLiteral("bob"));
    EXPECT_EQ(model.index(1, dra::views::RolloutAuditModel::ResultColumn).data().toString(),
        QStringLiteral("Baseline -> Canary"));
    auto other = std::make_shared<RolloutSnapshot>();
    other->audit = { dra::rollout::AuditEntry {
        1, 1000, "carol", "create", "s", "Baseline", {}, "", "x1" } };
    model.setSnapshot(other);
    EXPECT_EQ(reset.count(), 1);
    EXPECT_EQ(model.rowCount(), 1);

    dra::rollout::AuditVerification broken;
    broken.intact = false;
    broken.firstBrokenSeq = 3;
    broken.reason = "entry 3 does not match its hash (edited)";
    EXPECT_TRUE(dra::views::auditChainText(broken).contains(QStringLiteral("BROKEN at entry 3")));
}

TEST(RolloutActionsTest, ButtonsFollowTheMachineAndRetryPicksAGateThatDidNotPass)
{
    const auto snapshot = pausedInCutover();
    std::vector<Verb> enabled, all;
    for (const dra::views::VerbButton &button : dra::views::verbButtons(*snapshot)) {
        all.push_back(button.verb);
        if (button.enabled)
            enabled.push_back(button.verb);
    }
    EXPECT_EQ(all,
        (std::vector<Verb> { Verb::Start, Verb::Promote, Verb::Pause, Verb::Resume, Verb::Abort,
            Verb::RetryGate, Verb::Finalise, Verb::Reject }));
    EXPECT_EQ(
        enabled, (std::vector<Verb> { Verb::Resume, Verb::Abort, Verb::RetryGate, Verb::Reject }));
    EXPECT_EQ(dra::views::gateToRetry(*snapshot, std::nullopt), GateKind::Node);
    EXPECT_EQ(dra::views::gateToRetry(*snapshot, GateKind::Api), GateKind::Api);
    EXPECT_EQ(dra::views::gateToRetry(*snapshot, GateKind::Application), GateKind::Node)
        << "not a gate of this stage";

    snapshot->drive = RolloutSnapshot::Drive::Remote;
    snapshot->lease = dra::rollout::ControllerLease { "carol on build-7 (pid 99)", 99, 0, 0 };
    EXPECT_TRUE(
        dra::views::driveText(*snapshot).contains(QStringLiteral("carol on build-7 (pid 99)")));
}

TEST(RolloutPanelWidgetTest, ShowsTheSelectedGatesPicturesAndAsksForTheVerbWithItsGate)
{
    dra::views::RolloutPanel panel;
    const auto snapshot = pausedInCutover();
    panel.showSnapshot(snapshot);
    EXPECT_EQ(panel.pictureCount(), 1) << "the node gate's topology is drawn without choosing it";
    panel.selectGate(GateKind::Api);
    EXPECT_EQ(panel.pictureCount(), 0);
    EXPECT_FALSE(panel.button(Verb::Promote)->isEnabled());
    EXPECT_TRUE(panel.button(Verb::Abort)->isEnabled());

    std::vector<dra::views::VerbRequest> asked;
    QObject::connect(&panel, &dra::views::RolloutPanel::verbRequested, &panel,
        [&asked](const dra::views::VerbRequest &request) { asked.push_back(request); });
    EXPECT_FALSE(panel.trigger(Verb::Promote)) << "a disabled button asks for nothing";
    ASSERT_TRUE(panel.trigger(Verb::RetryGate));
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_EQ(asked[0].verb, Verb::RetryGate);
    EXPECT_EQ(asked[0].gate, GateKind::Api) << "the gate selected in the tree";

    panel.showSnapshot(snapshot); // a new snapshot keeps the selection
    ASSERT_TRUE(panel.trigger(Verb::RetryGate));
    EXPECT_EQ(asked.back().gate, GateKind::Api);
}
