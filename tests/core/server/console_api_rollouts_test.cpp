// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The web console's rollout pages through the server: the list and the detail from the state
// file (the same JSON `dractl rollout status -o json` prints), a rollout started with its plan and
// driven by the controller the server hosts (on the in-memory cluster of the rollout tests),
// verbs refused with the reason or carried out and audited with the caller and the reason.
#include "core/server/console_api_rollouts.h"

#include <memory>

#include <QDateTime>
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/rollout/controller_inbox.h"
#include "core/rollout/rollout_host.h"
#include "core/rollout/rollout_store.h"
#include "core/rollout/state_writer.h"
#include "core/server/api_server.h"
#include "core/server/console_api.h"
#include "core/server/http_server.h"
#include "tests/support/api_test_support.h"
#include "tests/support/fake_cluster.h"
#include "tests/support/rollout_fixtures.h"

namespace dra::server {
namespace {

using nlohmann::json;
using test::Reply;

constexpr const char *kRolloutsToken = "s3cret";
// The example plan's rollout.
constexpr const char *kRolloutId = "llm-server-to-dra";

class ConsoleApiRolloutsTest : public testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        const QString cache = m_dir.filePath(QStringLiteral("cache.db"));
        Result<store::CacheDb> writer = store::CacheDb::open(cache, store::OpenMode::ReadWrite);
        ASSERT_TRUE(writer.has_value()) << writer.error().message.toStdString();
        m_writer = std::make_unique<store::CacheDb>(std::move(*writer));
        Result<store::CacheDb> reader = store::CacheDb::open(cache, store::OpenMode::ReadOnly);
        ASSERT_TRUE(reader.has_value()) << reader.error().message.toStdString();
        m_reader = std::make_unique<store::CacheDb>(std::move(*reader));
        ApiServerOptions options;
        options.cluster = "test";
        options.token = kRolloutsToken;
        m_api = std::make_unique<ApiServer>(*m_reader, options);
        m_http = std::make_unique<HttpServer>(m_api->handler());
        ASSERT_TRUE(m_http->listen(QHostAddress::LocalHost, 0).has_value());
        m_cluster.seedExampleWorld();
    }

    // The server hosts rollout controllers on the in-memory cluster (as `dractl serve --demo`
    // hosts them on its demo cluster).
    void hostControllers()
    {
        rollout::RolloutHostOptions options;
        options.controller.tickMs = 200;
        options.scanMs = 100;
        rollout::test::FakeCluster *cluster = &m_cluster;
        m_host = std::make_unique<rollout::RolloutHost>(
            statePath(),
            [cluster]() -> Result<rollout::HostedCluster> {
                return rollout::HostedCluster { nullptr, cluster };
            },
            common::Clock::system(), options);
        m_host->start();
        m_api->consoleApi().rollouts().configure(statePath(), m_host.get());
    }

    QString statePath() const { return m_dir.filePath(QStringLiteral("state.db")); }

    Reply call(const std::string &method, const std::string &path, const std::string &body = {})
    {
        return test::exchange(m_http->port(),
            test::httpRequest(method, "/console/v1/" + path, kRolloutsToken, body, "text/plain"));
    }

    // GETs rollouts/ID until its stage is `stage` (the hosted controller moves it).
    // The example plan with a drain window of a second: its rollbacks end within the waits.
    static std::string quickRollbackPlanText()
    {
        std::string text = rollout::test::examplePlanText();
        const std::string drain = "drainWindow: 30s";
        EXPECT_NE(text.find(drain), std::string::npos);
        if (const size_t at = text.find(drain); at != std::string::npos)
            text.replace(at, drain.size(), "drainWindow: 1s");
        return text;
    }

