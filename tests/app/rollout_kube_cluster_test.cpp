// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The rollout controller's cluster port over a real REST client, against `dractl serve --demo`:
// the requests it sends (server-side apply with and without dry run, merge patch, delete, list by
// label, discovery) as a served API answers them; and dractl rollout start / abort / run against
// the demo's baseline workload.
#include "core/rollout/kube_cluster.h"

#include <optional>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/kube/apply_diff.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/rest_client.h"
#include "tests/support/demo_server.h"
#include "tests/support/dractl_run.h"

using dra::model::Kind;
using dra::rollout::ClusterPort;
using nlohmann::json;

namespace {

class KubeClusterWireTest : public testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = new QTemporaryDir;
        s_server = new dra::test::DemoServer(s_dir->path());
        ASSERT_TRUE(s_server->waitUntilServing()) << s_server->diagnostics();
    }
    static void TearDownTestSuite()
    {
        delete s_server;
        delete s_dir;
    }
    static QString kubeconfigPath() { return s_server->kubeconfig(); }

    void SetUp() override
    {
        dra::Result<dra::kube::Kubeconfig> config = dra::kube::readKubeconfigFile(kubeconfigPath());
        ASSERT_TRUE(config.has_value());
        dra::Result<dra::kube::ClientConfig> client = dra::kube::resolveContext(*config, {});
        ASSERT_TRUE(client.has_value()) << client.error().message.toStdString();
        m_rest = std::make_unique<dra::kube::RestClient>(*client);
        m_cluster = std::make_unique<dra::rollout::KubeCluster>(*m_rest);
    }

    // Runs one asynchronous call of the port to its answer.
    template <typename T>
    dra::Result<T> await(const std::function<void(ClusterPort::Done<T>)> &call)
    {
        std::optional<dra::Result<T>> answer;
        call([&](dra::Result<T> got) { answer = std::move(got); });
        QElapsedTimer waited;
        waited.start();
        while (!answer && waited.elapsed() < 30'000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        if (!answer)
            return dra::fail(
                dra::common::Error::Code::Network, QStringLiteral("no answer within 30s"));
        return std::move(*answer);
    }

    std::optional<json> liveObject(Kind kind, const std::string &ns, const std::string &name)
    {
        auto got = await<std::optional<json>>(
            [&](auto done) { m_cluster->get(kind, ns, name, &m_context, done); });
        EXPECT_TRUE(got.has_value()) << got.error().message.toStdString();
        return got ? *got : std::nullopt;
    }

    std::optional<json> live(const std::string &name)
    {
        auto got = await<std::optional<json>>([&](auto done) {
            m_cluster->get(Kind::ResourceClaimTemplate, "training", name, &m_context, done);
        });
        EXPECT_TRUE(got.has_value()) << got.error().message.toStdString();
        return got ? *got : std::nullopt;
    }

    static QTemporaryDir *s_dir;
    static dra::test::DemoServer *s_server;
    std::unique_ptr<dra::kube::RestClient> m_rest;
    std::unique_ptr<dra::rollout::KubeCluster> m_cluster;
    QObject m_context;
};

QTemporaryDir *KubeClusterWireTest::s_dir = nullptr;
dra::test::DemoServer *KubeClusterWireTest::s_server = nullptr;

const json kWireTemplate
    = json::parse(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate",
  "metadata":{"name":"rollout-wire","namespace":"training","labels":{"draconsole.io/rollout":"wire"}},
  "spec":{"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.nvidia.com"}}]}}}})");

} // namespace

