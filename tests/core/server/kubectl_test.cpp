// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The real kubectl against `dractl serve` over TLS with a bearer token.
#include <memory>
#include <vector>

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/http_test_client.h"
#include "tests/core/server/test_certificates.h"

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

// Runs `dractl serve` (with the arguments a test gives) and kubectl against it, each with its
// own config folder and discovery cache.
class KubectlHarness : public testing::Test
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
    }

    // Starts the server and waits for the lines it prints once it listens.
    void startServer(QStringList arguments)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        m_server.setProcessEnvironment(env);
        arguments << QStringLiteral("--listen") << QStringLiteral("127.0.0.1:0")
                  << QStringLiteral("--write-kubeconfig") << kubeconfig();
        m_server.start(
            QStringLiteral(DRA_DRACTL), QStringList { QStringLiteral("serve") } + arguments);
        ASSERT_TRUE(m_server.waitForStarted());
        ASSERT_TRUE(test::spinUntil(
            [&] {
                m_server.waitForReadyRead(50);
                m_printed += m_server.readAllStandardOutput();
                return m_printed.contains("kubeconfig:")
                    || m_server.state() == QProcess::NotRunning;
            },
            30000))
            << m_printed.constData();
        ASSERT_TRUE(m_printed.contains("port: "))
            << m_printed.constData() << m_server.readAllStandardError().constData();
        EXPECT_TRUE(m_printed.contains("https://127.0.0.1:"));
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

    QString writeFile(const QString &name, const QByteArray &text)
    {
        QFile file(m_dir.filePath(name));
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text);
        return file.fileName();
    }

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

    QStringList kubectlArguments(QStringList arguments) const
    {
        return arguments << QStringLiteral("--kubeconfig") << kubeconfig()
                         << QStringLiteral("--cache-dir")
                         << m_dir.filePath(QStringLiteral("kube-cache"));
    }

    // kubectl with our kubeconfig and a fresh discovery cache, so stale discovery hides nothing.
    ProcessRun kubectl(QStringList arguments)
    {
        return run(s_kubectl, kubectlArguments(arguments));
    }

    static QStringList words(const QString &line)
    {
        return line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    }

    static inline QString s_kubectl;
    QTemporaryDir m_dir;
    QProcess m_server;
    QByteArray m_printed;
};

// The offline mode: an imported cache, read-only.
class KubectlTest : public KubectlHarness
{
protected:
    void SetUp() override
    {
        KubectlHarness::SetUp();
        if (IsSkipped() || HasFatalFailure())
            return;
        const QString fixture = writeFile(QStringLiteral("fixture.yaml"), kFixture);
        const ProcessRun imported = run(QStringLiteral(DRA_DRACTL),
            { QStringLiteral("import"), QStringLiteral("--cache"), cachePath(),
                QStringLiteral("--cluster"), QStringLiteral("lab"), fixture });
        ASSERT_EQ(imported.exitCode, 0) << imported.err.toStdString();
        startServer({ QStringLiteral("--cache"), cachePath() });
        // The secrets and the kubeconfig are for the owner only.
        EXPECT_EQ(
            QFile::permissions(m_dir.filePath(QStringLiteral("config/draconsole/serve/token")))
                & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
            QFileDevice::Permissions());
        EXPECT_EQ(
            QFile::permissions(kubeconfig()) & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
            QFileDevice::Permissions());
    }
};

// `kubectl auth can-i` (a protobuf SelfSubjectAccessReview): an offline server lets its user
// read everything and write nothing.
TEST_F(KubectlTest, AuthCanIReadButNotWrite)
{
    const ProcessRun read = kubectl({ QStringLiteral("auth"), QStringLiteral("can-i"),
        QStringLiteral("list"), QStringLiteral("resourceslices.resource.k8s.io") });
    EXPECT_EQ(read.exitCode, 0) << read.err.toStdString();
    EXPECT_EQ(read.out.trimmed(), QStringLiteral("yes"));
    const ProcessRun write = kubectl({ QStringLiteral("auth"), QStringLiteral("can-i"),
        QStringLiteral("delete"), QStringLiteral("resourceclaims.resource.k8s.io"),
        QStringLiteral("-n"), QStringLiteral("ml") });
    EXPECT_EQ(write.exitCode, 1) << write.err.toStdString();
    EXPECT_TRUE(write.out.startsWith(QStringLiteral("no - the server is read-only")))
        << write.out.toStdString();
}

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

