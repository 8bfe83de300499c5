// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/governance.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/rollout/rollout_store.h"
#include "core/store/state_db.h"
#include "tests/support/rollout_fixtures.h"

using namespace dra::rollout;

namespace dra::rollout::governance_test {

// Tuesday 2026-12-08 in UTC; Berlin is an hour ahead in winter.
constexpr int64_t kTue2059Utc = 1'796'763'540'000;
constexpr int64_t kTue2100Utc = 1'796'763'600'000;
constexpr int64_t kWed0030Utc = 1'796'776'200'000;
constexpr int64_t kWed0100Utc = 1'796'778'000'000;
constexpr int64_t kThu2100Utc = 1'796'936'400'000;
constexpr int64_t kJulyTue2000Utc = 1'784'059'200'000; // 22:00 in Berlin's summer time
constexpr int64_t kOneMinuteMs = 60'000;

std::string governedPlanText(const std::string &fields)
{
    return test::examplePlanText() + fields;
}

RolloutPlan governedPlan(const std::string &fields)
{
    const PlanParse parsed = parsePlan(governedPlanText(fields));
    EXPECT_TRUE(parsed.plan) << parsed.errorText(QStringLiteral("plan")).toStdString();
    return parsed.plan.value_or(RolloutPlan {});
}

const std::string kBerlinWindow = "  owner: ml-platform\n"
                                  "  maintenanceWindow:\n"
                                  "    days: [Tue, thursday]\n"
                                  "    start: \"22:00\"\n"
                                  "    duration: 4h\n"
                                  "    timeZone: Europe/Berlin\n";

bool berlinKnown()
{
    return isKnownTimeZone("Europe/Berlin");
}

class GovernedMachineTest : public testing::Test
{
protected:
    explicit GovernedMachineTest(const std::string &fields, int64_t now)
        : m_clock(now)
        , m_plan(governedPlan(fields))
        , m_machine(m_plan, m_clock)
        , m_state(m_machine.initialState())
    {
    }

    Decision give(Verb verb, std::string actor, std::string reason = {}, bool force = false)
    {
        Command command { verb, std::move(actor), std::move(reason) };
        command.force = force;
        if (verb == Verb::Start) {
            command.baselineReplicas = 4;
            command.evidence = { test::passedGate(GateKind::Baseline) };
        }
        if (verb == Verb::Promote)
            for (GateKind gate : m_machine.gatesToLeave(m_state.stage))
                command.evidence.push_back(test::passedGate(gate));
        return m_machine.apply(m_state, command);
    }

    common::ManualClock m_clock;
    RolloutPlan m_plan;
    RolloutMachine m_machine;
    RolloutState m_state;
};

class WindowTest : public GovernedMachineTest
{
protected:
    WindowTest()
        : GovernedMachineTest(kBerlinWindow, kTue2100Utc)
    {
    }
    void SetUp() override
    {
        if (!berlinKnown())
            GTEST_SKIP() << "this machine has no zone data for Europe/Berlin (install tzdata)";
    }
};

class ApprovalTest : public GovernedMachineTest
{
protected:
    ApprovalTest()
        : GovernedMachineTest("  approvals: 2\n", kTue2100Utc)
    {
    }
};

} // namespace dra::rollout::governance_test

using namespace dra::rollout::governance_test;

TEST(MaintenanceWindowTest, OpensOnItsDaysAtItsLocalTime)
{
    if (!berlinKnown())
        GTEST_SKIP() << "this machine has no zone data for Europe/Berlin (install tzdata)";
    const MaintenanceWindow window = *governedPlan(kBerlinWindow).maintenanceWindow;
    EXPECT_EQ(window.days, (std::vector<int> { 2, 4 }));
    EXPECT_EQ(windowText(window), "Tue, Thu 22:00 for 4h (Europe/Berlin)");

    const WindowState before = windowStateAt(window, kTue2059Utc);
    EXPECT_FALSE(before.open);
    EXPECT_EQ(before.opensAt, kTue2100Utc);
    EXPECT_EQ(localTimeText(before.opensAt, window.timeZone), "Tue 2026-12-08 22:00 CET");

    const WindowState open = windowStateAt(window, kTue2100Utc);
    EXPECT_TRUE(open.open);
    EXPECT_EQ(open.closesAt, kWed0100Utc);
    // After local midnight the window that opened on Tuesday is still open on Wednesday.
    EXPECT_TRUE(windowStateAt(window, kWed0030Utc).open);

    const WindowState after = windowStateAt(window, kWed0100Utc);
    EXPECT_FALSE(after.open);
    EXPECT_EQ(after.opensAt, kThu2100Utc);
    // In summer the same local time is an hour earlier in UTC.
    EXPECT_TRUE(windowStateAt(window, kJulyTue2000Utc).open);
    EXPECT_FALSE(windowStateAt(window, kJulyTue2000Utc - kOneMinuteMs).open);
}

