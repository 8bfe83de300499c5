// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Whole rollouts on the demo cluster, as the README walks through them: `dractl serve --demo`
// with its control plane (pods scheduled, claims allocated, devices published, pods answering
// HTTP), driven by `dractl rollout start` / `run --auto-promote` with the demo plan. One demo
// server per test, since each rollout changes the cluster.
#include <map>
#include <optional>
#include <set>

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/kube/apply_diff.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/rest_client.h"
#include "core/rollout/kube_cluster.h"
#include "tests/support/demo_server.h"
#include "tests/support/dractl_run.h"

using dra::model::Kind;
using nlohmann::json;

namespace {

constexpr const char *kDemoPlanName = "demo-llm-server";

class RolloutDemoTest : public testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        dra::test::ignoreOpenSslThreadLeaks(m_dir.path());
        m_server.emplace(m_dir.path());
        ASSERT_TRUE(m_server->waitUntilServing()) << m_server->diagnostics();

        dra::Result<dra::kube::Kubeconfig> config = dra::kube::readKubeconfigFile(kubeconfig());
        ASSERT_TRUE(config.has_value());
        dra::Result<dra::kube::ClientConfig> client = dra::kube::resolveContext(*config, {});
        ASSERT_TRUE(client.has_value()) << client.error().message.toStdString();
        m_rest = std::make_unique<dra::kube::RestClient>(*client);
        m_cluster = std::make_unique<dra::rollout::KubeCluster>(*m_rest);
    }

    QString kubeconfig() const { return m_server->kubeconfig(); }
    QString statePath() const { return m_dir.filePath(QStringLiteral("state.db")); }
    QStringList clusterArguments() const
    {
        return { QStringLiteral("--kubeconfig"), kubeconfig(), QStringLiteral("--state"),
            statePath() };
    }
    static QString demoPlan()
    {
        return QStringLiteral(DRA_SOURCE_DIR "/resources/rollouts/demo-llm-server.yaml");
    }

    dra::test::DractlRun rollout(const QStringList &arguments, int timeoutMs = 120'000)
    {
        return dra::test::dractl(
            QStringList { QStringLiteral("rollout") } + arguments + clusterArguments(), timeoutMs);
    }

    // A rollout command that reads only the state file (audit, report).
    dra::test::DractlRun fromStateFile(const QStringList &arguments)
    {
        return dra::test::dractl(QStringList { QStringLiteral("rollout") } + arguments
                + QStringList { QStringLiteral("--state"), statePath() },
            60'000);
    }

    // Every object of `kind` in namespace inference, by name, as comparableObject() sees it.
    std::map<std::string, json> objects(Kind kind)
    {
        std::optional<dra::Result<std::vector<json>>> answer;
        m_cluster->list(kind, "inference", "", &m_context,
            [&](dra::Result<std::vector<json>> got) { answer = std::move(got); });
        QElapsedTimer waited;
        waited.start();
        while (!answer && waited.elapsed() < 30'000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        std::map<std::string, json> byName;
        if (!answer || !*answer) {
            ADD_FAILURE() << "cannot list " << dra::model::kindInfo(kind).plural << ": "
                          << (answer ? answer->error().message.toStdString() : "no answer");
            return byName;
        }
        for (const json &object : **answer)
            byName[object["metadata"]["name"].get<std::string>()]
                = dra::kube::comparableObject(object);
        return byName;
    }

    // What a rollback must give back: the workload objects of the namespace, object by object.
    // Pods are compared by name (a restored baseline keeps its pods), claims with their status.
    std::map<std::string, std::map<std::string, json>> workloadSnapshot()
    {
        std::map<std::string, std::map<std::string, json>> snapshot;
        for (Kind kind : { Kind::Deployment, Kind::ReplicaSet, Kind::Service, Kind::HTTPRoute,
                 Kind::ResourceClaimTemplate, Kind::ResourceClaim })
            snapshot[std::string(dra::model::kindInfo(kind).plural)] = objects(kind);
        std::map<std::string, json> pods;
        for (const auto &[name, pod] : objects(Kind::Pod))
            pods[name] = pod.value("spec", json::object()).value("nodeName", "");
        snapshot["pods"] = pods;
        return snapshot;
    }

    // Injects a demo fault of `kind` into the canary's pods.
    void addCanaryFault(const QString &kind)
    {
        const dra::test::DractlRun fault = dra::test::dractl(
            { QStringLiteral("sandbox"), QStringLiteral("fault"), QStringLiteral("add"), kind,
                QStringLiteral("--deployment"), QStringLiteral("llm-server-dra"),
                QStringLiteral("-n"), QStringLiteral("inference"), QStringLiteral("--kubeconfig"),
                kubeconfig() },
            60'000);
        ASSERT_EQ(fault.exitCode, 0) << fault.out << fault.err;
    }

    // The demo plan with its text `from` changed to `to`, written to a file of the test.
    QString demoPlanWith(const std::string &from, const std::string &to)
    {
        QFile file(demoPlan());
        if (!file.open(QIODevice::ReadOnly)) {
            ADD_FAILURE() << "cannot read " << demoPlan().toStdString();
            return {};
        }
        std::string plan = file.readAll().toStdString();
        const size_t at = plan.find(from);
        if (at == std::string::npos) {
            ADD_FAILURE() << "the demo plan no longer holds:\n" << from;
            return {};
        }
        plan.replace(at, from.size(), to);
        return dra::test::writeTestFile(m_dir.filePath(QStringLiteral("plan.yaml")), plan);
    }

    // After a rollback: the namespace object by object as `before`, and the audit chain intact.
    void expectBaselineRestored(const std::map<std::string, std::map<std::string, json>> &before)
    {
        const auto after = workloadSnapshot();
        for (const auto &[resource, objectsBefore] : before)
            EXPECT_EQ(after.at(resource), objectsBefore)
                << resource << " differ after the rollback";
        const dra::test::DractlRun audit
            = fromStateFile({ QStringLiteral("audit"), QStringLiteral("--verify") });
        EXPECT_EQ(audit.exitCode, 0) << audit.out << audit.err;
    }

    QTemporaryDir m_dir;
    std::optional<dra::test::DemoServer> m_server;
    std::unique_ptr<dra::kube::RestClient> m_rest;
    std::unique_ptr<dra::rollout::KubeCluster> m_cluster;
    QObject m_context;
};

TEST_F(RolloutDemoTest, AutoPromotedRolloutReachesCompleteWithEveryActionAudited)
{
    const dra::test::DractlRun start = rollout({ QStringLiteral("start"), demoPlan() });
    ASSERT_EQ(start.exitCode, 0) << start.out << start.err;
    EXPECT_NE(start.out.find("start: Baseline -> Canary"), std::string::npos) << start.out;

    const dra::test::DractlRun run = rollout(
        { QStringLiteral("run"), QString::fromLatin1(kDemoPlanName),
            QStringLiteral("--auto-promote"), QStringLiteral("--interval"), QStringLiteral("500ms"),
            QStringLiteral("--until"), QStringLiteral("Complete,Paused") },
        400'000);
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    ASSERT_NE(run.out.find("Rollout demo-llm-server is Complete"), std::string::npos) << run.out;
    // Every gate the canary needed was decided by the demo's evidence, not assumed.
    for (const char *gate : { "api gate Passed", "node gate Passed", "application gate Passed",
             "negative-control gate Passed" })
        EXPECT_NE(run.out.find(gate), std::string::npos) << gate << "\n" << run.out;

    // Complete: the canary serves everything on DRA devices, the baseline is at zero but kept.
    const std::map<std::string, json> deployments = objects(Kind::Deployment);
    ASSERT_TRUE(deployments.contains("llm-server-dra"));
    ASSERT_TRUE(deployments.contains("llm-server")) << "the baseline stays until finalise";
    EXPECT_EQ(deployments.at("llm-server")["spec"]["replicas"], 0);
    const json &canary = deployments.at("llm-server-dra");
    EXPECT_EQ(canary["spec"]["replicas"], 3);
    int claimed = 0;
    for (const auto &[name, claim] : objects(Kind::ResourceClaim)) {
        if (!name.starts_with("llm-server-dra-"))
            continue;
        ++claimed;
        EXPECT_TRUE(claim.contains("status") && claim["status"].contains("allocation")) << name;
        EXPECT_EQ(claim["status"]["reservedFor"].size(), 1u) << name;
    }
    EXPECT_EQ(claimed, 3) << "one claim per canary pod";
    const json route = objects(Kind::HTTPRoute).at("llm-server");
    std::map<std::string, int> weights;
    for (const json &backend : route["spec"]["rules"][0]["backendRefs"])
        weights[backend["name"].get<std::string>()] = backend.value("weight", 1);
    EXPECT_EQ(weights["llm-server"], 0);
    EXPECT_EQ(weights["llm-server-dra"], 100);

    const dra::test::DractlRun audit
        = fromStateFile({ QStringLiteral("audit"), QStringLiteral("--verify") });
    EXPECT_EQ(audit.exitCode, 0) << audit.out << audit.err;
    const dra::test::DractlRun report = fromStateFile({ QStringLiteral("report"),
        QString::fromLatin1(kDemoPlanName), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(report.exitCode, 0) << report.err;
    const json bundle = json::parse(report.out, nullptr, false);
    ASSERT_FALSE(bundle.is_discarded()) << report.out;
    EXPECT_EQ(bundle["rollout"]["stage"], "Complete") << report.out;
    // The bundle starts from the cluster as it was before: versions, the baseline and its
    // metrics, the driver's DaemonSet and the UUIDs of the devices.
    const json &facts = bundle["baselineFacts"];
    ASSERT_TRUE(facts.is_object()) << report.out;
    EXPECT_FALSE(facts["versions"]["kubernetes"].get<std::string>().empty());
    // (Its metrics are there once the demo's traffic has two samples in the query's range; the
    // fake cluster's test checks them.)
    EXPECT_EQ(facts["baseline"]["readyReplicas"], 3) << facts["baseline"].dump();
    bool driverDaemonSet = false;
    for (const json &ds : facts["daemonSets"])
        driverDaemonSet = driverDaemonSet
            || ds.value("name", "").find("nvidia-dra-driver-gpu") != std::string::npos;
    EXPECT_TRUE(driverDaemonSet) << facts["daemonSets"].dump();
    ASSERT_FALSE(facts["devices"].empty());
    EXPECT_TRUE(facts["devices"][0].value("uuid", "").starts_with("GPU-"))
        << facts["devices"][0].dump();
    // The node gate's evidence includes the topology of the canary's node, drawn with its claim.
    bool nodePictured = false;
    for (const json &entry : bundle["gateHistory"])
        if (entry["gate"].value("gate", "") == "node" && entry["gate"].contains("pictures"))
            for (const auto &[title, svg] : entry["gate"]["pictures"].items())
                nodePictured = nodePictured
                    || (title.starts_with("node ")
                        && svg.get<std::string>().find("llm-server-dra-") != std::string::npos);
    EXPECT_TRUE(nodePictured) << "no topology picture of the canary's node naming its claim";
    // It looked inside a canary's container through pods/exec: nvidia-smi -L listed exactly the
    // canary's GPU.
    bool lookedInside = false;
    for (const json &entry : bundle["gateHistory"])
        if (entry["gate"].value("gate", "") == "node")
            for (const json &check : entry["gate"].value("checks", json::array()))
                lookedInside = lookedInside
                    || (check.value("name", "") == "container device identity"
                        && check.value("verdict", "") == "Passed"
                        && check.value("evidence", "").find("lists exactly its devices: GPU-")
                            != std::string::npos);
    EXPECT_TRUE(lookedInside) << "no passed container device check in the node gate's evidence";
    // The DRA driver's kubelet plugin on the canary's node was found and Ready.
    bool driverReady = false;
    for (const json &entry : bundle["gateHistory"])
        if (entry["gate"].value("gate", "") == "node")
            for (const json &check : entry["gate"].value("checks", json::array()))
                driverReady = driverReady
                    || (check.value("name", "") == "driver pod Ready"
                        && check.value("verdict", "") == "Passed"
                        && check.value("evidence", "")
                                .find("of DaemonSet "
                                      "gpu-operator/nvidia-dra-driver-gpu-kubelet-plugin")
                            != std::string::npos);
    EXPECT_TRUE(driverReady) << "no passed driver pod check in the node gate's evidence";
    // The application gate judged the canary's mirrored and routed requests, as the demo
    // Prometheus measured them through the service proxy.
    bool measured = false;
    for (const json &entry : bundle["gateHistory"])
        if (entry["gate"].value("gate", "") == "application")
            for (const json &check : entry["gate"].value("checks", json::array()))
                measured = measured
                    || (check.value("name", "") == "error rate"
                        && check.value("verdict", "") == "Passed"
                        && check.value("evidence", "").starts_with("canary error rate 0.00%"));
    EXPECT_TRUE(measured) << "no measured error rate in the application gate's evidence\n"
                          << report.out;
}

// The controller is killed (no clean stop) in the middle of a cutover step's changes; `run`
// started again takes over at once, carries on from the interrupted change and completes.
TEST_F(RolloutDemoTest, ControllerKilledMidCutoverResumesToComplete)
{
    ASSERT_EQ(rollout({ QStringLiteral("start"), demoPlan() }).exitCode, 0);
    QProcess controller;
    controller.start(QStringLiteral(DRACTL_PATH),
        QStringList { QStringLiteral("rollout"), QStringLiteral("run"),
            QString::fromLatin1(kDemoPlanName), QStringLiteral("--auto-promote"),
            QStringLiteral("--interval"), QStringLiteral("500ms") }
            + clusterArguments());
    // The preview line of the second cutover step's route change comes before it is applied.
    const QByteArray midStep
        = "set HTTPRoute inference/llm-server weights baseline 75 / canary 25 ...";
    QByteArray printed;
    QElapsedTimer waited;
    waited.start();
    while (!printed.contains(midStep) && controller.state() != QProcess::NotRunning
        && waited.elapsed() < 200'000) {
        controller.waitForReadyRead(50);
        printed += controller.readAllStandardOutput();
    }
    controller.kill();
    controller.waitForFinished(10'000);
    ASSERT_TRUE(printed.contains(midStep)) << printed.toStdString();

    const dra::test::DractlRun resumed = rollout(
        { QStringLiteral("run"), QString::fromLatin1(kDemoPlanName),
            QStringLiteral("--auto-promote"), QStringLiteral("--interval"), QStringLiteral("500ms"),
            QStringLiteral("--until"), QStringLiteral("Complete,Paused") },
        300'000);
    ASSERT_EQ(resumed.exitCode, 0) << resumed.out << resumed.err;
    EXPECT_EQ(resumed.out.find("already driven"), std::string::npos) << resumed.out;
    ASSERT_NE(resumed.out.find("Rollout demo-llm-server is Complete"), std::string::npos)
        << resumed.out;
    // Nothing before the interrupted step is done again.
    EXPECT_EQ(resumed.out.find("Canary -> Shadow"), std::string::npos) << resumed.out;
    EXPECT_EQ(resumed.out.find("weights baseline 95 / canary 5"), std::string::npos) << resumed.out;

    const std::map<std::string, json> deployments = objects(Kind::Deployment);
    EXPECT_EQ(deployments.at("llm-server")["spec"]["replicas"], 0);
    EXPECT_EQ(deployments.at("llm-server-dra")["spec"]["replicas"], 3);
    const dra::test::DractlRun audit
        = fromStateFile({ QStringLiteral("audit"), QStringLiteral("--verify") });
    EXPECT_EQ(audit.exitCode, 0) << audit.out << audit.err;
}

TEST_F(RolloutDemoTest, DriverFailureAtCanaryPausesAndTheRollbackRestoresTheBaselineExactly)
{
    const auto before = workloadSnapshot();
    ASSERT_TRUE(before.at("deployments").contains("llm-server"));

    addCanaryFault(QStringLiteral("driver-prepare-fails"));
    if (HasFatalFailure())
        return;

    // The demo plan with a short Pending limit: the canary pod never starts, so PendingTooLong
    // pauses the rollout by itself.
    const QString planFile = demoPlanWith(
        "  - type: PendingTooLong\n    after: 60s", "  - type: PendingTooLong\n    after: 3s");
    ASSERT_FALSE(planFile.isEmpty());

    ASSERT_EQ(rollout({ QStringLiteral("start"), planFile }).exitCode, 0);
    const dra::test::DractlRun run = rollout(
        { QStringLiteral("run"), QString::fromLatin1(kDemoPlanName),
            QStringLiteral("--auto-promote"), QStringLiteral("--interval"), QStringLiteral("500ms"),
            QStringLiteral("--until"), QStringLiteral("Paused,Complete") },
        200'000);
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    ASSERT_NE(run.out.find("Rollout demo-llm-server is Paused"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("PendingTooLong"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("FailedPrepareDynamicResources"), std::string::npos)
        << "the node gate names the driver's failure\n"
        << run.out;

    const dra::test::DractlRun abort
        = rollout({ QStringLiteral("abort"), QString::fromLatin1(kDemoPlanName),
            QStringLiteral("--reason"), QStringLiteral("driver fails to prepare") });
    ASSERT_EQ(abort.exitCode, 0) << abort.out << abort.err;
    const dra::test::DractlRun verify
        = rollout({ QStringLiteral("run"), QString::fromLatin1(kDemoPlanName),
                      QStringLiteral("--interval"), QStringLiteral("500ms") },
            200'000);
    ASSERT_EQ(verify.exitCode, 0) << verify.out << verify.err;
    ASSERT_NE(verify.out.find("Rollout demo-llm-server is RolledBack"), std::string::npos)
        << verify.out;

    // Object by object, the namespace is as it was before the start: the canary, its pods, its
    // claims, the template and the negative control are gone; baseline, route and service as
    // before.
    expectBaselineRestored(before);
}

// The canary answers its health checks but fails real requests: only the traffic measured
// through the route shows it. Shadow mirrors requests to the canary, the demo Prometheus counts
// its 500s, and ErrorRateAbove rolls back by itself.
TEST_F(RolloutDemoTest, CanaryFailingMirroredRequestsIsRolledBackByItsErrorRate)
{
    const auto before = workloadSnapshot();
    addCanaryFault(QStringLiteral("http-500"));
    if (HasFatalFailure())
        return;

    // Without the plan's HTTP probe, the canary stage has nothing that sees the 500s; the plan
    // keeps its ErrorRateAbove stop condition.
    const QString planFile = demoPlanWith(
        "      probe:\n        path: /v1/health\n        port: 8000\n      minProbeSuccess: 1.0\n",
        "");
    ASSERT_FALSE(planFile.isEmpty());
    {
        QFile written(planFile);
        ASSERT_TRUE(written.open(QIODevice::ReadOnly));
        ASSERT_TRUE(written.readAll().contains("type: ErrorRateAbove"));
    }

    ASSERT_EQ(rollout({ QStringLiteral("start"), planFile }).exitCode, 0);
    const dra::test::DractlRun run = rollout(
        { QStringLiteral("run"), QString::fromLatin1(kDemoPlanName),
            QStringLiteral("--auto-promote"), QStringLiteral("--interval"), QStringLiteral("500ms"),
            QStringLiteral("--until"), QStringLiteral("RolledBack,Complete") },
        200'000);
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    ASSERT_NE(run.out.find("Rollout demo-llm-server is RolledBack"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("ErrorRateAbove"), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find("Cutover"), std::string::npos)
        << "rolled back from Shadow, before any cutover\n"
        << run.out;
    expectBaselineRestored(before);
}

} // namespace

// A plan with a maintenance window that is closed now and `approvals: 2`: a start is refused
// until forced with a reason, and promotion needs a second person; the audit log keeps both.
TEST_F(RolloutDemoTest, OutsideTheWindowVerbsNeedForceAndPromotionASecondPerson)
{
    const int hour = (QDateTime::currentDateTimeUtc().time().hour() + 12) % 24;
    const QString plan = demoPlanWith("  rollback:\n    drainWindow: 5s\n",
        "  rollback:\n    drainWindow: 5s\n  owner: ml-platform\n  approvals: 2\n"
        "  maintenanceWindow:\n    start: \""
            + QStringLiteral("%1:00").arg(hour, 2, 10, QLatin1Char('0')).toStdString()
            + "\"\n    duration: 1h\n    timeZone: UTC\n");
    ASSERT_FALSE(plan.isEmpty());

    const dra::test::DractlRun closed = rollout({ QStringLiteral("start"), plan });
    EXPECT_NE(closed.exitCode, 0);
    EXPECT_NE(closed.err.find("closed, it opens"), std::string::npos) << closed.out << closed.err;
    const dra::test::DractlRun noReason
        = rollout({ QStringLiteral("start"), plan, QStringLiteral("--force") });
    EXPECT_EQ(noReason.exitCode, 2);
    EXPECT_NE(noReason.err.find("--force needs --reason"), std::string::npos) << noReason.err;

    const dra::test::DractlRun forced = rollout({ QStringLiteral("start"), plan,
        QStringLiteral("--force"), QStringLiteral("--reason"), QStringLiteral("INC-7: hotfix") });
    ASSERT_EQ(forced.exitCode, 0) << forced.out << forced.err;
    EXPECT_NE(forced.out.find("Baseline -> Canary"), std::string::npos) << forced.out;

    const QStringList promote { QStringLiteral("promote"), QString::fromLatin1(kDemoPlanName),
        QStringLiteral("--force"), QStringLiteral("--reason"), QStringLiteral("looks good") };
    const dra::test::DractlRun self = rollout(promote);
    EXPECT_NE(self.exitCode, 0);
    EXPECT_NE((self.out + self.err).find("started the rollout; another person must approve"),
        std::string::npos)
        << self.out << self.err;

    const QByteArray user = qgetenv("USER");
    qputenv("USER", "second-approver");
    const dra::test::DractlRun second = rollout(promote);
    qputenv("USER", user);
    // Past the approval, the canary's own evidence decides (its window has not run yet).
    EXPECT_EQ((second.out + second.err).find("another person must approve"), std::string::npos)
        << second.out << second.err;

    const dra::test::DractlRun status = fromStateFile({ QStringLiteral("status"),
        QString::fromLatin1(kDemoPlanName), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(status.exitCode, 0) << status.err;
    const json document = status.document();
    EXPECT_EQ(document["governance"]["owner"], "ml-platform") << status.out;
    EXPECT_EQ(document["governance"]["maintenanceWindow"]["open"], false);
    const dra::test::DractlRun audit = fromStateFile({ QStringLiteral("audit"),
        QString::fromLatin1(kDemoPlanName), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(audit.exitCode, 0) << audit.err;
    EXPECT_NE(audit.out.find("forced outside the window by"), std::string::npos) << audit.out;
    EXPECT_NE(audit.out.find("INC-7: hotfix"), std::string::npos);
}
