// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The real kubectl against `dractl serve` over TLS with a bearer token.
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/core/server/http_test_client.h"

namespace dra::server {
namespace {

constexpr const char *kFixture = R"(apiVersion: v1
kind: List
items:
- apiVersion: resource.k8s.io/v1
  kind: DeviceClass
  metadata: {name: gpu.example.com, uid: dc-1, resourceVersion: "5", creationTimestamp: "2026-11-30T07:00:00Z"}
  spec:
    selectors:
    - cel: {expression: 'device.driver == "gpu.example.com"'}
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: node-1-gpu, uid: s-1, resourceVersion: "6", creationTimestamp: "2026-11-30T07:00:00Z"}
  spec:
    driver: gpu.example.com
    nodeName: node-1
    pool: {name: node-1-gpus, generation: 1, resourceSliceCount: 1}
    devices:
    - name: gpu-0
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: node-2-gpu, uid: s-2, resourceVersion: "7", creationTimestamp: "2026-11-30T07:00:00Z"}
  spec:
    driver: gpu.example.com
    nodeName: node-2
    pool: {name: node-2-gpus, generation: 1, resourceSliceCount: 1}
    devices:
    - name: gpu-0
- apiVersion: resource.k8s.io/v1
  kind: ResourceClaim
  metadata: {name: train-0, namespace: ml, uid: c-1, resourceVersion: "8", creationTimestamp: "2026-11-30T07:00:00Z"}
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
)";

struct ProcessRun
{
    int exitCode = -1;
    QString out, err;
};

class KubectlTest : public testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_kubectl = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
    }

    void SetUp() override
    {
        if (s_kubectl.isEmpty())
            GTEST_SKIP() << "kubectl is not on PATH";
        ASSERT_TRUE(m_dir.isValid());
        QFile fixture(m_dir.filePath(QStringLiteral("fixture.yaml")));
        ASSERT_TRUE(fixture.open(QIODevice::WriteOnly));
        fixture.write(kFixture);
        fixture.close();
        const QString cache = m_dir.filePath(QStringLiteral("cache.db"));
        const ProcessRun imported = run(QStringLiteral(DRA_DRACTL),
            { QStringLiteral("import"), QStringLiteral("--cache"), cache,
                QStringLiteral("--cluster"), QStringLiteral("lab"), fixture.fileName() });
        ASSERT_EQ(imported.exitCode, 0) << imported.err.toStdString();

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        m_server.setProcessEnvironment(env);
        m_server.start(QStringLiteral(DRA_DRACTL),
            { QStringLiteral("serve"), QStringLiteral("--cache"), cache, QStringLiteral("--listen"),
                QStringLiteral("127.0.0.1:0"), QStringLiteral("--write-kubeconfig"),
                kubeconfig() });
        ASSERT_TRUE(m_server.waitForStarted());
        QByteArray printed;
        ASSERT_TRUE(test::spinUntil(
            [&] {
                m_server.waitForReadyRead(50);
                printed += m_server.readAllStandardOutput();
                return printed.contains("kubeconfig:") || m_server.state() == QProcess::NotRunning;
            },
            20000))
            << printed.constData();
        ASSERT_TRUE(printed.contains("port: "))
            << printed.constData() << m_server.readAllStandardError().constData();
        EXPECT_TRUE(printed.contains("https://127.0.0.1:"));
        // The secrets and the kubeconfig are for the owner only.
        EXPECT_EQ(
            QFile::permissions(m_dir.filePath(QStringLiteral("config/draconsole/serve/token")))
                & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
            QFileDevice::Permissions());
        EXPECT_EQ(
            QFile::permissions(kubeconfig()) & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
            QFileDevice::Permissions());
    }

    void TearDown() override
    {
        if (m_server.state() != QProcess::NotRunning) {
            m_server.terminate(); // SIGTERM: dractl stops cleanly
            EXPECT_TRUE(m_server.waitForFinished(10000));
            EXPECT_EQ(m_server.exitCode(), 0) << m_server.readAllStandardError().constData();
        }
    }

    QString cachePath() const { return m_dir.filePath(QStringLiteral("cache.db")); }
    QString kubeconfig() const { return m_dir.filePath(QStringLiteral("kubeconfig")); }

    ProcessRun run(const QString &program, const QStringList &arguments)
    {
        QProcess process;
        process.start(program, arguments);
        ProcessRun result;
        if (!process.waitForFinished(60000)) {
            process.kill();
            process.waitForFinished();
            result.err = QStringLiteral("timed out");
            return result;
        }
        result.exitCode = process.exitCode();
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    // kubectl with our kubeconfig and a fresh discovery cache, so stale discovery hides nothing.
    ProcessRun kubectl(QStringList arguments)
    {
        arguments << QStringLiteral("--kubeconfig") << kubeconfig() << QStringLiteral("--cache-dir")
                  << m_dir.filePath(QStringLiteral("kube-cache"));
        return run(s_kubectl, arguments);
    }

    static QStringList words(const QString &line)
    {
        return line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    }

    static inline QString s_kubectl;
    QTemporaryDir m_dir;
    QProcess m_server;
};