TEST(MaintenanceWindowTest, PlansSayWhatIsWrongWithAWindow)
{
    const PlanParse parsed = parsePlan(governedPlanText("  approvals: 3\n"
                                                        "  maintenanceWindow:\n"
                                                        "    days: [Tue, Someday]\n"
                                                        "    start: \"25:00\"\n"
                                                        "    duration: 200h\n"
                                                        "    timeZone: Mars/Olympus_Mons\n"));
    ASSERT_FALSE(parsed.plan);
    const std::string text = parsed.errorText(QStringLiteral("plan.yaml")).toStdString();
    EXPECT_NE(text.find("spec.approvals: must be between 1 and 2"), std::string::npos) << text;
    EXPECT_NE(text.find("spec.maintenanceWindow.days[1]: \"Someday\" is not a weekday"),
        std::string::npos)
        << text;
    EXPECT_NE(
        text.find("spec.maintenanceWindow.start: must be a local time as HH:MM"), std::string::npos)
        << text;
    EXPECT_NE(
        text.find("spec.maintenanceWindow.duration: must be at most 7 days"), std::string::npos)
        << text;
    EXPECT_NE(text.find("spec.maintenanceWindow.timeZone: \"Mars/Olympus_Mons\" is not an IANA"),
        std::string::npos)
        << text;
    // Each error has its line.
    EXPECT_NE(text.find("plan.yaml:"), std::string::npos);
}

TEST(MaintenanceWindowTest, ThePlanAsJsonKeepsTheFieldsAndPlansWithoutThemStayValid)
{
    if (!berlinKnown())
        GTEST_SKIP() << "this machine has no zone data for Europe/Berlin (install tzdata)";
    const RolloutPlan plan = governedPlan(kBerlinWindow + "  approvals: 2\n");
    const nlohmann::json spec = planJson(plan)["spec"];
    EXPECT_EQ(spec["owner"], "ml-platform");
    EXPECT_EQ(spec["approvals"], 2);
    EXPECT_EQ(spec["maintenanceWindow"],
        (nlohmann::json { { "days", { "Tue", "Thu" } }, { "start", "22:00" }, { "duration", "4h" },
            { "timeZone", "Europe/Berlin" } }));
    // The JSON is itself a plan that reads back the same.
    const PlanParse again = parsePlan(planJson(plan).dump());
    ASSERT_TRUE(again.plan) << again.errorText(QStringLiteral("json")).toStdString();
    EXPECT_EQ(again.plan->maintenanceWindow->days, plan.maintenanceWindow->days);
    EXPECT_EQ(again.plan->approvals, 2);
    EXPECT_NE(
        planSummary(plan).find("maintenance window: Tue, Thu 22:00 for 4h"), std::string::npos);

    const RolloutPlan plain = test::examplePlan();
    EXPECT_FALSE(plain.maintenanceWindow);
    EXPECT_EQ(plain.approvals, 1);
    EXPECT_FALSE(planJson(plain)["spec"].contains("maintenanceWindow"));
}