// The demo cluster: `dractl serve --demo`, writable, with the test hooks.
class KubectlDemoTest : public KubectlHarness
{
protected:
    void SetUp() override
    {
        KubectlHarness::SetUp();
        if (IsSkipped() || HasFatalFailure())
            return;
        startServer({ QStringLiteral("--demo"), QStringLiteral("--test-hooks") });
        EXPECT_TRUE(m_printed.contains("mode: demo cluster, writable")) << m_printed.constData();
        EXPECT_TRUE(m_printed.contains("context demo")) << m_printed.constData();
    }

    // Runs kubectl and expects success, returning its output.
    QString ok(const QStringList &arguments)
    {
        const ProcessRun result = kubectl(arguments);
        EXPECT_EQ(result.exitCode, 0) << arguments.join(QLatin1Char(' ')).toStdString() << "\n"
                                      << result.err.toStdString();
        return result.out;
    }

    nlohmann::json getJson(const QStringList &arguments)
    {
        return nlohmann::json::parse(
            ok(QStringList(arguments) << QStringLiteral("-o") << QStringLiteral("json"))
                .toStdString(),
            nullptr, false);
    }
};

constexpr const char *kClaimYaml = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: c1
  namespace: team-a
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.nvidia.com
)";

TEST_F(KubectlDemoTest, CreateLabelAnnotatePatchDescribeAndDelete)
{
    EXPECT_TRUE(
        ok({ QStringLiteral("version") }).contains(QLatin1String("Server Version: v1.36.0")));
    EXPECT_TRUE(
        ok({ QStringLiteral("create"), QStringLiteral("namespace"), QStringLiteral("team-a") })
            .contains(QLatin1String("namespace/team-a created")));
    const QString claim = writeFile(QStringLiteral("claim.yaml"), kClaimYaml);
    EXPECT_TRUE(ok({ QStringLiteral("create"), QStringLiteral("-f"), claim })
                    .contains(QLatin1String("resourceclaim.resource.k8s.io/c1 created")));
    const QStringList target { QStringLiteral("resourceclaim"), QStringLiteral("c1"),
        QStringLiteral("-n"), QStringLiteral("team-a") };
    EXPECT_TRUE(ok(QStringList { QStringLiteral("label") } + target
        + QStringList { QStringLiteral("owner=alice") })
                    .contains(QLatin1String("labeled")));
    EXPECT_TRUE(ok(QStringList { QStringLiteral("annotate") } + target
        + QStringList { QStringLiteral("note=hi") })
                    .contains(QLatin1String("annotated")));
    EXPECT_TRUE(ok(QStringList { QStringLiteral("patch") } + target
        + QStringList { QStringLiteral("--type=strategic"),
            QStringLiteral("-p={\"metadata\":{\"labels\":{\"tier\":\"gold\"}}}") })
                    .contains(QLatin1String("patched")));
    EXPECT_TRUE(ok(QStringList { QStringLiteral("patch") } + target
        + QStringList { QStringLiteral("--type=json"),
            QStringLiteral("-p=[{\"op\":\"replace\",\"path\":\"/metadata/labels/"
                           "owner\",\"value\":\"bob\"}]") })
                    .contains(QLatin1String("patched")));
    EXPECT_TRUE(ok({ QStringLiteral("patch"), QStringLiteral("deviceclass"),
                       QStringLiteral("gpu.nvidia.com"), QStringLiteral("--type=merge"),
                       QStringLiteral("-p={\"metadata\":{\"labels\":{\"reviewed\":\"yes\"}}}") })
                    .contains(QLatin1String("patched")));

    const nlohmann::json object = getJson(QStringList { QStringLiteral("get") } + target);
    EXPECT_EQ(
        object["metadata"]["labels"], nlohmann::json({ { "owner", "bob" }, { "tier", "gold" } }));
    EXPECT_EQ(object["metadata"]["annotations"]["note"], "hi");
    EXPECT_EQ(object["spec"]["devices"]["requests"][0]["exactly"]["count"], 1);

    const QString described = ok(QStringList { QStringLiteral("describe") } + target);
    EXPECT_TRUE(
        described.contains(QLatin1String("Name:")) && described.contains(QLatin1String("c1")))
        << described.toStdString();
    EXPECT_TRUE(described.contains(QLatin1String("owner=bob"))) << described.toStdString();
    EXPECT_TRUE(described.contains(QLatin1String("Device Class Name:  gpu.nvidia.com")))
        << described.toStdString();

    EXPECT_TRUE(ok(QStringList { QStringLiteral("delete") } + target)
                    .contains(QLatin1String("resourceclaim.resource.k8s.io \"c1\" deleted")));
    const ProcessRun gone = kubectl(QStringList { QStringLiteral("get") } + target);
    EXPECT_EQ(gone.exitCode, 1);
    EXPECT_TRUE(gone.err.contains(QLatin1String("NotFound"))) << gone.err.toStdString();
}