// One test, because each step depends on what the one before left on the server.
TEST_F(KubeClusterWireTest, PreviewsAppliesListsPatchesAndDeletesOnTheDemoServer)
{
    ASSERT_FALSE(live("rollout-wire").has_value()) << "a missing object is no error";

    auto preview
        = await<json>([&](auto done) { m_cluster->apply(kWireTemplate, true, &m_context, done); });
    ASSERT_TRUE(preview.has_value()) << preview.error().message.toStdString();
    EXPECT_EQ((*preview)["metadata"]["name"], "rollout-wire");
    EXPECT_FALSE(live("rollout-wire").has_value()) << "a dry run stores nothing";

    auto applied
        = await<json>([&](auto done) { m_cluster->apply(kWireTemplate, false, &m_context, done); });
    ASSERT_TRUE(applied.has_value()) << applied.error().message.toStdString();
    const std::optional<json> stored = live("rollout-wire");
    ASSERT_TRUE(stored.has_value());
    auto again
        = await<json>([&](auto done) { m_cluster->apply(kWireTemplate, true, &m_context, done); });
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(dra::kube::objectDiff(*stored, *again, "rct"), "")
        << "applying it again changes nothing";

    auto mine = await<std::vector<json>>([&](auto done) {
        m_cluster->list(Kind::ResourceClaimTemplate, "training", "draconsole.io/rollout=wire",
            &m_context, done);
    });
    ASSERT_TRUE(mine.has_value()) << mine.error().message.toStdString();
    ASSERT_EQ(mine->size(), 1u);
    auto others = await<std::vector<json>>([&](auto done) {
        m_cluster->list(Kind::ResourceClaimTemplate, "training", "draconsole.io/rollout=other",
            &m_context, done);
    });
    ASSERT_TRUE(others.has_value());
    EXPECT_TRUE(others->empty());

    auto patched = await<json>([&](auto done) {
        m_cluster->mergePatch(Kind::ResourceClaimTemplate, "training", "rollout-wire",
            json::parse(R"({"metadata":{"labels":{"stage":"canary"}}})"), true, &m_context, done);
    });
    ASSERT_TRUE(patched.has_value()) << patched.error().message.toStdString();
    EXPECT_EQ((*patched)["metadata"]["labels"]["stage"], "canary");
    EXPECT_FALSE((*live("rollout-wire"))["metadata"]["labels"].contains("stage"));

    auto wouldDelete = await<bool>([&](auto done) {
        m_cluster->remove(
            Kind::ResourceClaimTemplate, "training", "rollout-wire", true, &m_context, done);
    });
    ASSERT_TRUE(wouldDelete.has_value()) << wouldDelete.error().message.toStdString();
    EXPECT_TRUE(*wouldDelete);
    EXPECT_TRUE(live("rollout-wire").has_value());
    auto deleted = await<bool>([&](auto done) {
        m_cluster->remove(
            Kind::ResourceClaimTemplate, "training", "rollout-wire", false, &m_context, done);
    });
    ASSERT_TRUE(deleted.has_value()) << deleted.error().message.toStdString();
    EXPECT_TRUE(*deleted);
    EXPECT_FALSE(live("rollout-wire").has_value());
    auto gone = await<bool>([&](auto done) {
        m_cluster->remove(
            Kind::ResourceClaimTemplate, "training", "rollout-wire", false, &m_context, done);
    });
    ASSERT_TRUE(gone.has_value());
    EXPECT_FALSE(*gone) << "deleting what is gone is no error";

    auto versions = await<std::vector<std::string>>(
        [&](auto done) { m_cluster->servedResourceVersions(&m_context, done); });
    ASSERT_TRUE(versions.has_value()) << versions.error().message.toStdString();
    EXPECT_NE(std::find(versions->begin(), versions->end(), "v1"), versions->end());
    EXPECT_NE(m_cluster->actor().find("context"), std::string::npos) << m_cluster->actor();
}