    json waitForStage(const std::string &stage)
    {
        json detail;
        test::spinUntil(
            [&] {
                detail = call("GET", std::string("rollouts/") + kRolloutId).body;
                return detail.value("stage", "") == stage;
            },
            20'000);
        EXPECT_EQ(detail.value("stage", ""), stage) << detail.dump(1);
        return detail;
    }

    // A rollout started from its plan, as the page's "Start from plan…" starts it, at Canary.
    void startExampleRollout()
    {
        hostControllers();
        const Reply started = call("POST", "rollouts", quickRollbackPlanText());
        ASSERT_EQ(started.status, 201) << started.text;
        EXPECT_EQ(started.body["rollout"], kRolloutId);
        EXPECT_EQ(started.body["preflight"]["verdict"], "Passed") << started.text;
        waitForStage("Canary");
    }

    // `dractl ARGS --state FILE` and its output as JSON.
    json dractl(const QStringList &arguments)
    {
        QProcess process;
        process.start(QStringLiteral(DRA_DRACTL),
            arguments + QStringList { QStringLiteral("--state"), statePath() });
        // The event loop keeps turning meanwhile: the hosted controller may hold the state file.
        test::spinUntil([&] { return process.state() == QProcess::NotRunning; }, 60'000);
        EXPECT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
        return json::parse(process.readAllStandardOutput().toStdString(), nullptr, false);
    }

    QTemporaryDir m_dir;
    std::unique_ptr<store::CacheDb> m_writer, m_reader;
    std::unique_ptr<ApiServer> m_api;
    std::unique_ptr<HttpServer> m_http;
    rollout::test::FakeCluster m_cluster;
    std::unique_ptr<rollout::RolloutHost> m_host;
};

TEST_F(ConsoleApiRolloutsTest, NoStateFileMeansNoRolloutsAndAnUnknownNameIsNotFound)
{
    m_api->consoleApi().rollouts().configure(statePath(), nullptr);
    const Reply list = call("GET", "rollouts");
    ASSERT_EQ(list.status, 200) << list.text;
    EXPECT_EQ(list.body["rollouts"], json::array());
    EXPECT_EQ(list.body["runsControllers"], false);
    const Reply missing = call("GET", "rollouts/nope");
    EXPECT_EQ(missing.status, 404);
    EXPECT_NE(missing.body["error"]["message"].get<std::string>().find("nope"), std::string::npos);
    const Reply start = call("POST", "rollouts", quickRollbackPlanText());
    EXPECT_EQ(start.status, 409) << "a server without controllers cannot start one";
}

TEST_F(ConsoleApiRolloutsTest, AStartedRolloutShowsItsTimelineGatesVerbsAndVerifiedAudit)
{
    startExampleRollout();
    const Reply list = call("GET", "rollouts");
    ASSERT_EQ(list.status, 200);
    ASSERT_EQ(list.body["rollouts"].size(), 1u);
    EXPECT_EQ(list.body["rollouts"][0]["id"], kRolloutId);
    EXPECT_EQ(list.body["runsControllers"], true);
    EXPECT_EQ(list.body["rollouts"][0]["controller"]["lease"], "live") << "driven by this server";

    const Reply detail = call("GET", std::string("rollouts/") + kRolloutId);
    ASSERT_EQ(detail.status, 200);
    const json &d = detail.body;
    EXPECT_EQ(d["verbs"], json({ "promote", "pause", "abort", "retry-gate", "reject" }));
    ASSERT_FALSE(d["timeline"].empty());
    EXPECT_EQ(d["timeline"].back()["verb"], "start");
    EXPECT_EQ(d["timeline"].back()["actor"], "admin (web console)");
    EXPECT_TRUE(d["audit"]["verification"]["intact"]);
    EXPECT_EQ(d["audit"]["verification"]["entries"], d["audit"]["entries"].size());
    EXPECT_TRUE(d["drivenHere"]);
    EXPECT_FALSE(d["messages"].empty()) << "the hosted controller's lines";
    EXPECT_EQ(d["plan"]["metadata"]["name"], kRolloutId);
}

TEST_F(ConsoleApiRolloutsTest, VerbsTheMachineDoesNotAllowAreRefusedWithTheReason)
{
    startExampleRollout();
    const Reply finalise = call("POST", std::string("rollouts/") + kRolloutId + "/finalise", "{}");
    EXPECT_EQ(finalise.status, 409);
    const std::string message = finalise.body["error"]["message"];
    EXPECT_NE(message.find("not possible while"), std::string::npos) << message;
    EXPECT_NE(message.find("Canary"), std::string::npos) << message;
    EXPECT_EQ(
        call("GET", std::string("rollouts/") + kRolloutId).body["pendingVerbs"], json::array())
        << "a refused verb is not queued";

    EXPECT_EQ(
        call("POST", std::string("rollouts/") + kRolloutId + "/pause", "not json").status, 400);
    EXPECT_EQ(call("POST", std::string("rollouts/") + kRolloutId + "/fly", "{}").status, 404);
    EXPECT_EQ(call("POST", "rollouts/nope/pause", "{}").status, 404);
    // Promotion before the window has run: the controller refuses it, as the audit log says.
    const Reply early = call("POST", std::string("rollouts/") + kRolloutId + "/promote", "{}");
    EXPECT_EQ(early.status, 409) << early.text;
    EXPECT_NE(early.body["error"]["message"].get<std::string>().find("refused"), std::string::npos);
}

TEST_F(ConsoleApiRolloutsTest, AVerbIsCarriedOutAndAuditedWithTheCallerAndTheReason)
{
    startExampleRollout();
    const Reply paused = call("POST", std::string("rollouts/") + kRolloutId + "/pause",
        json { { "reason", "latency looks odd" } }.dump());
    ASSERT_EQ(paused.status, 200) << paused.text;
    EXPECT_EQ(paused.body["result"], "Canary -> Paused");
    const json detail = waitForStage("Paused");
    EXPECT_EQ(detail["verbs"], json({ "resume", "abort", "retry-gate", "reject" }));
    const json &pause = detail["audit"]["entries"].back();
    bool audited = false;
    for (const json &entry : detail["audit"]["entries"])
        if (entry["action"] == "pause") {
            audited = true;
            EXPECT_EQ(entry["actor"], "admin (web console)");
            EXPECT_EQ(entry["details"]["reason"], "latency looks odd");
            EXPECT_EQ(entry["result"], "Canary -> Paused");
        }
    EXPECT_TRUE(audited) << pause.dump(1);
    EXPECT_TRUE(detail["audit"]["verification"]["intact"]);

    // Abort / roll back: the baseline's replicas are back and the canary is gone.
    const Reply aborted = call("POST", std::string("rollouts/") + kRolloutId + "/abort",
        json { { "reason", "test over" } }.dump());
    ASSERT_EQ(aborted.status, 200) << aborted.text;
    waitForStage("RolledBack");
    const std::optional<json> baseline
        = m_cluster.object(model::Kind::Deployment, "inference", "llm-server");
    ASSERT_TRUE(baseline.has_value());
    EXPECT_EQ((*baseline)["spec"]["replicas"],
        call("GET", std::string("rollouts/") + kRolloutId).body["baselineReplicas"]);
}

TEST_F(ConsoleApiRolloutsTest, ARolloutAnotherControllerDrivesIsFollowedNotDriven)
{
    // A `dractl rollout run` on another host holds the lease of a rollout whose start waits.
    const rollout::RolloutPlan plan = rollout::test::examplePlan();
    const int64_t now = QDateTime::currentMSecsSinceEpoch();
    {
        Result<store::StateDb> db = rollout::openStateWriter(statePath());
        ASSERT_TRUE(db.has_value()) << db.error().message.toStdString();
        const rollout::RolloutMachine machine(plan, common::Clock::system());
        ASSERT_TRUE(
            rollout::RolloutStore(*db)
                .create(machine.initialState(), rollout::test::examplePlanText(), "bob", now)
                .has_value());
        rollout::ControllerInbox inbox(*db);
        ASSERT_TRUE(inbox.enqueue(kRolloutId, { rollout::Verb::Start, "bob" }, now).has_value());
        ASSERT_TRUE(
            inbox.heartbeat(kRolloutId, "bob on elsewhere (pid 4242)", 4242, now, now).has_value());
    }
    hostControllers();
    test::spinUntil([] { return false; }, 1'000); // several scans of the host
    EXPECT_FALSE(m_host->drives(kRolloutId));
    const json detail = call("GET", std::string("rollouts/") + kRolloutId).body;
    EXPECT_EQ(detail["stage"], "Baseline") << "the start waits for bob's controller";
    EXPECT_EQ(detail["controller"]["owner"], "bob on elsewhere (pid 4242)");
    EXPECT_EQ(detail["controller"]["lease"], "live");
    EXPECT_EQ(detail["pendingVerbs"].size(), 1u);
    EXPECT_FALSE(detail["drivenHere"]);
}

TEST_F(ConsoleApiRolloutsTest, ThePagesShowWhatDractlRolloutStatusPrints)
{
    startExampleRollout();
    ASSERT_EQ(call("POST", std::string("rollouts/") + kRolloutId + "/abort", "{}").status, 200);
    waitForStage("RolledBack");
    // Settled: the controller stopped and its lease went, so nothing moves under the comparison.
    test::spinUntil([&] { return !m_host->drives(kRolloutId); }, 10'000);

    const json detail = call("GET", std::string("rollouts/") + kRolloutId).body;
    const json status = dractl({ QStringLiteral("rollout"), QStringLiteral("status"),
        QString::fromLatin1(kRolloutId), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_TRUE(status.is_object());
    for (const auto &[key, value] : status.items())
        EXPECT_EQ(detail[key], value) << key;

    const json list = call("GET", "rollouts").body;
    const json listed = dractl({ QStringLiteral("rollout"), QStringLiteral("status"),
        QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(list["rollouts"], listed["rollouts"]);

    // The console-api twin: the same document, less what only a hosting server knows.
    json twin = dractl({ QStringLiteral("console-api"),
        QStringLiteral("rollouts/") + QString::fromLatin1(kRolloutId) });
    json page = detail;
    for (const char *hostOnly : { "messages", "drivenHere", "runsControllers" }) {
        page.erase(hostOnly);
        twin.erase(hostOnly);
    }
    EXPECT_EQ(page, twin);
}

} // namespace
} // namespace dra::server
