// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include <set>

#include <QDir>
#include <QImage>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/store/cache_db.h"

namespace {

// Runs draconsole offscreen with a private settings folder; returns its exit code.
int runConsole(const QStringList &arguments, QString *errors)
{
    static QTemporaryDir home;
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_CACHE_HOME"), home.filePath(QStringLiteral("cache")));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(DRACONSOLE_PATH), arguments);
    if (!process.waitForFinished(240'000)) {
        process.kill();
        return -1;
    }
    *errors = QString::fromUtf8(process.readAllStandardError());
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

// Starts `dractl serve --demo=a100-mig` on a free loopback port writing `kubeconfig`; whether
// it serves (after its output says so).
::testing::AssertionResult startServedDemo(
    QProcess &server, const QTemporaryDir &dir, const QString &kubeconfig)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(
        QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("server-config")));
    server.setProcessEnvironment(environment);
    server.start(QStringLiteral(DRACTL_PATH),
        { QStringLiteral("serve"), QStringLiteral("--demo=a100-mig"), QStringLiteral("--listen"),
            QStringLiteral("127.0.0.1:0"), QStringLiteral("--write-kubeconfig"), kubeconfig });
    QByteArray output;
    QElapsedTimer waited;
    waited.start();
    while (!output.contains("kubeconfig:") && server.state() != QProcess::NotRunning
        && waited.elapsed() < 120'000) {
        server.waitForReadyRead(1000);
        output += server.readAllStandardOutput();
    }
    if (output.contains("kubeconfig:"))
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
        << output.toStdString() << server.readAllStandardError().toStdString();
}

// The arguments that mirror the served demo's context into `cache` and render it into DIR/shots.
QStringList mirrorArguments(
    const QTemporaryDir &dir, const QString &kubeconfig, const QString &cache)
{
    return { QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--context"),
        QStringLiteral("demo"), QStringLiteral("--cache"), cache, QStringLiteral("--screenshot"),
        dir.filePath(QStringLiteral("shots")) };
}

TEST(ConsoleScreenshotTest, DemoClusterRendersEveryMainViewAt1280By800)
{
    // The mixed demo has the longest names and figures; every page must fit a 1280×800 screen
    // (a page whose minimum is wider makes the window, and so its picture, wider).
    QTemporaryDir dir;
    QString errors;
    ASSERT_EQ(
        runConsole({ QStringLiteral("--demo"), QStringLiteral("--window-size"),
                       QStringLiteral("1280x800"), QStringLiteral("--screenshot"), dir.path() },
            &errors),
        0)
        << errors.toStdString();
    for (const char *view : { "overview", "devices", "topology", "claims", "templates",
             "template-editor", "lint", "readiness", "free-capacity", "rollouts", "migration" }) {
        const QImage image(
            QDir(dir.path()).filePath(QString::fromLatin1(view) + QStringLiteral(".png")));
        ASSERT_FALSE(image.isNull()) << view;
        EXPECT_EQ(image.size(), QSize(1280, 800)) << view;
    }
}

TEST(ConsoleScreenshotTest, MissingCacheFileIsAClearError)
{
    QString errors;
    EXPECT_EQ(runConsole({ QStringLiteral("--cache"), QStringLiteral("/nonexistent/cache.db"),
                             QStringLiteral("--screenshot"), QStringLiteral("/tmp/unused") },
                  &errors),
        2);
    EXPECT_TRUE(errors.contains(QStringLiteral("/nonexistent/cache.db: no such cache file")))
        << errors.toStdString();
}

// `draconsole --context`: the console mirrors a live cluster (here `dractl serve --demo`) into
// its cache, shows it, and on exit records in the cache that the mirror is no longer followed.
// A `dractl serve --demo` for the console to mirror, in a folder of the test's own.
class ConsoleLiveMirrorTest : public testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_kubeconfig = m_dir.filePath(QStringLiteral("demo.kubeconfig"));
        ASSERT_TRUE(startServedDemo(m_server, m_dir, m_kubeconfig));
    }
    void TearDown() override { stopServer(); }
    void stopServer()
    {
        m_server.terminate();
        m_server.waitForFinished(30'000);
    }

    QTemporaryDir m_dir;
    QString m_kubeconfig;
    QProcess m_server;
};