constexpr const char *kRolloutObjectsYaml = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: llm-canary
  namespace: inference
spec:
  replicas: 2
  selector:
    matchLabels: {app: llm-canary}
  template:
    metadata:
      labels: {app: llm-canary}
    spec:
      containers:
      - name: server
        image: vllm/vllm-openai:v0.8.5
        resources:
          limits: {nvidia.com/gpu: 1}
---
apiVersion: v1
kind: Service
metadata:
  name: llm-canary
  namespace: inference
spec:
  selector: {app: llm-canary}
  ports:
  - {name: http, port: 80, targetPort: 8080}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: llm-canary
  namespace: inference
spec:
  parentRefs:
  - {name: public}
  rules:
  - backendRefs:
    - {name: llm-canary, port: 80, weight: 95}
    - {name: llm-canary-dra, port: 80, weight: 5}
)";

// What a rollout changes, through kubectl as an admin would (beside the demo's own
// inference/llm-server): Deployments, Services and
// HTTPRoutes are served, listed with kubectl's columns, applied, explained and scaled by patch.
TEST_F(KubectlDemoTest, RolloutKindsAreServedAppliedAndExplained)
{
    const QString resources = ok({ QStringLiteral("api-resources") });
    EXPECT_TRUE(resources.contains(QRegularExpression(
        QStringLiteral("deployments\\s+deploy\\s+apps/v1\\s+true\\s+Deployment"))))
        << resources.toStdString();
    EXPECT_TRUE(resources.contains(
        QRegularExpression(QStringLiteral("httproutes\\s+gateway.networking.k8s.io/v1"))))
        << resources.toStdString();
    const QString file = writeFile(QStringLiteral("rollout-objects.yaml"), kRolloutObjectsYaml);
    const QString applied = ok(
        { QStringLiteral("apply"), QStringLiteral("--server-side"), QStringLiteral("-f"), file });
    EXPECT_TRUE(applied.contains(QLatin1String("deployment.apps/llm-canary serverside-applied")))
        << applied.toStdString();
    EXPECT_TRUE(applied.contains(
        QLatin1String("httproute.gateway.networking.k8s.io/llm-canary serverside-applied")))
        << applied.toStdString();

    const QString table = ok({ QStringLiteral("get"), QStringLiteral("deploy"),
        QStringLiteral("-n"), QStringLiteral("inference") });
    EXPECT_TRUE(table.contains(
        QRegularExpression(QStringLiteral("NAME\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+AGE"))))
        << table.toStdString();
    EXPECT_TRUE(table.contains(QRegularExpression(QStringLiteral("llm-canary\\s+0/2"))))
        << table.toStdString();

    ok({ QStringLiteral("patch"), QStringLiteral("deployment"), QStringLiteral("llm-canary"),
        QStringLiteral("-n"), QStringLiteral("inference"), QStringLiteral("--type=merge"),
        QStringLiteral("-p={\"spec\":{\"replicas\":0}}") });
    const nlohmann::json deployment = getJson({ QStringLiteral("get"), QStringLiteral("deployment"),
        QStringLiteral("llm-canary"), QStringLiteral("-n"), QStringLiteral("inference") });
    EXPECT_EQ(deployment["spec"]["replicas"], 0);
    EXPECT_EQ(deployment["metadata"]["generation"], 2);

    const nlohmann::json route = getJson({ QStringLiteral("get"), QStringLiteral("httproute"),
        QStringLiteral("llm-canary"), QStringLiteral("-n"), QStringLiteral("inference") });
    EXPECT_EQ(route["spec"]["rules"][0]["backendRefs"][1]["weight"], 5);
    const QString explained = ok(
        { QStringLiteral("explain"), QStringLiteral("httproute.spec.rules.backendRefs.weight") });
    EXPECT_TRUE(explained.contains(QLatin1String("Share of the rule's traffic")))
        << explained.toStdString();
    EXPECT_TRUE(ok({ QStringLiteral("get"), QStringLiteral("svc"), QStringLiteral("-n"),
                       QStringLiteral("inference") })
                    .contains(QLatin1String("80/TCP")));
}

