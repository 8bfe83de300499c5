// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `dractl sync --once` against a server it cannot use: what kubectl gives up on at once (a CA
// that does not sign the server's certificate, a tls-server-name the certificate does not name,
// an exec plugin that is not installed) ends the command with the reason; what waiting can fix
// (a refused connection, 503) is retried until it works. And kubectl's impersonation flags.
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "tests/support/kube_fixture.h"
#include "tests/support/test_cluster.h"

namespace dra::kube {
namespace {

using test::headerLines;
using test::spinUntil;
using test::TestCluster;

// Far above the second or so a permanent error takes; a retry loop would run past it.
constexpr int kGiveUpMs = 30'000;

struct SyncRun
{
    bool finished = false;
    int exitCode = -1;
    QByteArray output; // stdout and stderr
};

class SyncFailureTest : public testing::Test
{
protected:
    void SetUp() override { ASSERT_TRUE(m_dir.isValid()); }

    void TearDown() override
    {
        if (m_sync.state() != QProcess::NotRunning) {
            m_sync.kill();
            m_sync.waitForFinished(5000);
        }
    }

    // A kubeconfig for `cluster` with `ca` as its certificate authority and `clusterExtra` /
    // `user` lines (YAML, indented for their block).
    QString kubeconfig(const TestCluster &cluster, const QByteArray &ca,
        const QByteArray &clusterExtra, const QByteArray &user)
    {
        const QString path = m_dir.filePath(QStringLiteral("kubeconfig"));
        test::writeFile(path,
            "apiVersion: v1\nkind: Config\ncurrent-context: test\nclusters:\n- name: test\n"
            "  cluster:\n    server: https://127.0.0.1:"
                + QByteArray::number(cluster.port())
                + "\n    certificate-authority-data: " + ca.toBase64() + "\n" + clusterExtra
                + "contexts:\n- name: test\n  context: {cluster: test, user: u}\n"
                  "users:\n- name: u\n  user:\n"
                + user);
        return path;
    }

    static QByteArray tokenUser() { return QByteArray("    token: ") + test::kToken + "\n"; }

    void startSync(const QString &kubeconfig, const QStringList &extra = {})
    {
        m_sync.setProcessChannelMode(QProcess::MergedChannels);
        m_sync.start(QStringLiteral(DRA_DRACTL),
            QStringList { QStringLiteral("sync"), QStringLiteral("--once"),
                QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--cache"),
                m_dir.filePath(QStringLiteral("x.db")) }
                + extra);
    }

    // Serves the test's cluster (this event loop) until dractl ends or `timeoutMs` passes.
    SyncRun waitForSync(int timeoutMs)
    {
        SyncRun run;
        run.finished = spinUntil(
            [&] {
                m_printed += m_sync.readAll();
                return m_sync.state() == QProcess::NotRunning;
            },
            timeoutMs);
        m_printed += m_sync.readAll();
        run.output = m_printed;
        if (run.finished && m_sync.exitStatus() == QProcess::NormalExit)
            run.exitCode = m_sync.exitCode();
        return run;
    }

    // Runs `dractl sync --once` with `kubeconfig` to its end, within kGiveUpMs.
    SyncRun syncOnce(const QString &kubeconfig, const QStringList &extra = {})
    {
        startSync(kubeconfig, extra);
        return waitForSync(kGiveUpMs);
    }