TEST_F(ConsoleLiveMirrorTest, LiveContextIsMirroredIntoTheCacheAndShown)
{
    QTemporaryDir &dir = m_dir;
    const QString cache = dir.filePath(QStringLiteral("live.db"));
    QString errors;
    const int code = runConsole(mirrorArguments(dir, m_kubeconfig, cache), &errors);
    stopServer();
    ASSERT_EQ(code, 0) << errors.toStdString();
    EXPECT_FALSE(
        QImage(QDir(dir.filePath(QStringLiteral("shots"))).filePath(QStringLiteral("devices.png")))
            .isNull());

    dra::Result<dra::store::CacheDb> mirrored
        = dra::store::CacheDb::open(cache, dra::store::OpenMode::ReadOnly);
    ASSERT_TRUE(mirrored.has_value()) << mirrored.error().message.toStdString();
    EXPECT_FALSE(mirrored->objects("demo", "resource.k8s.io", "ResourceSlice").value().empty());
    const std::vector<dra::model::StreamRecord> streams = mirrored->streams("demo").value();
    ASSERT_FALSE(streams.empty());
    for (const dra::model::StreamRecord &stream : streams) {
        EXPECT_EQ(stream.state, "stale") << stream.kind;
        EXPECT_NE(stream.reason.find("the console disconnected"), std::string::npos)
            << stream.reason;
    }
}

// --workload-namespaces: the console mirrors the workloads (Deployments and the rest) of the
// namespaces it names and of no other.
TEST_F(ConsoleLiveMirrorTest, WorkloadNamespacesOptionChoosesWhichWorkloadsAreMirrored)
{
    QTemporaryDir &dir = m_dir;
    const auto mirrorWith = [&](const QString &namespaces, const QString &cache) {
        QString errors;
        const int code = runConsole(mirrorArguments(dir, m_kubeconfig, cache)
                << QStringLiteral("--workload-namespaces") << namespaces,
            &errors);
        EXPECT_EQ(code, 0) << errors.toStdString();
    };
    const QString batchCache = dir.filePath(QStringLiteral("batch.db"));
    const QString inferenceCache = dir.filePath(QStringLiteral("inference.db"));
    mirrorWith(QStringLiteral("batch, training"), batchCache);
    mirrorWith(QStringLiteral("inference"), inferenceCache);
    stopServer();

    // Each cache has one Deployment stream per namespace asked for, and no Deployment of another
    // namespace (the a100-mig preset runs none of its own: the in-process session test writes
    // some).
    const auto deploymentStreams = [](const QString &path) {
        std::set<std::string> namespaces;
        dra::Result<dra::store::CacheDb> cache
            = dra::store::CacheDb::open(path, dra::store::OpenMode::ReadOnly);
        EXPECT_TRUE(cache.has_value()) << path.toStdString();
        if (!cache)
            return namespaces;
        const std::vector<dra::model::StreamRecord> streams = cache->streams("demo").value();
        for (const dra::model::StreamRecord &stream : streams)
            if (stream.kind == "Deployment")
                namespaces.insert(stream.ns);
        const std::vector<dra::model::ObjectRecord> deployments
            = cache->objects("demo", "apps", "Deployment").value();
        for (const dra::model::ObjectRecord &deployment : deployments)
            EXPECT_TRUE(namespaces.contains(deployment.key.ns))
                << deployment.key.ns << "/" << deployment.key.name;
        return namespaces;
    };
    EXPECT_EQ(deploymentStreams(batchCache), (std::set<std::string> { "batch", "training" }));
    EXPECT_EQ(deploymentStreams(inferenceCache), (std::set<std::string> { "inference" }));
}

} // namespace