constexpr const char *kTemplateYaml = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: %1
  namespace: training
  labels:
    team: %2
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          count: %3
)";

TEST_F(KubectlDemoTest, ServerSideApplyDryRunConflictsAndExplain)
{
    auto templateFile = [&](const char *name, const char *team, int count) {
        return writeFile(QStringLiteral("%1-%2.yaml").arg(QLatin1String(name), QLatin1String(team)),
            QString::fromLatin1(kTemplateYaml)
                .arg(QLatin1String(name), QLatin1String(team))
                .arg(count)
                .toUtf8());
    };
    const QString valid = templateFile("gpu-template", "a", 2);
    const ProcessRun dry = kubectl({ QStringLiteral("apply"), QStringLiteral("--server-side"),
        QStringLiteral("--dry-run=server"), QStringLiteral("-f"), valid });
    ASSERT_EQ(dry.exitCode, 0) << dry.err.toStdString();
    EXPECT_TRUE(dry.out.contains(QLatin1String(
        "resourceclaimtemplate.resource.k8s.io/gpu-template serverside-applied (server dry run)")))
        << dry.out.toStdString();
    EXPECT_EQ(kubectl({ QStringLiteral("get"), QStringLiteral("resourceclaimtemplate"),
                          QStringLiteral("gpu-template"), QStringLiteral("-n"),
                          QStringLiteral("training") })
                  .exitCode,
        1);

    const ProcessRun invalid = kubectl({ QStringLiteral("apply"), QStringLiteral("--server-side"),
        QStringLiteral("--dry-run=server"), QStringLiteral("-f"), templateFile("bad", "a", 0) });
    EXPECT_NE(invalid.exitCode, 0);
    EXPECT_TRUE(invalid.err.contains(QLatin1String("The ResourceClaimTemplate \"bad\" is invalid: "
                                                   "spec.spec.devices.requests[0].exactly.count: "
                                                   "Invalid value: 0: must be greater than zero")))
        << invalid.err.toStdString();

    EXPECT_TRUE(ok(
        { QStringLiteral("apply"), QStringLiteral("--server-side"), QStringLiteral("-f"), valid })
                    .contains(QLatin1String("serverside-applied")));
    const QString other = templateFile("gpu-template", "b", 2);
    const ProcessRun conflict = kubectl({ QStringLiteral("apply"), QStringLiteral("--server-side"),
        QStringLiteral("--field-manager=ci"), QStringLiteral("-f"), other });
    EXPECT_NE(conflict.exitCode, 0);
    EXPECT_TRUE(conflict.err.contains(QLatin1String(
        "Apply failed with 1 conflict: conflict with \"kubectl\": .metadata.labels.team")))
        << conflict.err.toStdString();
    ok({ QStringLiteral("apply"), QStringLiteral("--server-side"),
        QStringLiteral("--field-manager=ci"), QStringLiteral("--force-conflicts"),
        QStringLiteral("-f"), other });
    EXPECT_EQ(ok({ QStringLiteral("get"), QStringLiteral("resourceclaimtemplate"),
                  QStringLiteral("gpu-template"), QStringLiteral("-n"), QStringLiteral("training"),
                  QStringLiteral("-o"), QStringLiteral("jsonpath={.metadata.labels.team}") }),
        QStringLiteral("b"));

    // Client-side apply needs the OpenAPI documents.
    const QString deviceClass = writeFile(QStringLiteral("class.yaml"),
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: big.example.com\n"
        "spec:\n  selectors:\n  - cel:\n      expression: device.driver == 'gpu.nvidia.com'\n");
    EXPECT_TRUE(
        ok({ QStringLiteral("apply"), QStringLiteral("-f"), deviceClass })
            .contains(QLatin1String("deviceclass.resource.k8s.io/big.example.com created")));
    writeFile(QStringLiteral("class.yaml"),
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: big.example.com\n"
        "  labels:\n    size: big\nspec:\n  selectors:\n  - cel:\n      expression: device.driver "
        "== 'gpu.nvidia.com'\n");
    EXPECT_TRUE(
        ok({ QStringLiteral("apply"), QStringLiteral("-f"), deviceClass })
            .contains(QLatin1String("deviceclass.resource.k8s.io/big.example.com configured")));

    const QString explained
        = ok({ QStringLiteral("explain"), QStringLiteral("resourceclaims.spec.devices.requests") });
    EXPECT_TRUE(explained.contains(QLatin1String("KIND:"))
        && explained.contains(QLatin1String("ResourceClaim")))
        << explained.toStdString();
    EXPECT_TRUE(explained.contains(QLatin1String("exactly"))) << explained.toStdString();
    EXPECT_TRUE(explained.contains(QLatin1String("firstAvailable"))) << explained.toStdString();
}