    QTemporaryDir m_dir;
    QProcess m_sync;
    QByteArray m_printed;
};

TEST_F(SyncFailureTest, ACaThatDidNotSignTheServerCertificateEndsTheSyncAtOnce)
{
    TestCluster cluster;
    const SyncRun run
        = syncOnce(kubeconfig(cluster, test::makeCa("someone-else").certificate, {}, tokenUser()));
    ASSERT_TRUE(run.finished) << "still retrying after " << kGiveUpMs << " ms:\n"
                              << run.output.toStdString();
    EXPECT_NE(run.exitCode, 0) << run.output.toStdString();
    EXPECT_TRUE(run.output.contains("x509: certificate signed by unknown authority"))
        << run.output.toStdString();
    EXPECT_TRUE(
        run.output.contains(QByteArray("https://127.0.0.1:" + QByteArray::number(cluster.port()))))
        << run.output.toStdString();
    EXPECT_TRUE(cluster.requests.empty()); // the token never left the client
}

TEST_F(SyncFailureTest, ATlsServerNameTheCertificateDoesNotNameEndsTheSyncAtOnce)
{
    TestCluster cluster;
    const SyncRun run = syncOnce(kubeconfig(cluster, test::KubeconfigFixtures::ca().certificate,
        "    tls-server-name: api.elsewhere.example\n", tokenUser()));
    ASSERT_TRUE(run.finished) << "still retrying after " << kGiveUpMs << " ms:\n"
                              << run.output.toStdString();
    EXPECT_NE(run.exitCode, 0) << run.output.toStdString();
    EXPECT_TRUE(run.output.contains("not api.elsewhere.example")) << run.output.toStdString();
    EXPECT_TRUE(cluster.requests.empty());
}

TEST_F(SyncFailureTest, AMissingExecPluginEndsTheSyncAtOnce)
{
    TestCluster cluster;
    const SyncRun run = syncOnce(kubeconfig(cluster, test::KubeconfigFixtures::ca().certificate, {},
        "    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n"
        "      command: /nonexistent/dra-test-credential-plugin\n"));
    ASSERT_TRUE(run.finished) << "still retrying after " << kGiveUpMs << " ms:\n"
                              << run.output.toStdString();
    EXPECT_NE(run.exitCode, 0) << run.output.toStdString();
    EXPECT_TRUE(run.output.contains("dra-test-credential-plugin")) << run.output.toStdString();
    EXPECT_TRUE(cluster.requests.empty());
}

TEST_F(SyncFailureTest, AMalformedKubeconfigEndsTheSyncAtOnceNamingTheFile)
{
    const QString path = m_dir.filePath(QStringLiteral("broken-kubeconfig"));
    test::writeFile(path, "apiVersion: v1\nkind: Config\nclusters: [\n  - name: test\n");
    const SyncRun run = syncOnce(path);
    ASSERT_TRUE(run.finished) << run.output.toStdString();
    EXPECT_NE(run.exitCode, 0) << run.output.toStdString();
    EXPECT_TRUE(run.output.contains(path.toUtf8())) << run.output.toStdString();
}

TEST_F(SyncFailureTest, AServerAnswering503IsRetriedUntilItAnswers)
{
    TestCluster cluster;
    cluster.failNext("/version", 503, 2);
    startSync(kubeconfig(cluster, test::KubeconfigFixtures::ca().certificate, {}, tokenUser()));
    const SyncRun run = waitForSync(120'000);
    ASSERT_TRUE(run.finished) << run.output.toStdString();
    EXPECT_EQ(run.exitCode, 0) << run.output.toStdString();
    EXPECT_TRUE(run.output.contains("Initial sync done")) << run.output.toStdString();
    const auto versions = std::ranges::count_if(cluster.requests,
        [](const std::string &request) { return request.find("/version") != std::string::npos; });
    EXPECT_GE(versions, 3); // two 503s, then the answer
}

TEST_F(SyncFailureTest, ARefusedConnectionIsRetriedUntilTheServerIsBack)
{
    TestCluster cluster;
    cluster.stop();
    startSync(kubeconfig(cluster, test::KubeconfigFixtures::ca().certificate, {}, tokenUser()));
    // It says why it waits, and waits.
    ASSERT_TRUE(spinUntil(
        [&] {
            m_printed += m_sync.readAll();
            return m_printed.contains("Connection refused")
                || m_sync.state() == QProcess::NotRunning;
        },
        kGiveUpMs))
        << m_printed.toStdString();
    ASSERT_EQ(m_sync.state(), QProcess::Running) << m_printed.toStdString();
    cluster.start();
    const SyncRun run = waitForSync(120'000);
    ASSERT_TRUE(run.finished) << run.output.toStdString();
    EXPECT_EQ(run.exitCode, 0) << run.output.toStdString();
    EXPECT_TRUE(run.output.contains("Initial sync done")) << run.output.toStdString();
}

TEST_F(SyncFailureTest, AsAndAsGroupImpersonateOnEveryRequestOverTheKubeconfigs)
{
    TestCluster cluster;
    const QByteArray user = tokenUser() + "    as: from-kubeconfig\n    as-groups: [old-group]\n";
    const SyncRun run
        = syncOnce(kubeconfig(cluster, test::KubeconfigFixtures::ca().certificate, {}, user),
            { QStringLiteral("--as"), QStringLiteral("jane"), QStringLiteral("--as-group"),
                QStringLiteral("ml-team"), QStringLiteral("--as-group"),
                QStringLiteral("gpu-admins") });
    ASSERT_TRUE(run.finished) << run.output.toStdString();
    EXPECT_EQ(run.exitCode, 0) << run.output.toStdString();
    ASSERT_FALSE(cluster.requestLog.empty());
    for (const server::Request &request : cluster.requestLog) {
        EXPECT_EQ(headerLines(request, "impersonate-user"), std::vector<std::string> { "jane" })
            << request.target;
        EXPECT_EQ(headerLines(request, "impersonate-group"),
            (std::vector<std::string> { "ml-team", "gpu-admins" }))
            << request.target;
    }
}

TEST_F(SyncFailureTest, AnImpersonatedGroupWithoutAUserIsRefusedBeforeAnyRequest)
{
    TestCluster cluster;
    const SyncRun run
        = syncOnce(kubeconfig(cluster, test::KubeconfigFixtures::ca().certificate, {}, tokenUser()),
            { QStringLiteral("--as-group"), QStringLiteral("ml-team") });
    ASSERT_TRUE(run.finished) << run.output.toStdString();
    EXPECT_NE(run.exitCode, 0) << run.output.toStdString();
    EXPECT_TRUE(run.output.contains("--as-group and --as-uid need --as"))
        << run.output.toStdString();
    EXPECT_TRUE(cluster.requests.empty());
}

} // namespace
} // namespace dra::kube