// The demo's inference/llm-server is the example plan's baseline. Without the demo control plane
// no canary pod starts, so the rollout stays in Canary; the abort must still leave the baseline
// and its route as they were, and remove everything the rollout created.
TEST_F(KubeClusterWireTest, StartThenAbortLeavesTheDemoBaselineAsItWas)
{
    const std::optional<json> baselineBefore
        = liveObject(Kind::Deployment, "inference", "llm-server");
    const std::optional<json> routeBefore = liveObject(Kind::HTTPRoute, "inference", "llm-server");
    ASSERT_TRUE(baselineBefore && routeBefore) << "the demo serves the example plan's baseline";
    const QString plan
        = QStringLiteral(DRA_SOURCE_DIR "/resources/rollouts/llm-inference-h100.yaml");
    const QString state = s_dir->filePath(QStringLiteral("rollout-state.db"));
    const QStringList cluster { QStringLiteral("--kubeconfig"), kubeconfigPath(),
        QStringLiteral("--state"), state };

    dra::test::DractlRun start = dra::test::dractl(
        QStringList { QStringLiteral("rollout"), QStringLiteral("start"), plan } + cluster);
    ASSERT_EQ(start.exitCode, 0) << start.out << start.err;
    EXPECT_NE(start.out.find("[Passed] baseline Ready"), std::string::npos) << start.out;
    EXPECT_NE(start.out.find("start: Baseline -> Canary"), std::string::npos) << start.out;
    const std::optional<json> canary = liveObject(Kind::Deployment, "inference", "llm-server-dra");
    ASSERT_TRUE(canary.has_value());
    EXPECT_EQ(canary->at("spec")
                  .at("template")
                  .at("spec")
                  .at("resourceClaims")[0]["resourceClaimTemplateName"],
        "llm-server-h100");
    EXPECT_TRUE(
        liveObject(Kind::ResourceClaimTemplate, "inference", "llm-server-h100").has_value());

    dra::test::DractlRun abort
        = dra::test::dractl(QStringList { QStringLiteral("rollout"), QStringLiteral("abort"),
                                QStringLiteral("llm-server-to-dra") }
            + cluster);
    ASSERT_EQ(abort.exitCode, 0) << abort.out << abort.err;
    // Traffic went back; the canary waits for the drain window. Aborting again forces every
    // step of the rollback at once.
    EXPECT_TRUE(liveObject(Kind::Deployment, "inference", "llm-server-dra").has_value());
    dra::test::DractlRun forced
        = dra::test::dractl(QStringList { QStringLiteral("rollout"), QStringLiteral("abort"),
                                QStringLiteral("llm-server-to-dra") }
            + cluster);
    ASSERT_EQ(forced.exitCode, 0) << forced.out << forced.err;
    dra::test::DractlRun verify
        = dra::test::dractl(QStringList { QStringLiteral("rollout"), QStringLiteral("run"),
                                QStringLiteral("llm-server-to-dra"), QStringLiteral("--once") }
            + cluster);
    ASSERT_EQ(verify.exitCode, 0) << verify.out << verify.err;
    EXPECT_NE(verify.out.find("RollingBack -> RolledBack"), std::string::npos) << verify.out;

    EXPECT_FALSE(liveObject(Kind::Deployment, "inference", "llm-server-dra").has_value());
    EXPECT_FALSE(
        liveObject(Kind::ResourceClaimTemplate, "inference", "llm-server-h100").has_value());
    EXPECT_FALSE(liveObject(Kind::ResourceClaim, "inference", "llm-server-to-dra-negative-control")
                     .has_value());
    EXPECT_EQ(liveObject(Kind::Deployment, "inference", "llm-server")->at("spec"),
        baselineBefore->at("spec"));
    EXPECT_EQ(dra::kube::comparableObject(*liveObject(Kind::HTTPRoute, "inference", "llm-server")),
        dra::kube::comparableObject(*routeBefore));

    dra::test::DractlRun audit = dra::test::dractl({ QStringLiteral("rollout"),
        QStringLiteral("audit"), QStringLiteral("--verify"), QStringLiteral("--state"), state });
    EXPECT_EQ(audit.exitCode, 0) << audit.err;
}