TEST_F(KubectlTest, VersionApiResourcesGetJsonAndNotFound)
{
    const ProcessRun version = kubectl({ QStringLiteral("version") });
    EXPECT_EQ(version.exitCode, 0) << version.err.toStdString();
    EXPECT_TRUE(version.out.contains(QLatin1String("Server Version: v1.34.0")))
        << version.out.toStdString();

    const ProcessRun resources = kubectl(
        { QStringLiteral("api-resources"), QStringLiteral("--api-group=resource.k8s.io") });
    ASSERT_EQ(resources.exitCode, 0) << resources.err.toStdString();
    bool sawSlices = false, sawClaims = false;
    for (const QString &line : resources.out.split(QLatin1Char('\n'))) {
        const QStringList cells = words(line);
        if (cells.value(0) == QLatin1String("resourceslices"))
            sawSlices = cells.mid(1)
                == QStringList({ QStringLiteral("resource.k8s.io/v1"), QStringLiteral("false"),
                    QStringLiteral("ResourceSlice") });
        if (cells.value(0) == QLatin1String("resourceclaims"))
            sawClaims = cells.mid(1)
                == QStringList({ QStringLiteral("resource.k8s.io/v1"), QStringLiteral("true"),
                    QStringLiteral("ResourceClaim") });
    }
    EXPECT_TRUE(sawSlices && sawClaims) << resources.out.toStdString();

    const ProcessRun table = kubectl({ QStringLiteral("get"), QStringLiteral("resourceslices") });
    ASSERT_EQ(table.exitCode, 0) << table.err.toStdString();
    const QStringList lines = table.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 3) << table.out.toStdString();
    EXPECT_EQ(words(lines[0]),
        QStringList({ QStringLiteral("NAME"), QStringLiteral("NODE"), QStringLiteral("DRIVER"),
            QStringLiteral("POOL"), QStringLiteral("AGE") }));
    EXPECT_EQ(words(lines[1]).mid(0, 4),
        QStringList({ QStringLiteral("node-1-gpu"), QStringLiteral("node-1"),
            QStringLiteral("gpu.example.com"), QStringLiteral("node-1-gpus") }));

    const ProcessRun claims = kubectl(
        { QStringLiteral("get"), QStringLiteral("resourceclaims"), QStringLiteral("-A") });
    ASSERT_EQ(claims.exitCode, 0) << claims.err.toStdString();
    EXPECT_EQ(words(claims.out.section(QLatin1Char('\n'), 0, 0)),
        QStringList({ QStringLiteral("NAMESPACE"), QStringLiteral("NAME"), QStringLiteral("STATE"),
            QStringLiteral("AGE") }));
    EXPECT_TRUE(claims.out.contains(QLatin1String("ml "))) << claims.out.toStdString();

    const ProcessRun json = kubectl({ QStringLiteral("get"), QStringLiteral("resourceslices"),
        QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(json.exitCode, 0) << json.err.toStdString();
    const nlohmann::json list = nlohmann::json::parse(json.out.toStdString(), nullptr, false);
    ASSERT_TRUE(list.is_object()) << json.out.toStdString();
    EXPECT_EQ(list["kind"], "List");
    ASSERT_EQ(list["items"].size(), 2u);
    EXPECT_EQ(list["items"][0]["kind"], "ResourceSlice");
    EXPECT_EQ(list["items"][0]["spec"]["nodeName"], "node-1");

    const ProcessRun chunked = kubectl({ QStringLiteral("get"), QStringLiteral("resourceslices"),
        QStringLiteral("--chunk-size=1"), QStringLiteral("-o"), QStringLiteral("name") });
    EXPECT_EQ(chunked.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 2)
        << chunked.out.toStdString() << chunked.err.toStdString();

    const ProcessRun missing
        = kubectl({ QStringLiteral("get"), QStringLiteral("deviceclass"), QStringLiteral("nope") });
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_TRUE(missing.err.contains(QLatin1String(
        "Error from server (NotFound): deviceclasses.resource.k8s.io \"nope\" not found")))
        << missing.err.toStdString();

    const ProcessRun denied = kubectl({ QStringLiteral("delete"), QStringLiteral("deviceclass"),
        QStringLiteral("gpu.example.com") });
    EXPECT_NE(denied.exitCode, 0);
    EXPECT_TRUE(denied.err.contains(QLatin1String("MethodNotAllowed"))) << denied.err.toStdString();
}

TEST_F(KubectlTest, GetWatchSeesAChangeImportedByAnotherProcess)
{
    QProcess watch;
    watch.start(s_kubectl,
        { QStringLiteral("get"), QStringLiteral("resourceslices"), QStringLiteral("-w"),
            QStringLiteral("--kubeconfig"), kubeconfig(), QStringLiteral("--cache-dir"),
            m_dir.filePath(QStringLiteral("kube-cache")) });
    ASSERT_TRUE(watch.waitForStarted());
    QByteArray printed;
    auto waitFor = [&](const QByteArray &needle) {
        return test::spinUntil(
            [&] {
                watch.waitForReadyRead(50);
                printed += watch.readAllStandardOutput();
                return printed.contains(needle);
            },
            30000);
    };
    ASSERT_TRUE(waitFor("node-2-gpus"))
        << printed.constData() << watch.readAllStandardError().constData();

    QFile changed(m_dir.filePath(QStringLiteral("changed.yaml")));
    ASSERT_TRUE(changed.open(QIODevice::WriteOnly));
    changed.write(R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-2-gpu, uid: s-2, resourceVersion: "9", creationTimestamp: "2026-11-30T07:00:00Z"}
spec:
  driver: gpu.example.com
  nodeName: node-2
  pool: {name: node-2-pool-b, generation: 2, resourceSliceCount: 1}
  devices:
  - name: gpu-0
)");
    changed.close();
    const ProcessRun imported = run(QStringLiteral(DRA_DRACTL),
        { QStringLiteral("import"), QStringLiteral("--cache"), cachePath(),
            QStringLiteral("--cluster"), QStringLiteral("lab"), changed.fileName() });
    ASSERT_EQ(imported.exitCode, 0) << imported.err.toStdString();
    EXPECT_TRUE(waitFor("node-2-pool-b"))
        << printed.constData() << watch.readAllStandardError().constData();
    // The list printed each slice once; the watch adds only the change.
    EXPECT_EQ(printed.count("node-1-gpu "), 1) << printed.constData();
    watch.kill();
    watch.waitForFinished();
}