TEST_F(KubectlDemoTest, GetWatchSeesAChangeMadeByAnotherClient)
{
    QProcess watch;
    watch.start(s_kubectl,
        kubectlArguments({ QStringLiteral("get"), QStringLiteral("deviceclasses"),
            QStringLiteral("-w"), QStringLiteral("--output-watch-events") }));
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
    ASSERT_TRUE(waitFor("gpu.nvidia.com"))
        << printed.constData() << watch.readAllStandardError().constData();
    ok({ QStringLiteral("label"), QStringLiteral("deviceclass"), QStringLiteral("mig.nvidia.com"),
        QStringLiteral("watched=yes") });
    EXPECT_TRUE(waitFor("MODIFIED")) << printed.constData();
    EXPECT_TRUE(QString::fromUtf8(printed).contains(
        QRegularExpression(QStringLiteral("MODIFIED\\s+mig\\.nvidia\\.com"))))
        << printed.constData();
    watch.kill();
    watch.waitForFinished();
}

// A resourceVersion newer than the server's (a client of a restored cluster): kubectl retries
// as the Retry-After says, then prints what it prints for kube-apiserver's answer.
TEST_F(KubectlDemoTest, TooLargeResourceVersionReadsAsKubeApiserverSaysIt)
{
    // No waiting for the resourceVersion to arrive: kubectl's ten retries a second apart are
    // the time this test takes.
    const QString empty = writeFile(QStringLiteral("empty.json"), "{}");
    ok({ QStringLiteral("create"), QStringLiteral("--raw"),
        QStringLiteral("/draconsole/test/too-large-wait?millis=0"), QStringLiteral("-f"), empty });
    const QString ahead = QStringLiteral("999999");
    const QStringList targets {
        QStringLiteral("/apis/resource.k8s.io/v1/resourceclaims?watch=true&resourceVersion=")
            + ahead,
        QStringLiteral("/apis/resource.k8s.io/v1/resourceclaims?resourceVersionMatch=NotOlderThan&"
                       "resourceVersion=")
            + ahead,
    };
    // Both at once: each takes kubectl's retries.
    std::vector<std::unique_ptr<QProcess>> runs;
    for (const QString &target : targets) {
        auto process = std::make_unique<QProcess>();
        process->start(s_kubectl,
            kubectlArguments({ QStringLiteral("get"), QStringLiteral("--raw"), target }));
        ASSERT_TRUE(process->waitForStarted());
        runs.push_back(std::move(process));
    }
    for (size_t i = 0; i < runs.size(); ++i) {
        QProcess &process = *runs[i];
        ASSERT_TRUE(process.waitForFinished(120'000)) << targets[int(i)].toStdString();
        const QString err = QString::fromUtf8(process.readAllStandardError());
        EXPECT_EQ(process.exitCode(), 1) << err.toStdString();
        EXPECT_TRUE(err.contains(
            QStringLiteral("Error from server (Timeout): Timeout: Too large resource version: "
                           "999999, current: ")))
            << targets[int(i)].toStdString() << "\n"
            << err.toStdString();
    }
}

// The Python client writes through CustomObjectsApi: create, patch, get, delete.
TEST_F(KubectlDemoTest, PythonClientCreatesPatchesAndDeletes)
{
    const QString python = QStringLiteral("/usr/bin/python3");
    if (run(python, { QStringLiteral("-c"), QStringLiteral("import kubernetes") }).exitCode != 0)
        GTEST_SKIP() << "python3-kubernetes is not installed";
    const QString script = QStringLiteral(R"(
import sys, urllib3
from kubernetes import client, config
urllib3.disable_warnings()
config.load_kube_config(sys.argv[1])
api = client.CustomObjectsApi()
body = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
        "metadata": {"name": "py-claim"},
        "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com"}}]}}}
