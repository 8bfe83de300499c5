// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `dractl serve --in-cluster` as a pod runs it, against `dractl serve --demo` as its cluster:
// the service account's files in a folder (--service-account-dir), KUBERNETES_SERVICE_HOST/PORT
// set; the mirror syncs, serves what it mirrored, and picks up a rotated token. Each caller is
// who the cluster says (TokenReview), reads what the cluster lets them (SubjectAccessReview) and
// writes through to the cluster with their own token.
#include <functional>
#include <optional>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/demo_server.h"
#include "tests/support/dractl_run.h"

namespace dra::test::in_cluster {
namespace {

class ServeInClusterTest : public testing::Test
{
protected:
    void SetUp() override
    {
        m_kubectl = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
        if (m_kubectl.isEmpty())
            GTEST_SKIP() << "kubectl is not on PATH";
        ASSERT_TRUE(m_dir.isValid());
        ignoreOpenSslThreadLeaks(m_dir.path());
        m_demo.emplace(m_dir.filePath(QStringLiteral("demo")), preset(), false,
            QStringList { QStringLiteral("--demo-service-account-dir"), serviceAccountDir(),
                QStringLiteral("--test-hooks") });
        ASSERT_TRUE(m_demo->waitUntilServing(60'000)) << m_demo->diagnostics();
        const QRegularExpressionMatch port
            = QRegularExpression(QStringLiteral("Serving .* at https://127\\.0\\.0\\.1:(\\d+)\\n"))
                  .match(QString::fromUtf8(m_demo->banner()));
        ASSERT_TRUE(port.hasMatch()) << m_demo->diagnostics();
        m_demoPort = port.captured(1);
    }

    void TearDown() override
    {
        if (m_mirror.state() != QProcess::NotRunning) {
            m_mirror.terminate();
            EXPECT_TRUE(m_mirror.waitForFinished(30'000));
        }
    }

    // The demo cluster's preset: a small one unless a test needs the rollout demo's workloads.
    virtual QString preset() const { return QStringLiteral("l40s-pcie"); }

    QString serviceAccountDir() const { return m_dir.filePath(QStringLiteral("serviceaccount")); }
    QString mirrorKubeconfig() const { return replicaKubeconfig(QStringLiteral("mirror")); }
    QString replicaKubeconfig(const QString &name) const
    {
        return m_dir.filePath(name + QStringLiteral(".kubeconfig"));
    }

    // Starts the in-cluster mirror; whether it printed its banner (after the initial sync).
    bool startMirror(const QStringList &more = {}, const QString &accountDir = {})
    {
        return startReplica(m_mirror, m_banner, QStringLiteral("mirror"), more, accountDir);
    }

    // Starts an in-cluster mirror as `process`, with its own cache NAME.db and kubeconfig
    // NAME.kubeconfig; whether it printed its banner into `banner`.
    bool startReplica(QProcess &process, QByteArray &banner, const QString &name,
        const QStringList &more = {}, const QString &accountDir = {})
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("KUBERNETES_SERVICE_HOST"), QStringLiteral("127.0.0.1"));
        environment.insert(QStringLiteral("KUBERNETES_SERVICE_PORT"), m_demoPort);
        environment.insert(
            QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("mirror-config")));
        process.setProcessEnvironment(environment);
        const QStringList arguments = QStringList { QStringLiteral("serve"),
            QStringLiteral("--in-cluster"), QStringLiteral("--service-account-dir"),
            accountDir.isEmpty() ? serviceAccountDir() : accountDir, QStringLiteral("--listen"),
            QStringLiteral("127.0.0.1:0"), QStringLiteral("--cache"),
            m_dir.filePath(name + QStringLiteral(".db")), QStringLiteral("--write-kubeconfig"),
            m_dir.filePath(name + QStringLiteral(".kubeconfig")) }
            + more;
        process.start(QStringLiteral(DRACTL_PATH), arguments);
        QElapsedTimer waited;
        waited.start();
        while (!banner.contains("kubeconfig:") && process.state() != QProcess::NotRunning
            && waited.elapsed() < 120'000) {
            process.waitForReadyRead(100);
            banner += process.readAllStandardOutput();
        }
        return banner.contains("kubeconfig:");
    }

    std::string mirrorDiagnostics()
    {
        return m_banner.toStdString() + m_mirror.readAllStandardError().toStdString();
    }

    DractlRun kubectl(const QString &kubeconfig, QStringList arguments)
    {
        return kubectlRun(m_kubectl, kubeconfig, m_dir.filePath(QStringLiteral("kube-cache")),
            std::move(arguments));
    }

    // The bearer token of a demo user (its context in the demo's kubeconfig).
    std::string demoToken(const QString &context)
    {
        const DractlRun token = kubectl(m_demo->kubeconfig(),
            { QStringLiteral("config"), QStringLiteral("view"), QStringLiteral("--raw"),
                QStringLiteral("-o"),
                QStringLiteral("jsonpath={.users[?(@.name==\"%1\")].user.token}").arg(context) });
        EXPECT_EQ(token.exitCode, 0) << token.err;
        EXPECT_FALSE(token.out.empty()) << context.toStdString();
        return token.out;
    }

    // kubectl against the mirror as a demo user: the mirror's kubeconfig carries no credentials
    // (--authn=cluster), so each caller brings their own token.
    DractlRun asUser(const QString &context, QStringList arguments)
    {
        return asUserOf(mirrorKubeconfig(), context, std::move(arguments));
    }
    DractlRun asUserOf(const QString &kubeconfig, const QString &context, QStringList arguments)
    {
        arguments << QStringLiteral("--token") << QString::fromStdString(demoToken(context));
        return kubectl(kubeconfig, std::move(arguments));
    }

    // POSTs a test hook of the demo cluster.
    void demoHook(const QString &hook)
    {
        const QString body = writeTestFile(m_dir.filePath(QStringLiteral("empty.json")), "{}");
        const DractlRun posted = kubectl(m_demo->kubeconfig(),
            { QStringLiteral("create"), QStringLiteral("--raw"),
                QStringLiteral("/draconsole/test/") + hook, QStringLiteral("-f"), body });
        ASSERT_EQ(posted.exitCode, 0) << hook.toStdString() << ": " << posted.err;
    }

    QString m_kubectl;
    QTemporaryDir m_dir;
    std::optional<DemoServer> m_demo;
    QString m_demoPort;
    QProcess m_mirror;
    QByteArray m_banner;
};

TEST_F(ServeInClusterTest, MirrorsTheClusterAsItsServiceAccountAndFollowsTokenRotation)
{
    EXPECT_EQ(readTestFile(serviceAccountDir() + QStringLiteral("/namespace")), "draconsole");
    ASSERT_TRUE(startMirror()) << mirrorDiagnostics();
    EXPECT_TRUE(m_banner.contains("live mirror of the cluster this pod runs in"))
        << m_banner.data();

    // What the cluster serves, the mirror serves.
    const DractlRun fromDemo = kubectl(m_demo->kubeconfig(),
        { QStringLiteral("get"), QStringLiteral("resourceslices"), QStringLiteral("-o"),
            QStringLiteral("name") });
    ASSERT_EQ(fromDemo.exitCode, 0) << fromDemo.err;
    const DractlRun fromMirror = asUser(QStringLiteral("demo"),
        { QStringLiteral("get"), QStringLiteral("resourceslices"), QStringLiteral("-o"),
            QStringLiteral("name") });
    ASSERT_EQ(fromMirror.exitCode, 0) << fromMirror.err;
    EXPECT_FALSE(fromMirror.out.empty());
    EXPECT_EQ(fromMirror.out, fromDemo.out);

    // The kubelet rotates the token; the old one no longer works. The cluster drops the watches,
    // and the mirror reconnects with the token it reads again.
    const std::string before = readTestFile(serviceAccountDir() + QStringLiteral("/token"));
    demoHook(QStringLiteral("rotate-service-account-token"));
    ASSERT_NE(readTestFile(serviceAccountDir() + QStringLiteral("/token")), before);
    QProcess stale;
    stale.start(m_kubectl,
        { QStringLiteral("--server"), QStringLiteral("https://127.0.0.1:") + m_demoPort,
            QStringLiteral("--insecure-skip-tls-verify"), QStringLiteral("--token"),
            QString::fromStdString(before), QStringLiteral("get"), QStringLiteral("namespaces") });
    ASSERT_TRUE(stale.waitForFinished(60'000));
    EXPECT_NE(stale.exitCode(), 0);
    const QByteArray staleErr = stale.readAllStandardError();
    EXPECT_TRUE(staleErr.contains("the server has asked for the client to provide credentials"))
        << staleErr.constData();
    demoHook(QStringLiteral("drop-watches"));
    const QString claim = writeTestFile(m_dir.filePath(QStringLiteral("claim.yaml")),
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
        "metadata: {name: after-rotation, namespace: training}\n"
        "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: "
        "gpu.nvidia.com}}]}}\n");
    const DractlRun created
        = kubectl(m_demo->kubeconfig(), { QStringLiteral("apply"), QStringLiteral("-f"), claim });
    ASSERT_EQ(created.exitCode, 0) << created.err;
    DractlRun seen;
    QElapsedTimer waited;
    waited.start();
    do {
        QThread::msleep(250);
        seen = asUser(QStringLiteral("demo"),
            { QStringLiteral("get"), QStringLiteral("resourceclaim"),
                QStringLiteral("after-rotation"), QStringLiteral("-n"), QStringLiteral("training"),
                QStringLiteral("-o"), QStringLiteral("name") });
    } while (seen.exitCode != 0 && waited.elapsed() < 45'000);
    EXPECT_EQ(seen.exitCode, 0) << seen.err << mirrorDiagnostics();
}

// The probes of the StatefulSet: /livez while the process answers, /readyz while every stream
// follows the cluster; a cluster gone makes the mirror unready (its data is going stale) but
// still alive.
TEST_F(ServeInClusterTest, ReadyWhileFollowingTheClusterAliveWithoutIt)
{
    // One user (the server's own token, in the kubeconfig it writes) instead of the cluster's.
    ASSERT_TRUE(startMirror({ QStringLiteral("--authn=token") })) << mirrorDiagnostics();
    EXPECT_TRUE(m_banner.contains("auth: bearer token\n")) << m_banner.data();
    const auto probe = [this](const char *path) {
        return kubectl(mirrorKubeconfig(),
            { QStringLiteral("get"), QStringLiteral("--raw"), QString::fromLatin1(path) });
    };
    const DractlRun ready = probe("/readyz?verbose");
    ASSERT_EQ(ready.exitCode, 0) << ready.err;
    EXPECT_NE(ready.out.find("[+]mirror-sync ok"), std::string::npos) << ready.out;
    EXPECT_NE(ready.out.find("readyz check passed"), std::string::npos) << ready.out;

    // The metrics say how the streams and the requests fared, to authenticated callers only.
    const DractlRun listed = kubectl(mirrorKubeconfig(),
        { QStringLiteral("get"), QStringLiteral("resourceslices"), QStringLiteral("-o"),
            QStringLiteral("name") });
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    const DractlRun metrics = probe("/metrics");
    ASSERT_EQ(metrics.exitCode, 0) << metrics.err;
    EXPECT_NE(metrics.out.find("draconsole_mirror_stream_state{kind=\"ResourceSlice\","
                               "namespace=\"\",state=\"watching\"} 1\n"),
        std::string::npos)
        << metrics.out;
    EXPECT_NE(metrics.out.find("draconsole_apiserver_request_total{verb=\"LIST\",resource="
                               "\"resourceslices.resource.k8s.io\",code=\"200\"} 1\n"),
        std::string::npos)
        << metrics.out;
    EXPECT_NE(metrics.out.find("draconsole_cache_size_bytes "), std::string::npos);
    const DractlRun stranger = kubectl(mirrorKubeconfig(),
        { QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/metrics"),
            QStringLiteral("--token"), QStringLiteral("not-the-token") });
    EXPECT_NE(stranger.exitCode, 0);
    EXPECT_NE(stranger.err.find("Unauthorized"), std::string::npos) << stranger.err;

    m_demo->process().terminate();
    ASSERT_TRUE(m_demo->process().waitForFinished(30'000));
    DractlRun unready;
    QElapsedTimer waited;
    waited.start();
    do {
        QThread::msleep(250);
        unready = probe("/readyz");
    } while (unready.exitCode == 0 && waited.elapsed() < 45'000);
    EXPECT_NE(unready.exitCode, 0) << unready.out << mirrorDiagnostics();
    const DractlRun alive = probe("/livez");
    EXPECT_EQ(alive.exitCode, 0) << alive.err;
    EXPECT_EQ(alive.out, "ok");
}

// Each caller is who the cluster says and may do what the cluster's RBAC allows them, through
// the mirror: reads are authorised per user, writes go to the cluster with the caller's token.
TEST_F(ServeInClusterTest, EachCallerIsWhoTheClusterSaysAndMayWhatItAllows)
{
    ASSERT_TRUE(startMirror()) << mirrorDiagnostics();
    EXPECT_TRUE(m_banner.contains("auth: each caller's own bearer token, reviewed by"))
        << m_banner.data();
    const QString training = QStringLiteral("demo-training");
    const QString inTraining = QStringLiteral("-n=training");

    const DractlRun whoami = asUser(training,
        { QStringLiteral("auth"), QStringLiteral("whoami"), QStringLiteral("-o"),
            QStringLiteral("jsonpath={.status.userInfo.username}") });
    ASSERT_EQ(whoami.exitCode, 0) << whoami.err << mirrorDiagnostics();
    EXPECT_EQ(whoami.out, "training-user");

    // Claims in the user's own namespace, not the cluster's; the cluster-scoped DRA kinds.
    const DractlRun own
        = asUser(training, { QStringLiteral("get"), QStringLiteral("resourceclaims"), inTraining });
    EXPECT_EQ(own.exitCode, 0) << own.err;
    const DractlRun all = asUser(training,
        { QStringLiteral("get"), QStringLiteral("resourceclaims"), QStringLiteral("-A") });
    EXPECT_NE(all.exitCode, 0) << all.out;
    EXPECT_NE(all.err.find(kTrainingUserCannotListAllClaims), std::string::npos) << all.err;
    const DractlRun slices = asUser(training,
        { QStringLiteral("get"), QStringLiteral("resourceslices"), QStringLiteral("-o"),
            QStringLiteral("name") });
    EXPECT_EQ(slices.exitCode, 0) << slices.err;
    EXPECT_NE(slices.out.find("resourceslice"), std::string::npos);

    // The console's views hold what the cluster lets the user list, and say what they leave out.
    const DractlRun console = asUser(training,
        { QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/console/v1/claims") });
    ASSERT_EQ(console.exitCode, 0) << console.err;
    const nlohmann::json shown = nlohmann::json::parse(console.out);
    for (const nlohmann::json &claim : shown["claims"])
        EXPECT_EQ(claim["namespace"], "training") << claim.dump();
    ASSERT_TRUE(shown.contains("leftOut")) << console.out;
    bool claimsLeftOut = false;
    for (const nlohmann::json &left : shown["leftOut"])
        if (left["kind"] == "ResourceClaim") {
            claimsLeftOut = true;
            for (const nlohmann::json &ns : left["namespaces"])
                EXPECT_NE(ns, "training");
        }
    EXPECT_TRUE(claimsLeftOut) << shown["leftOut"].dump();

    // The user may not read the roles: the Access view asks the cluster for the user's own
    // rules, with the user's token, and says so.
    const DractlRun access = asUser(training,
        { QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/console/v1/access") });
    ASSERT_EQ(access.exitCode, 0) << access.err;
    const nlohmann::json report = nlohmann::json::parse(access.out, nullptr, false);
    ASSERT_TRUE(report.is_object()) << access.out;
    EXPECT_EQ(report.value("source", ""), "self-rules") << access.out;
    EXPECT_NE(report.value("sourceNote", "").find("training-user"), std::string::npos)
        << access.out;

    // The server's metrics are for those the cluster lets read the path.
    const DractlRun metrics = asUser(
        training, { QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/metrics") });
    EXPECT_NE(metrics.exitCode, 0);
    EXPECT_NE(
        metrics.err.find("User \"training-user\" cannot get path \"/metrics\""), std::string::npos)
        << metrics.err;
    const DractlRun adminMetrics = asUser(QStringLiteral("demo"),
        { QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/metrics") });
    EXPECT_EQ(adminMetrics.exitCode, 0) << adminMetrics.err;
    EXPECT_NE(adminMetrics.out.find("draconsole_apiserver_watchers "), std::string::npos);

    // A token the cluster does not know is refused as kube-apiserver refuses it.
    const DractlRun stranger = kubectl(mirrorKubeconfig(),
        { QStringLiteral("get"), QStringLiteral("resourceslices"), QStringLiteral("--token"),
            QStringLiteral("not-a-token-of-this-cluster") });
    EXPECT_NE(stranger.exitCode, 0);
    EXPECT_NE(stranger.err.find("(Unauthorized)"), std::string::npos) << stranger.err;

    // A write goes to the cluster as the caller, and comes back to the mirror by its watch.
    const QString claim = writeTestFile(m_dir.filePath(QStringLiteral("own-claim.yaml")),
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
        "metadata: {name: written-through, namespace: training}\n"
        "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: "
        "gpu.nvidia.com}}]}}\n");
    const DractlRun applied
        = asUser(training, { QStringLiteral("apply"), QStringLiteral("-f"), claim });
    ASSERT_EQ(applied.exitCode, 0) << applied.err;
    const DractlRun inCluster = kubectl(m_demo->kubeconfig(),
        { QStringLiteral("get"), QStringLiteral("resourceclaim"), QStringLiteral("written-through"),
            inTraining, QStringLiteral("-o"), QStringLiteral("name") });
    EXPECT_EQ(inCluster.exitCode, 0) << inCluster.err;
    DractlRun seen;
    QElapsedTimer waited;
    waited.start();
    do {
        QThread::msleep(250);
        seen = asUser(training,
            { QStringLiteral("get"), QStringLiteral("resourceclaim"),
                QStringLiteral("written-through"), inTraining, QStringLiteral("-o"),
                QStringLiteral("name") });
    } while (seen.exitCode != 0 && waited.elapsed() < 45'000);
    EXPECT_EQ(seen.exitCode, 0) << seen.err << mirrorDiagnostics();

    // The viewer's write reaches the cluster too, whose RBAC refuses it: never the mirror's
    // service account writing on the viewer's behalf.
    const QString other = writeTestFile(m_dir.filePath(QStringLiteral("viewer-claim.yaml")),
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
        "metadata: {name: viewer-wants, namespace: training}\n"
        "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: "
        "gpu.nvidia.com}}]}}\n");
    const DractlRun refused = asUser(
        QStringLiteral("demo-viewer"), { QStringLiteral("create"), QStringLiteral("-f"), other });
    EXPECT_NE(refused.exitCode, 0);
    EXPECT_NE(refused.err.find("User \"viewer\" cannot create resource \"resourceclaims\""),
        std::string::npos)
        << refused.err;
}

// A mirror the cluster will not answer TokenReviews for could not tell its users apart: it says
// so and does not serve.
TEST_F(ServeInClusterTest, RefusesToServeWhenTheClusterWillNotReviewTokens)
{
    // The viewer's token in place of the mirror's: it reads everything but may create nothing,
    // tokenreviews included.
    const QString account = m_dir.filePath(QStringLiteral("viewer-account"));
    ASSERT_TRUE(QDir().mkpath(account));
    for (const char *file : { "ca.crt", "namespace" })
        ASSERT_TRUE(QFile::copy(serviceAccountDir() + QLatin1Char('/') + QLatin1String(file),
            account + QLatin1Char('/') + QLatin1String(file)));
    writeTestFile(account + QStringLiteral("/token"), demoToken(QStringLiteral("demo-viewer")));
    EXPECT_FALSE(startMirror({}, account));
    if (m_mirror.state() != QProcess::NotRunning) {
        ASSERT_TRUE(m_mirror.waitForFinished(30'000));
    }
    EXPECT_NE(m_mirror.exitCode(), 0);
    const std::string err = mirrorDiagnostics();
    EXPECT_NE(err.find("--authn=cluster: the cluster does not review tokens for this mirror"),
        std::string::npos)
        << err;
    EXPECT_NE(err.find("cannot create resource \"tokenreviews\""), std::string::npos) << err;
}

// Two replicas of the in-cluster mirror on one state file, as an old and a new pod overlap
// during an update: only the one that holds the rollout Lease drives rollouts; when it dies the
// other takes over after the Lease's duration, and one that stops gives the Lease up.
class ServeInClusterRolloutTest : public ServeInClusterTest
{
protected:
    QString preset() const override { return QStringLiteral("mixed"); }

    // The rollout Lease's holder as the cluster has it ("" when released or absent).
    std::string leaseHolder()
    {
        const DractlRun lease = kubectl(m_demo->kubeconfig(),
            { QStringLiteral("get"), QStringLiteral("leases.coordination.k8s.io"),
                QStringLiteral("draconsole-rollouts"), QStringLiteral("-n"),
                QStringLiteral("draconsole"), QStringLiteral("-o"),
                QStringLiteral("jsonpath={.spec.holderIdentity}"),
                QStringLiteral("--ignore-not-found") });
        EXPECT_EQ(lease.exitCode, 0) << lease.err;
        return lease.out;
    }

    // A replica's console answer at PATH, as the demo's admin.
    nlohmann::json console(const QString &replica, const QString &path)
    {
        const DractlRun answer = asUserOf(replicaKubeconfig(replica), QStringLiteral("demo"),
            { QStringLiteral("get"), QStringLiteral("--raw"), path });
        EXPECT_EQ(answer.exitCode, 0) << path.toStdString() << ": " << answer.err;
        return nlohmann::json::parse(answer.out, nullptr, false);
    }

    // Polls `done` every 200 ms for up to `timeoutMs`.
    static bool eventually(const std::function<bool()> &done, int timeoutMs)
    {
        QElapsedTimer waited;
        waited.start();
        while (!done()) {
            if (waited.elapsed() > timeoutMs)
                return false;
            QThread::msleep(200);
        }
        return true;
    }
};

TEST_F(ServeInClusterRolloutTest, OnlyTheReplicaHoldingTheLeaseDrivesRollouts)
{
    const QStringList replica { QStringLiteral("--state"),
        m_dir.filePath(QStringLiteral("state.db")), QStringLiteral("--lease-duration"),
        QStringLiteral("3") };
    const QString first = QStringLiteral("mirror");
    const QString second = QStringLiteral("second");
    ASSERT_TRUE(startMirror(replica)) << mirrorDiagnostics();
    std::string firstId;
    ASSERT_TRUE(eventually(
        [&] {
            const nlohmann::json view = console(first, QStringLiteral("/console/v1/rollouts"));
            firstId = view["lease"].value("thisReplica", "");
            return view["lease"].value("leading", false);
        },
        20'000))
        << mirrorDiagnostics();
    EXPECT_EQ(leaseHolder(), firstId);

    QProcess secondProcess;
    QByteArray secondBanner;
    ASSERT_TRUE(startReplica(secondProcess, secondBanner, second, replica))
        << secondBanner.toStdString() << secondProcess.readAllStandardError().toStdString();
    EXPECT_TRUE(secondBanner.contains("rollouts: state file")) << secondBanner.toStdString();
    // The new replica serves before its first look at the Lease ends; it names the holder once
    // it has seen it, and never claims to lead.
    nlohmann::json secondView;
    EXPECT_TRUE(eventually(
        [&] {
            secondView = console(second, QStringLiteral("/console/v1/rollouts"));
            return !secondView["lease"].value("holder", "").empty();
        },
        10'000))
        << secondView.dump();
    const std::string secondId = secondView["lease"].value("thisReplica", "");
    EXPECT_NE(secondId, firstId);
    EXPECT_FALSE(secondView["lease"].value("leading", true)) << secondView.dump();
    EXPECT_EQ(secondView["lease"]["holder"], firstId);

    // A rollout started through the replica that does not lead is driven by the one that does.
    const DractlRun started = asUserOf(replicaKubeconfig(second), QStringLiteral("demo"),
        { QStringLiteral("create"), QStringLiteral("--raw"), QStringLiteral("/console/v1/rollouts"),
            QStringLiteral("-f"),
            QStringLiteral(DRA_SOURCE_DIR "/resources/rollouts/demo-llm-server.yaml") });
    ASSERT_EQ(started.exitCode, 0) << started.out << started.err << mirrorDiagnostics();
    const QString rollout = QStringLiteral("/console/v1/rollouts/demo-llm-server");
    EXPECT_TRUE(
        eventually([&] { return console(first, rollout).value("drivenHere", false); }, 20'000))
        << console(first, rollout).dump();
    EXPECT_FALSE(console(second, rollout).value("drivenHere", true));

    // The leader dies without a word: the other takes the Lease over and drives the rollout on.
    m_mirror.kill();
    ASSERT_TRUE(m_mirror.waitForFinished(10'000));
    EXPECT_TRUE(
        eventually([&] { return console(second, rollout).value("drivenHere", false); }, 30'000))
        << console(second, rollout).dump() << secondProcess.readAllStandardError().toStdString();
    EXPECT_EQ(leaseHolder(), secondId);

    // A replica that stops gives the Lease up, so the next one need not wait out its duration.
    secondProcess.terminate();
    ASSERT_TRUE(secondProcess.waitForFinished(30'000));
    EXPECT_EQ(leaseHolder(), "");
}

TEST(ServeInClusterOptionsTest, OutsideAPodItSaysWhatIsMissing)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("KUBERNETES_SERVICE_HOST"));
    environment.remove(QStringLiteral("KUBERNETES_SERVICE_PORT"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path());
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(DRACTL_PATH),
        { QStringLiteral("serve"), QStringLiteral("--in-cluster"), QStringLiteral("--listen"),
            QStringLiteral("127.0.0.1:0"), QStringLiteral("--cache"),
            dir.filePath(QStringLiteral("cache.db")) });
    ASSERT_TRUE(process.waitForFinished(60'000));
    EXPECT_NE(process.exitCode(), 0);
    EXPECT_TRUE(process.readAllStandardError().contains(
        "KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined"));

    // Variables set, but no service account mounted.
    environment.insert(QStringLiteral("KUBERNETES_SERVICE_HOST"), QStringLiteral("127.0.0.1"));
    environment.insert(QStringLiteral("KUBERNETES_SERVICE_PORT"), QStringLiteral("6443"));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(DRACTL_PATH),
        { QStringLiteral("serve"), QStringLiteral("--in-cluster"),
            QStringLiteral("--service-account-dir"), dir.filePath(QStringLiteral("none")),
            QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0") });
    ASSERT_TRUE(process.waitForFinished(60'000));
    EXPECT_NE(process.exitCode(), 0);
    const QByteArray err = process.readAllStandardError();
    EXPECT_TRUE(err.contains("cannot read the service account's CA bundle")) << err.constData();
}

} // namespace
} // namespace dra::test::in_cluster
