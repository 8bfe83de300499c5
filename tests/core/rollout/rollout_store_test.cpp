// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/rollout_store.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "tests/support/rollout_fixtures.h"

using namespace dra::rollout;
using dra::Result;
using dra::common::Error;
using dra::store::OpenMode;
using dra::store::StateDb;

namespace {

class RolloutStoreTest : public testing::Test
{
protected:
    RolloutStoreTest()
        : m_plan(test::examplePlan())
        , m_machine(m_plan, m_clock)
    {
    }

    StateDb open(OpenMode mode = OpenMode::ReadWrite)
    {
        Result<StateDb> state = StateDb::open(m_dir.filePath(QStringLiteral("state.db")), mode);
        EXPECT_TRUE(state.has_value()) << state.error().message.toStdString();
        return std::move(state).value_or(StateDb());
    }

    Command start()
    {
        Command c { Verb::Start, "alice" };
        c.baselineReplicas = 8;
        c.evidence = { test::passedGate(GateKind::Baseline) };
        return c;
    }

    QTemporaryDir m_dir;
    dra::common::ManualClock m_clock;
    RolloutPlan m_plan;
    RolloutMachine m_machine;
};

} // namespace

TEST_F(RolloutStoreTest, ARolloutSurvivesClosingAndReopeningTheStateFile)
{
    {
        StateDb state = open();
        RolloutStore store(state);
        RolloutState rollout = m_machine.initialState();
        ASSERT_TRUE(
            store.create(rollout, test::examplePlanText(), "alice", m_clock.nowMs()).has_value());
        const Result<Decision> started
            = store.execute(m_machine, rollout, start(), m_clock.nowMs());
        ASSERT_TRUE(started.has_value()) << started.error().message.toStdString();
        ASSERT_TRUE(started->allowed) << started->refusal;
        m_clock.advance(3 * 60'000);
        Command pause { Verb::Pause, "alice", "investigating latency" };
        ASSERT_TRUE(store.execute(m_machine, rollout, pause, m_clock.nowMs()).value().allowed);
    } // closed, as a console killed mid-rollout

    StateDb state = open(OpenMode::ReadOnly);
    RolloutStore store(state);
    const std::optional<RolloutRecord> record = store.load(m_plan.name).value();
    ASSERT_TRUE(record);
    EXPECT_EQ(record->state.stage, Stage::Paused);
    EXPECT_EQ(record->state.pausedStage, Stage::Canary);
    EXPECT_EQ(record->state.pauseReason, "investigating latency");
    EXPECT_EQ(record->state.baselineReplicas, 8);
    EXPECT_EQ(record->state.history.size(), 2u);
    EXPECT_EQ(record->planYaml, test::examplePlanText());
    EXPECT_EQ(record->updatedAt, m_clock.nowMs());

    // The reopened rollout resumes where it stopped.
    RolloutState resumed = record->state;
    ASSERT_TRUE(m_machine.apply(resumed, Command { Verb::Resume, "bob" }).allowed);
    EXPECT_EQ(resumed.stage, Stage::Canary);

    const std::vector<AuditEntry> audit = store.audit().entries(m_plan.name).value();
    ASSERT_EQ(audit.size(), 3u);
    EXPECT_EQ(audit[0].action, "create");
    EXPECT_EQ(audit[1].action, "start");
    EXPECT_EQ(audit[1].result, "Baseline -> Canary");
    EXPECT_EQ(audit[1].details["mutations"].size(), 5u);
    EXPECT_EQ(audit[2].result, "Canary -> Paused");
    EXPECT_TRUE(store.audit().verify().value().intact);
}

TEST_F(RolloutStoreTest, RefusedVerbsAreAuditedAndChangeNothing)
{
    StateDb state = open();
    RolloutStore store(state);
    RolloutState rollout = m_machine.initialState();
    ASSERT_TRUE(store.create(rollout, "plan", "alice", 1).has_value());
    const Decision refused
        = store.execute(m_machine, rollout, Command { Verb::Promote, "mallory" }, 2).value();
    EXPECT_FALSE(refused.allowed);
    EXPECT_EQ(store.load(m_plan.name).value()->state.stage, Stage::Baseline);
    const std::vector<AuditEntry> audit = store.audit().entries().value();
    ASSERT_EQ(audit.size(), 2u);
    EXPECT_EQ(audit[1].actor, "mallory");
    EXPECT_EQ(audit[1].result, "refused: nothing to promote to from Baseline");
}

TEST_F(RolloutStoreTest, OneRolloutPerWorkloadAtATime)
{
    StateDb state = open();
    RolloutStore store(state);
    RolloutState first = m_machine.initialState();
    ASSERT_TRUE(store.create(first, "plan", "alice", 1).has_value());

    RolloutState other = first;
    other.id = "another-plan";
    const Result<void> conflict = store.create(other, "plan", "alice", 2);
    ASSERT_FALSE(conflict.has_value());
    EXPECT_EQ(conflict.error().code, Error::Code::Conflict);
    EXPECT_TRUE(conflict.error().message.contains(QStringLiteral("one rollout per workload")));
    EXPECT_FALSE(store.create(first, "plan", "alice", 2).has_value())
        << "the same id while it runs";

    ASSERT_TRUE(
        store.execute(m_machine, first, Command { Verb::Abort, "alice" }, 3).value().allowed);
    EXPECT_TRUE(store.create(other, "plan", "alice", 4).has_value())
        << "an aborted rollout no longer holds the workload";
    EXPECT_EQ(store.list().value().size(), 2u);
}

TEST_F(RolloutStoreTest, RejectedVariantsAreRemembered)
{
    StateDb state = open();
    RolloutStore store(state);
    RolloutState rollout = m_machine.initialState();
    ASSERT_TRUE(store.create(rollout, "plan", "alice", 1).has_value());
    EXPECT_FALSE(store.rejection(m_plan.workloadKey(), m_plan.variant.name).value());
    ASSERT_TRUE(store
                    .execute(m_machine, rollout,
                        Command { Verb::Reject, "alice", "H100 MIG driver too old" }, 2)
                    .value()
                    .allowed);
    const std::optional<RejectedVariant> rejected
        = store.rejection(m_plan.workloadKey(), m_plan.variant.name).value();
    ASSERT_TRUE(rejected);
    EXPECT_EQ(rejected->rollout, m_plan.name);
    EXPECT_EQ(rejected->reason, "H100 MIG driver too old");
}

TEST_F(RolloutStoreTest, ReadOnlyStateFileRefusesWrites)
{
    {
        open();
    }
    StateDb state = open(OpenMode::ReadOnly);
    RolloutStore store(state);
    EXPECT_FALSE(store.create(m_machine.initialState(), "plan", "alice", 1).has_value());
}