created = api.create_namespaced_custom_object("resource.k8s.io", "v1", "training", "resourceclaims", body)
print("created", created["metadata"]["name"], created["metadata"]["generation"])
patched = api.patch_namespaced_custom_object("resource.k8s.io", "v1", "training", "resourceclaims",
    "py-claim", {"metadata": {"labels": {"by": "python"}}})
print("patched", patched["metadata"]["labels"]["by"])
try:
    api.create_namespaced_custom_object("resource.k8s.io", "v1", "training", "resourceclaims", body)
except client.ApiException as e:
    print("again", e.status)
api.delete_namespaced_custom_object("resource.k8s.io", "v1", "training", "resourceclaims", "py-claim")
try:
    api.get_namespaced_custom_object("resource.k8s.io", "v1", "training", "resourceclaims", "py-claim")
except client.ApiException as e:
    print("gone", e.status)
)");
    const ProcessRun result = run(python, { QStringLiteral("-c"), script, kubeconfig() });
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    EXPECT_TRUE(result.out.contains(QLatin1String("created py-claim 1\n")))
        << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(QLatin1String("patched python\n"))) << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(QLatin1String("again 409\n"))) << result.out.toStdString();
    EXPECT_TRUE(result.out.contains(QLatin1String("gone 404\n"))) << result.out.toStdString();
}

// --client-ca: kubectl with a client certificate (and no token) is its CN, in its O groups.
TEST_F(KubectlHarness, ClientCertificatesSignedByTheClientCaAuthenticate)
{
    const test::Pem ca = test::makeCertificate("team CA", {}, nullptr);
    const test::Pem alice = test::makeCertificate("alice", { "ml-team" }, &ca);
    startServer({ QStringLiteral("--demo"), QStringLiteral("--client-ca"),
        writeFile(QStringLiteral("ca.pem"), ca.certificate) });
    QFile written(kubeconfig());
    ASSERT_TRUE(written.open(QIODevice::ReadOnly));
    QString config = QString::fromUtf8(written.readAll());
    config.replace(QRegularExpression(QStringLiteral("\n    token: [^\n]*")),
        QStringLiteral("\n    client-certificate-data: %1\n    client-key-data: %2")
            .arg(QString::fromLatin1(alice.certificate.toBase64()),
                QString::fromLatin1(alice.key.toBase64())));
    writeFile(QStringLiteral("kubeconfig"), config.toUtf8());
    const ProcessRun whoami = kubectl({ QStringLiteral("auth"), QStringLiteral("whoami") });
    ASSERT_EQ(whoami.exitCode, 0) << whoami.err.toStdString();
    EXPECT_TRUE(
        QString(whoami.out).contains(QRegularExpression(QStringLiteral("Username\\s+alice"))))
        << whoami.out.toStdString();
    EXPECT_TRUE(whoami.out.contains(QLatin1String("ml-team"))) << whoami.out.toStdString();
    EXPECT_EQ(kubectl({ QStringLiteral("get"), QStringLiteral("deviceclasses") }).exitCode, 0);
}

} // namespace
} // namespace dra::server
