// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
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

TEST(ConsoleScreenshotTest, DemoClusterRendersEveryMainView)
{
    QTemporaryDir dir;
    QString errors;
    ASSERT_EQ(runConsole({ QStringLiteral("--demo=a100-mig"), QStringLiteral("--screenshot"), dir.path() }, &errors), 0)
        << errors.toStdString();
    for (const char *view : { "overview", "devices", "topology", "claims", "templates", "template-editor", "lint", "free-capacity" }) {
        const QImage image(QDir(dir.path()).filePath(QString::fromLatin1(view) + QStringLiteral(".png")));
        ASSERT_FALSE(image.isNull()) << view;
        EXPECT_GE(image.width(), 800) << view;
    }
}

TEST(ConsoleScreenshotTest, MissingCacheFileIsAClearError)
{
    QString errors;
    EXPECT_EQ(runConsole({ QStringLiteral("--cache"), QStringLiteral("/nonexistent/cache.db"), QStringLiteral("--screenshot"),
                           QStringLiteral("/tmp/unused") },
                         &errors),
              2);
    EXPECT_TRUE(errors.contains(QStringLiteral("/nonexistent/cache.db: no such cache file"))) << errors.toStdString();
}


// `draconsole --context`: the console mirrors a live cluster (here `dractl serve --demo`) into
// its cache, shows it, and on exit records in the cache that the mirror is no longer followed.
TEST(ConsoleScreenshotTest, LiveContextIsMirroredIntoTheCacheAndShown)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString kubeconfig = dir.filePath(QStringLiteral("demo.kubeconfig"));
    QProcess server;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("server-config")));
    server.setProcessEnvironment(environment);
    server.start(QStringLiteral(DRACTL_PATH), { QStringLiteral("serve"), QStringLiteral("--demo=a100-mig"),
                                                QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                                                QStringLiteral("--write-kubeconfig"), kubeconfig });
    QByteArray output;
    QElapsedTimer waited;
    waited.start();
    while (!output.contains("kubeconfig:") && server.state() != QProcess::NotRunning && waited.elapsed() < 120'000) {
        server.waitForReadyRead(1000);
        output += server.readAllStandardOutput();
    }
    ASSERT_TRUE(output.contains("kubeconfig:")) << output.toStdString() << server.readAllStandardError().toStdString();

    const QString cache = dir.filePath(QStringLiteral("live.db"));
    QString errors;
    const int code = runConsole({ QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--context"),
                                  QStringLiteral("demo"), QStringLiteral("--cache"), cache, QStringLiteral("--screenshot"),
                                  dir.filePath(QStringLiteral("shots")) },
                                &errors);
    server.terminate();
    server.waitForFinished(30'000);
    ASSERT_EQ(code, 0) << errors.toStdString();
    EXPECT_FALSE(QImage(QDir(dir.filePath(QStringLiteral("shots"))).filePath(QStringLiteral("devices.png"))).isNull());

    dra::Result<dra::store::CacheDb> mirrored = dra::store::CacheDb::open(cache, dra::store::OpenMode::ReadOnly);
    ASSERT_TRUE(mirrored.has_value()) << mirrored.error().message.toStdString();
    EXPECT_FALSE(mirrored->objects("demo", "resource.k8s.io", "ResourceSlice").value().empty());
    const std::vector<dra::store::StreamRecord> streams = mirrored->streams("demo").value();
    ASSERT_FALSE(streams.empty());
    for (const dra::store::StreamRecord &stream : streams) {
        EXPECT_EQ(stream.state, "stale") << stream.kind;
        EXPECT_NE(stream.reason.find("the console disconnected"), std::string::npos) << stream.reason;
    }
}

} // namespace