// The official Python client (Debian's python3-kubernetes) through CustomObjectsApi: a list, a
// watch that ends at timeoutSeconds (booleans sent as "True"), a 404 and /version/.
TEST_F(KubectlTest, PythonClientListsWatchesAndGets)
{
    const QString python = QStringLiteral("/usr/bin/python3");
    if (run(python, { QStringLiteral("-c"), QStringLiteral("import kubernetes") }).exitCode != 0)
        GTEST_SKIP() << "python3-kubernetes is not installed";
    const QString script = QStringLiteral(R"(
import sys, urllib3
from kubernetes import client, config, watch
urllib3.disable_warnings()
config.load_kube_config(sys.argv[1])
api = client.CustomObjectsApi()
listed = api.list_cluster_custom_object("resource.k8s.io", "v1", "resourceslices")
print("list", ",".join(i["metadata"]["name"] for i in listed["items"]))
events = [e["type"] + ":" + e["object"]["metadata"]["name"] for e in watch.Watch().stream(
    api.list_cluster_custom_object, "resource.k8s.io", "v1", "resourceslices",
    timeout_seconds=1, resource_version="0", allow_watch_bookmarks=True)]
print("watch", ",".join(events))
try:
    api.get_cluster_custom_object("resource.k8s.io", "v1", "deviceclasses", "nope")
except client.ApiException as e:
    print("get", e.status)
print("version", client.VersionApi().get_code().git_version)
)");
    const ProcessRun result = run(python, { QStringLiteral("-c"), script, kubeconfig() });
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    EXPECT_TRUE(result.out.contains(QLatin1String("list node-1-gpu,node-2-gpu\n")))
        << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(QLatin1String("watch ADDED:node-1-gpu,ADDED:node-2-gpu\n")))
        << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(QLatin1String("get 404\n"))) << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(QLatin1String("version v1.34.0\n")))
        << result.out.toStdString();
}

} // namespace
} // namespace dra::server