TEST_F(WindowTest, OutsideTheWindowAVerbNeedsAForceAndAReason)
{
    ASSERT_TRUE(give(Verb::Start, "alice").allowed); // 22:00 in Berlin: open
    m_clock.advance(m_machine.windowRemaining(m_state));
    m_clock.advance(kWed0100Utc - m_clock.nowMs()); // 02:00 in Berlin: closed

    const Decision refused = give(Verb::Promote, "alice");
    ASSERT_FALSE(refused.allowed);
    EXPECT_EQ(refused.refusal,
        "inside the maintenance window, Tue, Thu 22:00 for 4h (Europe/Berlin) (closed, it opens "
        "Thu 2026-12-10 22:00 CET; outside it give --force and a reason)");
    EXPECT_EQ(m_state.stage, Stage::Canary);

    const Decision noReason = give(Verb::Promote, "alice", "", true);
    ASSERT_FALSE(noReason.allowed);
    EXPECT_NE(noReason.refusal.find("forcing it needs a reason"), std::string::npos);

    const Decision forced = give(Verb::Promote, "alice", "customer outage needs capacity", true);
    ASSERT_TRUE(forced.allowed) << forced.refusal;
    EXPECT_EQ(m_state.stage, Stage::Shadow);
    EXPECT_NE(m_state.history.back().note.find(
                  "forced outside the window by alice (it opens Thu 2026-12-10 22:00 CET): "
                  "customer outage needs capacity"),
        std::string::npos)
        << m_state.history.back().note;

    // Stopping is never bound to the window.
    EXPECT_TRUE(give(Verb::Pause, "alice").allowed);
    EXPECT_TRUE(give(Verb::Abort, "alice").allowed);
    EXPECT_EQ(m_state.stage, Stage::RollingBack);
}

TEST_F(WindowTest, TheControllerNeverForcesAnAutoPromotion)
{
    ASSERT_TRUE(give(Verb::Start, "alice").allowed);
    m_clock.advance(kWed0100Utc - m_clock.nowMs());
    EXPECT_FALSE(give(Verb::Promote, "controller (auto-promote)").allowed);
    const std::vector<GovernanceFact> facts = governanceFacts(m_plan, m_state, m_clock.nowMs());
    ASSERT_EQ(facts.size(), 2u);
    EXPECT_EQ(facts[0].text, "ml-platform");
    EXPECT_EQ(facts[1].label, "window");
    EXPECT_EQ(facts[1].text,
        "Tue, Thu 22:00 for 4h (Europe/Berlin): closed, opens Thu 2026-12-10 22:00 CET");
}

TEST_F(ApprovalTest, PromotionAndFinaliseNeedASecondPerson)
{
    ASSERT_TRUE(give(Verb::Start, "alice (web console)").allowed);
    m_clock.advance(m_machine.windowRemaining(m_state));

    const Decision self = give(Verb::Promote, "alice");
    ASSERT_FALSE(self.allowed);
    EXPECT_EQ(self.refusal,
        "a second person approves (approvals: 2) (alice started the rollout; another person must "
        "approve)");
    EXPECT_FALSE(give(Verb::Promote, "controller (auto-promote)").allowed);

    const Decision second = give(Verb::Promote, "bob (web console)");
    ASSERT_TRUE(second.allowed) << second.refusal;
    EXPECT_NE(
        m_state.history.back().note.find("started by alice, approved by bob"), std::string::npos)
        << m_state.history.back().note;
    // Pausing and aborting need nobody else.
    EXPECT_TRUE(give(Verb::Pause, "alice").allowed);
    EXPECT_TRUE(give(Verb::Resume, "alice").allowed);
}

TEST_F(ApprovalTest, TheAuditLogNamesBothPeople)
{
    QTemporaryDir dir;
    dra::Result<dra::store::StateDb> db = dra::store::StateDb::open(
        dir.filePath(QStringLiteral("state.db")), dra::store::OpenMode::ReadWrite);
    ASSERT_TRUE(db) << db.error().message.toStdString();
    RolloutStore store(*db);
    ASSERT_TRUE(store.create(m_state, governedPlanText("  approvals: 2\n"), "alice", 1));
    Command start { Verb::Start, "alice" };
    start.baselineReplicas = 4;
    start.evidence = { test::passedGate(GateKind::Baseline) };
    ASSERT_TRUE(store.execute(m_machine, m_state, start, 2).value().allowed);
    m_clock.advance(m_machine.windowRemaining(m_state));
    Command promote { Verb::Promote, "bob" };
    for (GateKind gate : m_machine.gatesToLeave(m_state.stage))
        promote.evidence.push_back(test::passedGate(gate));
    ASSERT_TRUE(store.execute(m_machine, m_state, promote, 3).value().allowed);

    const std::vector<AuditEntry> audit = store.audit().entries(m_plan.name).value();
    ASSERT_EQ(audit.size(), 3u);
    EXPECT_EQ(audit[2].actor, "bob");
    bool named = false;
    for (const nlohmann::json &r : audit[2].details["requirements"])
        named = named || r["detail"] == "started by alice, approved by bob";
    EXPECT_TRUE(named) << audit[2].details.dump();
}
