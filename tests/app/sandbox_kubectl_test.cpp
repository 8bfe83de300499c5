// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The demo cluster end to end, as a user drives it: `dractl serve --demo`, the real kubectl
// applying a Deployment and waiting for its pods to be Ready, and `dractl sandbox fault`.
#include <algorithm>
#include <map>
#include <optional>

#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QUrl>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/demo_server.h"
#include "tests/support/dractl_run.h"

namespace dra::test {
namespace {

// A one-GPU template and a Deployment of two pods using it, on the l40s-pcie preset.
constexpr const char *kWorkload = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: inference}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.nvidia.com}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: e2e-dra, namespace: inference}
spec:
  replicas: 2
  selector: {matchLabels: {app: e2e-dra}}
  template:
    metadata: {labels: {app: e2e-dra}}
    spec:
      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
      resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
      containers:
      - name: server
        image: vllm/vllm-openai:v0.8.5
        resources: {claims: [{name: gpu}]}
)";

class SandboxKubectlTest : public testing::Test
{
protected:
    void SetUp() override
    {
        m_kubectl = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
        if (m_kubectl.isEmpty())
            GTEST_SKIP() << "kubectl is not on PATH";
        ASSERT_TRUE(m_dir.isValid());
        ignoreOpenSslThreadLeaks(m_dir.path());
        m_server.emplace(m_dir.path(), m_preset, false, m_serveArguments);
        ASSERT_TRUE(m_server->waitUntilServing(60'000)) << m_server->diagnostics();
        ASSERT_TRUE(m_server->banner().contains("control plane:")) << m_server->diagnostics();
    }

    void TearDown() override
    {
        if (!m_server || m_server->process().state() == QProcess::NotRunning)
            return;
        m_server->process().terminate();
        EXPECT_TRUE(m_server->process().waitForFinished(10000));
        EXPECT_EQ(m_server->process().exitCode(), 0)
            << m_server->process().readAllStandardError().constData();
    }

    QString kubeconfig() const { return m_server->kubeconfig(); }

    DractlRun kubectl(QStringList arguments)
    {
        return kubectlRun(m_kubectl, kubeconfig(), m_dir.filePath(QStringLiteral("kube-cache")),
            std::move(arguments));
    }

    QString m_preset = QStringLiteral("l40s-pcie"); // small and quick to seed
    QStringList m_serveArguments; // more arguments of dractl serve
    QString m_kubectl;
    QTemporaryDir m_dir;
    std::optional<DemoServer> m_server;
};

TEST_F(SandboxKubectlTest, AppliedDeploymentGetsReadyPodsAndFaultsReachThem)
{
    const QString manifest
        = writeTestFile(m_dir.filePath(QStringLiteral("workload.yaml")), kWorkload);
    const DractlRun applied = kubectl({ QStringLiteral("apply"), QStringLiteral("-f"), manifest });
    ASSERT_EQ(applied.exitCode, 0) << applied.err;

    // The demo cluster is writable: the checks a rollout makes before it mutates say yes.
    const DractlRun canPatch
        = kubectl({ QStringLiteral("auth"), QStringLiteral("can-i"), QStringLiteral("patch"),
            QStringLiteral("deployments"), QStringLiteral("-n"), QStringLiteral("inference") });
    EXPECT_EQ(canPatch.exitCode, 0) << canPatch.err;
    EXPECT_EQ(canPatch.out, "yes\n");

    const DractlRun ready
        = kubectl({ QStringLiteral("wait"), QStringLiteral("--for=condition=Ready"),
            QStringLiteral("pod"), QStringLiteral("-l"), QStringLiteral("app=e2e-dra"),
            QStringLiteral("-n"), QStringLiteral("inference"), QStringLiteral("--timeout=60s") });
    ASSERT_EQ(ready.exitCode, 0) << ready.out << ready.err;
    EXPECT_NE(ready.out.find("condition met"), std::string::npos) << ready.out;

    const DractlRun claims = kubectl({ QStringLiteral("get"), QStringLiteral("resourceclaims"),
        QStringLiteral("-n"), QStringLiteral("inference"), QStringLiteral("-o"),
        QStringLiteral("jsonpath={range .items[*]}{.metadata.name} "
                       "{.status.devices[0].data.uuid}{\"\\n\"}{end}") });
    ASSERT_EQ(claims.exitCode, 0) << claims.err;
    EXPECT_NE(claims.out.find("e2e-dra-"), std::string::npos) << claims.out;
    EXPECT_NE(claims.out.find(" GPU-"), std::string::npos) << claims.out;
    // The console's claim details carry what the driver reported of each device.
    const std::string claimName = claims.out.substr(claims.out.find("e2e-dra-"),
        claims.out.find(' ', claims.out.find("e2e-dra-")) - claims.out.find("e2e-dra-"));
    const DractlRun details = kubectl({ QStringLiteral("get"), QStringLiteral("--raw"),
        QStringLiteral("/console/v1/claims/inference/") + QString::fromStdString(claimName) });
    ASSERT_EQ(details.exitCode, 0) << details.err;
    const nlohmann::json claimDetails = nlohmann::json::parse(details.out);
    ASSERT_EQ(claimDetails["deviceStatus"].size(), 1u) << details.out;
    EXPECT_TRUE(
        claimDetails["deviceStatus"][0]["data"]["uuid"].get<std::string>().starts_with("GPU-"))
        << details.out;

    // A fault injected through dractl reaches the running pods: they stop being Ready.
    const DractlRun added = dractl({ QStringLiteral("sandbox"), QStringLiteral("fault"),
        QStringLiteral("add"), QStringLiteral("never-ready"), QStringLiteral("--deployment"),
        QStringLiteral("e2e-dra"), QStringLiteral("-n"), QStringLiteral("inference"),
        QStringLiteral("--kubeconfig"), kubeconfig() });
    ASSERT_EQ(added.exitCode, 0) << added.err;
    const DractlRun listed = dractl({ QStringLiteral("sandbox"), QStringLiteral("fault"),
        QStringLiteral("list"), QStringLiteral("--kubeconfig"), kubeconfig() });
    EXPECT_NE(listed.out.find("never-ready"), std::string::npos) << listed.out << listed.err;
    const DractlRun unready
        = kubectl({ QStringLiteral("wait"), QStringLiteral("--for=condition=Ready=false"),
            QStringLiteral("pod"), QStringLiteral("-l"), QStringLiteral("app=e2e-dra"),
            QStringLiteral("-n"), QStringLiteral("inference"), QStringLiteral("--timeout=30s") });
    EXPECT_EQ(unready.exitCode, 0) << unready.out << unready.err;
    const DractlRun cleared = dractl({ QStringLiteral("sandbox"), QStringLiteral("fault"),
        QStringLiteral("clear"), QStringLiteral("--kubeconfig"), kubeconfig() });
    EXPECT_EQ(cleared.exitCode, 0) << cleared.err;
    EXPECT_NE(cleared.out.find("removed 1"), std::string::npos) << cleared.out;

    // kubectl scale goes through the scale subresource; scaling down deletes a pod.
    const DractlRun scaled
        = kubectl({ QStringLiteral("scale"), QStringLiteral("deployment/e2e-dra"),
            QStringLiteral("-n"), QStringLiteral("inference"), QStringLiteral("--replicas=1") });
    ASSERT_EQ(scaled.exitCode, 0) << scaled.err;
    DractlRun pods;
    for (int i = 0; i < 50; ++i) {
        pods = kubectl({ QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("-n"),
            QStringLiteral("inference"), QStringLiteral("-l"), QStringLiteral("app=e2e-dra"),
            QStringLiteral("-o"), QStringLiteral("name") });
        if (std::count(pods.out.begin(), pods.out.end(), '\n') == 1)
            break;
        QThread::msleep(100);
    }
    EXPECT_EQ(std::count(pods.out.begin(), pods.out.end(), '\n'), 1) << pods.out;

    // Deleting the Deployment takes its pods and their claims with it.
    const DractlRun deleted = kubectl({ QStringLiteral("delete"), QStringLiteral("deployment"),
        QStringLiteral("e2e-dra"), QStringLiteral("-n"), QStringLiteral("inference") });
    ASSERT_EQ(deleted.exitCode, 0) << deleted.err;
    const DractlRun gone = kubectl({ QStringLiteral("wait"), QStringLiteral("--for=delete"),
        QStringLiteral("pod"), QStringLiteral("-l"), QStringLiteral("app=e2e-dra"),
        QStringLiteral("-n"), QStringLiteral("inference"), QStringLiteral("--timeout=30s") });
    EXPECT_EQ(gone.exitCode, 0) << gone.out << gone.err;
}

// kubectl exec as kubectl 1.30 and later speak it (a WebSocket, v5.channel.k8s.io): the
// container lists exactly the GPU its claim holds; a command the image lacks ends with its exit
// code; exec needs create on pods/exec, which the viewer lacks; the wrong-device fault shows a
// neighbour GPU.
TEST_F(SandboxKubectlTest, KubectlExecSeesExactlyTheClaimsGpu)
{
    const QString manifest
        = writeTestFile(m_dir.filePath(QStringLiteral("workload.yaml")), kWorkload);
    ASSERT_EQ(kubectl({ QStringLiteral("apply"), QStringLiteral("-f"), manifest }).exitCode, 0);
    DractlRun ready;
    QElapsedTimer waited;
    waited.start();
    // kubectl wait finds no pods until the ReplicaSet controller has made them.
    for (;;) {
        ready = kubectl({ QStringLiteral("wait"), QStringLiteral("--for=condition=Ready"),
            QStringLiteral("pod"), QStringLiteral("-l"), QStringLiteral("app=e2e-dra"),
            QStringLiteral("-n"), QStringLiteral("inference"), QStringLiteral("--timeout=60s") });
        if (ready.exitCode == 0 || ready.err.find("no matching resources") == std::string::npos
            || waited.elapsed() > 30'000)
            break;
        QThread::msleep(200);
    }
    ASSERT_EQ(ready.exitCode, 0) << ready.out << ready.err;
    const DractlRun pods = kubectl({ QStringLiteral("get"), QStringLiteral("pods"),
        QStringLiteral("-n"), QStringLiteral("inference"), QStringLiteral("-l"),
        QStringLiteral("app=e2e-dra"), QStringLiteral("-o"),
        QStringLiteral("jsonpath={.items[0].metadata.name} "
                       "{.items[0].status.resourceClaimStatuses[0].resourceClaimName}") });
    ASSERT_EQ(pods.exitCode, 0) << pods.err;
    const QStringList names = QString::fromStdString(pods.out).split(QLatin1Char(' '));
    ASSERT_EQ(names.size(), 2) << pods.out;
    const QString pod = names[0];
    const DractlRun uuid = kubectl({ QStringLiteral("get"), QStringLiteral("resourceclaim"),
        names[1], QStringLiteral("-n"), QStringLiteral("inference"), QStringLiteral("-o"),
        QStringLiteral("jsonpath={.status.devices[0].data.uuid}") });
    ASSERT_TRUE(uuid.out.starts_with("GPU-")) << uuid.out << uuid.err;

    const auto exec = [&](QStringList command, QStringList before = {}) {
        before << QStringLiteral("exec") << QStringLiteral("-n") << QStringLiteral("inference")
               << pod << QStringLiteral("--");
        return kubectl(before + command);
    };
    const DractlRun listed = exec({ QStringLiteral("nvidia-smi"), QStringLiteral("-L") });
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    EXPECT_TRUE(listed.out.starts_with("GPU 0: NVIDIA L40S (UUID: " + uuid.out + ")\n"))
        << listed.out;
    EXPECT_EQ(std::count(listed.out.begin(), listed.out.end(), '\n'), 1) << listed.out;

    const DractlRun missing = exec({ QStringLiteral("ls") });
    EXPECT_NE(missing.exitCode, 0);
    EXPECT_NE(missing.err.find("command terminated with exit code 127"), std::string::npos)
        << missing.err;

    const DractlRun refused = exec({ QStringLiteral("nvidia-smi"), QStringLiteral("-L") },
        { QStringLiteral("--context=demo-viewer") });
    EXPECT_NE(refused.exitCode, 0);
    EXPECT_NE(refused.err.find("cannot create resource \"pods/exec\""), std::string::npos)
        << refused.err;

    ASSERT_EQ(
        dractl({ QStringLiteral("sandbox"), QStringLiteral("fault"), QStringLiteral("add"),
                   QStringLiteral("wrong-device"), QStringLiteral("--deployment"),
                   QStringLiteral("e2e-dra"), QStringLiteral("-n"), QStringLiteral("inference"),
                   QStringLiteral("--kubeconfig"), kubeconfig() })
            .exitCode,
        0);
    const DractlRun wrong = exec({ QStringLiteral("nvidia-smi"), QStringLiteral("-L") });
    ASSERT_EQ(wrong.exitCode, 0) << wrong.err;
    EXPECT_EQ(std::count(wrong.out.begin(), wrong.out.end(), '\n'), 2) << wrong.out;
    EXPECT_NE(wrong.out.find("GPU 1: NVIDIA L40S (UUID: GPU-"), std::string::npos) << wrong.out;

    // The unhealthy-device fault: the kubelet reports the pod's GPU Unhealthy, and the console's
    // lint says a claim still holds it.
    ASSERT_EQ(
        dractl({ QStringLiteral("sandbox"), QStringLiteral("fault"), QStringLiteral("add"),
                   QStringLiteral("unhealthy-device"), QStringLiteral("--deployment"),
                   QStringLiteral("e2e-dra"), QStringLiteral("-n"), QStringLiteral("inference"),
                   QStringLiteral("--kubeconfig"), kubeconfig() })
            .exitCode,
        0);
    std::string lint;
    waited.restart();
    while (
        lint.find("UnhealthyDeviceAllocated") == std::string::npos && waited.elapsed() < 20'000) {
        QThread::msleep(200);
        lint = kubectl(
            { QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/console/v1/lint") })
                   .out;
    }
    EXPECT_NE(
        lint.find("is reported Unhealthy by pod inference/" + pod.toStdString()), std::string::npos)
        << lint;
    // The node's tile in the overview counts the unhealthy device.
    const nlohmann::json overview = nlohmann::json::parse(kubectl(
        { QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/console/v1/overview") })
                                                              .out);
    const std::string podNode
        = kubectl({ QStringLiteral("get"), QStringLiteral("pod"), pod, QStringLiteral("-n"),
                      QStringLiteral("inference"), QStringLiteral("-o"),
                      QStringLiteral("jsonpath={.spec.nodeName}") })
              .out;
    int unhealthy = 0;
    for (const nlohmann::json &node : overview["nodes"])
        if (node.value("name", "") == podNode)
            unhealthy = node.value("unhealthyDevices", 0);
    EXPECT_GT(unhealthy, 0) << podNode << ": " << overview["nodes"].dump();
}

// The preset with the serving stack the demo rollout starts from (llm-server, Prometheus).
class ServingSandboxKubectlTest : public SandboxKubectlTest
{
protected:
    ServingSandboxKubectlTest() { m_preset = QStringLiteral("mixed"); }
};

// The demo's users as kubectl meets them: each context of the written kubeconfig signs in as
// its own user, and the demo's Roles and bindings decide what they see and do.
TEST_F(SandboxKubectlTest, DemoUsersSeeAndDoWhatTheirRolesAllow)
{
    const QString training = QStringLiteral("--context=demo-training");
    const QString viewer = QStringLiteral("--context=demo-viewer");
    const DractlRun whoami = kubectl({ training, QStringLiteral("auth"), QStringLiteral("whoami"),
        QStringLiteral("-o"), QStringLiteral("jsonpath={.status.userInfo.username}") });
    ASSERT_EQ(whoami.exitCode, 0) << whoami.err;
    EXPECT_EQ(whoami.out, "training-user");

    // The team member: its namespace (the context's), not the cluster's claims.
    const DractlRun own = kubectl({ training, QStringLiteral("get"),
        QStringLiteral("resourceclaims"), QStringLiteral("-o"), QStringLiteral("name") });
    EXPECT_EQ(own.exitCode, 0) << own.err;
    const DractlRun all = kubectl({ training, QStringLiteral("get"),
        QStringLiteral("resourceclaims"), QStringLiteral("-A") });
    EXPECT_NE(all.exitCode, 0) << all.out;
    EXPECT_NE(all.err.find(kTrainingUserCannotListAllClaims), std::string::npos) << all.err;
    // The cluster-scoped DRA kinds are everyone's to read.
    const DractlRun slices = kubectl({ training, QStringLiteral("get"),
        QStringLiteral("resourceslices"), QStringLiteral("-o"), QStringLiteral("name") });
    EXPECT_EQ(slices.exitCode, 0) << slices.err;
    EXPECT_NE(slices.out.find("resourceslice"), std::string::npos);
    const DractlRun canCreate = kubectl({ training, QStringLiteral("auth"), QStringLiteral("can-i"),
        QStringLiteral("create"), QStringLiteral("resourceclaimtemplates.resource.k8s.io") });
    EXPECT_EQ(canCreate.out, "yes\n") << canCreate.err;
    const DractlRun cannotElsewhere
        = kubectl({ training, QStringLiteral("auth"), QStringLiteral("can-i"),
            QStringLiteral("create"), QStringLiteral("resourceclaimtemplates.resource.k8s.io"),
            QStringLiteral("-n"), QStringLiteral("inference") });
    EXPECT_EQ(cannotElsewhere.out, "no\n") << cannotElsewhere.err;

    // The console's views show the team member what it may list, and say what was left out;
    // the admin's view of the same leaves nothing out.
    const auto consoleClaims = [this](QStringList arguments) {
        arguments << QStringLiteral("get") << QStringLiteral("--raw")
                  << QStringLiteral("/console/v1/claims");
        const DractlRun run = kubectl(arguments);
        EXPECT_EQ(run.exitCode, 0) << run.err;
        return run.exitCode == 0 ? nlohmann::json::parse(run.out) : nlohmann::json();
    };
    const nlohmann::json everything = consoleClaims({});
    EXPECT_FALSE(everything.contains("leftOut")) << everything.dump();
    const nlohmann::json shown = consoleClaims({ training });
    ASSERT_TRUE(shown.contains("claims")) << shown.dump();
    for (const nlohmann::json &claim : shown["claims"])
        EXPECT_EQ(claim["namespace"], "training") << claim.dump();
    std::size_t claimsLeftOut = 0;
    for (const nlohmann::json &left : shown["leftOut"])
        if (left["kind"] == "ResourceClaim") {
            claimsLeftOut = left["objects"].get<std::size_t>();
            EXPECT_FALSE(left["namespaces"].empty());
            for (const nlohmann::json &ns : left["namespaces"])
                EXPECT_NE(ns, "training");
        }
    EXPECT_GT(claimsLeftOut, 0u) << shown["leftOut"].dump();
    EXPECT_EQ(shown["claims"].size() + claimsLeftOut, everything["claims"].size());

    // Who may use which class is read from RBAC objects the team member may not list: the
    // access view answers from their own rules instead, and says so, rather than showing a
    // partial answer.
    const DractlRun access = kubectl({ training, QStringLiteral("get"), QStringLiteral("--raw"),
        QStringLiteral("/console/v1/access?namespace=training") });
    ASSERT_EQ(access.exitCode, 0) << access.err;
    const nlohmann::json ownRules = nlohmann::json::parse(access.out);
    EXPECT_EQ(ownRules["source"], "self-rules") << access.out;
    ASSERT_EQ(ownRules["namespaces"].size(), 1u) << access.out;
    ASSERT_EQ(ownRules["namespaces"][0]["claimAuthors"].size(), 1u) << access.out;
    EXPECT_EQ(ownRules["namespaces"][0]["claimAuthors"][0]["subject"]["name"], "training-user");

    // The viewer reads everything and writes nothing: kubectl shows the cluster's refusal.
    const DractlRun reads
        = kubectl({ viewer, QStringLiteral("get"), QStringLiteral("resourceclaims"),
            QStringLiteral("-A"), QStringLiteral("-o"), QStringLiteral("name") });
    EXPECT_EQ(reads.exitCode, 0) << reads.err;
    const std::string workload(kWorkload);
    const QString manifest = writeTestFile(
        m_dir.filePath(QStringLiteral("template.yaml")), workload.substr(0, workload.find("---")));
    const DractlRun refused
        = kubectl({ viewer, QStringLiteral("apply"), QStringLiteral("-f"), manifest });
    EXPECT_NE(refused.exitCode, 0);
    EXPECT_NE(refused.err.find("User \"viewer\" cannot"), std::string::npos) << refused.err;
    const DractlRun byAdmin = kubectl({ QStringLiteral("apply"), QStringLiteral("-f"), manifest });
    EXPECT_EQ(byAdmin.exitCode, 0) << byAdmin.err;
}

// The in-cluster mirror's manifests as a team would check them before applying: a server-side
// dry run against the demo, which serves every kind they hold with its schema, refuses a
// misspelled field, and runs the mirror's service account with the same ClusterRole.
// The teams' device quotas: served as kubectl shows them, counted by the console as the quota
// evaluator counts claims, and a claim over its namespace's limit flagged before it is applied.
TEST_F(SandboxKubectlTest, DeviceQuotasAreCountedAndAClaimOverThemIsFlagged)
{
    const DractlRun quotas = kubectl({ QStringLiteral("get"), QStringLiteral("quota"),
        QStringLiteral("-n"), QStringLiteral("training") });
    ASSERT_EQ(quotas.exitCode, 0) << quotas.err;
    EXPECT_NE(quotas.out.find("dra-devices"), std::string::npos) << quotas.out;
    EXPECT_NE(quotas.out.find("gpu.nvidia.com.deviceclass.resource.k8s.io/devices: 0/8"),
        std::string::npos)
        << quotas.out;

    // Two claims of three GPUs in training: charged six of the eight.
    const QString claims = writeTestFile(m_dir.filePath(QStringLiteral("quota-claims.yaml")),
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
        "metadata: {name: three-a, namespace: training}\n"
        "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com, "
        "count: 3}}]}}\n---\n"
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
        "metadata: {name: three-b, namespace: training}\n"
        "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com, "
        "count: 3}}]}}\n");
    const DractlRun created = kubectl({ QStringLiteral("create"), QStringLiteral("-f"), claims });
    ASSERT_EQ(created.exitCode, 0) << created.err;
    nlohmann::json used;
    QElapsedTimer waited;
    waited.start();
    do { // the console's snapshot follows the cache
        QThread::msleep(100);
        const DractlRun document = kubectl({ QStringLiteral("get"), QStringLiteral("--raw"),
            QStringLiteral("/console/v1/quota?namespace=training") });
        ASSERT_EQ(document.exitCode, 0) << document.err;
        const nlohmann::json answer = nlohmann::json::parse(document.out);
        for (const nlohmann::json &line : answer["quotas"][0]["lines"])
            if (line["resource"] == "gpu.nvidia.com.deviceclass.resource.k8s.io/devices")
                used = line["used"];
    } while (used != 6 && waited.elapsed() < 20'000);
    EXPECT_EQ(used, 6);

    // A third claim of three would pass the limit: the check says so as the API server would.
    const QString third = writeTestFile(m_dir.filePath(QStringLiteral("third.yaml")),
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
        "metadata: {name: three-c, namespace: training}\n"
        "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com, "
        "count: 3}}]}}\n");
    const DractlRun checked = kubectl({ QStringLiteral("create"), QStringLiteral("--raw"),
        QStringLiteral("/console/v1/templates/check?simulate=false"), QStringLiteral("-f"),
        third });
    ASSERT_EQ(checked.exitCode, 0) << checked.err;
    const nlohmann::json check = nlohmann::json::parse(checked.out);
    EXPECT_EQ(check["overQuota"],
        nlohmann::json::array({ "exceeded quota: dra-devices, requested: "
                                "gpu.nvidia.com.deviceclass.resource.k8s.io/devices=3, used: "
                                "gpu.nvidia.com.deviceclass.resource.k8s.io/devices=6, limited: "
                                "gpu.nvidia.com.deviceclass.resource.k8s.io/devices=8" }))
        << checked.out;

    // The classes view says per namespace what its quota allows of each class.
    const DractlRun classes = kubectl(
        { QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/console/v1/classes") });
    ASSERT_EQ(classes.exitCode, 0) << classes.err;
    std::map<std::string, int64_t> gpuLimits;
    const nlohmann::json classList = nlohmann::json::parse(classes.out);
    for (const nlohmann::json &deviceClass : classList["classes"])
        if (deviceClass["name"] == "gpu.nvidia.com")
            for (const nlohmann::json &quota : deviceClass["quota"])
                gpuLimits[quota["namespace"].get<std::string>()] = quota["hard"].get<int64_t>();
    EXPECT_EQ(gpuLimits, (std::map<std::string, int64_t> { { "batch", 2 }, { "training", 8 } }))
        << classes.out;
}

// The demo answers ResourcePoolStatusRequests as a 1.36 cluster does, kubectl reads the answer,
// and `dractl pools` and the console API set it beside the mirror's own count; a user who may
// not create requests gets ours alone, with the reason.
TEST_F(SandboxKubectlTest, PoolStatusRequestsAreAnsweredAndComparedWithTheMirror)
{
    const QString request = writeTestFile(m_dir.filePath(QStringLiteral("pools.yaml")),
        "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourcePoolStatusRequest\n"
        "metadata: {name: gpu-pools}\nspec: {driver: gpu.nvidia.com, limit: 1}\n");
    const DractlRun created = kubectl({ QStringLiteral("create"), QStringLiteral("-f"), request });
    ASSERT_EQ(created.exitCode, 0) << created.err;
    nlohmann::json status;
    QElapsedTimer waited;
    waited.start();
    while (!status.contains("poolCount") && waited.elapsed() < 20'000) {
        QThread::msleep(100);
        const DractlRun got
            = kubectl({ QStringLiteral("get"), QStringLiteral("resourcepoolstatusrequest"),
                QStringLiteral("gpu-pools"), QStringLiteral("-o"), QStringLiteral("json") });
        ASSERT_EQ(got.exitCode, 0) << got.err;
        status = nlohmann::json::parse(got.out).value("status", nlohmann::json::object());
    }
    ASSERT_TRUE(status.contains("poolCount")) << status.dump();
    EXPECT_GE(status["poolCount"].get<int>(), 1);
    ASSERT_EQ(status["pools"].size(), 1u) << "limit: 1";
    const nlohmann::json &pool = status["pools"][0];
    EXPECT_EQ(pool["driver"], "gpu.nvidia.com");
    EXPECT_GT(pool["totalDevices"].get<int>(), 0) << pool.dump();
    EXPECT_EQ(pool["availableDevices"].get<int>() + pool["allocatedDevices"].get<int>(),
        pool["totalDevices"].get<int>());
    EXPECT_EQ(status["conditions"][0]["type"], "Complete");
    const DractlRun removed = kubectl({ QStringLiteral("delete"),
        QStringLiteral("resourcepoolstatusrequest"), QStringLiteral("gpu-pools") });
    EXPECT_EQ(removed.exitCode, 0) << removed.err;

    // The console API sets the cluster's answer beside the mirror's count: they agree.
    const QString body = writeTestFile(m_dir.filePath(QStringLiteral("answer.json")),
        nlohmann::json { { "status", status } }.dump());
    const DractlRun compared = kubectl({ QStringLiteral("create"), QStringLiteral("--raw"),
        QStringLiteral("/console/v1/pools?driver=gpu.nvidia.com&limit=1"), QStringLiteral("-f"),
        body });
    ASSERT_EQ(compared.exitCode, 0) << compared.err;
    const nlohmann::json comparison = nlohmann::json::parse(compared.out);
    EXPECT_EQ(comparison["source"], "cluster");
    EXPECT_EQ(comparison["differing"], 0) << compared.out;

    // dractl asks the cluster itself (creating and deleting its own request) and compares with
    // a cache mirrored from it.
    const QString cache = m_dir.filePath(QStringLiteral("mirror.db"));
    const DractlRun synced = dractl({ QStringLiteral("sync"), QStringLiteral("--once"),
        QStringLiteral("--kubeconfig"), kubeconfig(), QStringLiteral("--cache"), cache });
    ASSERT_EQ(synced.exitCode, 0) << synced.err;
    const DractlRun pools = dractl({ QStringLiteral("pools"), QStringLiteral("--driver"),
        QStringLiteral("gpu.nvidia.com"), QStringLiteral("--kubeconfig"), kubeconfig(),
        QStringLiteral("--cache"), cache, QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(pools.exitCode, 0) << pools.err;
    const nlohmann::json asked = pools.document();
    EXPECT_EQ(asked["source"], "cluster") << pools.out;
    EXPECT_EQ(asked["differing"], 0) << pools.out;
    EXPECT_EQ(asked["clusterPoolCount"], status["poolCount"]);
    const DractlRun left
        = kubectl({ QStringLiteral("get"), QStringLiteral("resourcepoolstatusrequests"),
            QStringLiteral("-o"), QStringLiteral("name") });
    EXPECT_EQ(left.out, "") << "dractl deletes the request it made";

    // The viewer may not create requests: ours alone, and why.
    const DractlRun viewer = dractl({ QStringLiteral("pools"), QStringLiteral("--driver"),
        QStringLiteral("gpu.nvidia.com"), QStringLiteral("--kubeconfig"), kubeconfig(),
        QStringLiteral("--context"), QStringLiteral("demo-viewer"), QStringLiteral("--cache"),
        cache, QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(viewer.exitCode, 0) << viewer.err;
    EXPECT_EQ(viewer.document()["source"], "ours") << viewer.out;
    EXPECT_NE(viewer.document()["note"].get<std::string>().find("forbidden"), std::string::npos)
        << viewer.out;
}

// A user who may not read the Roles and bindings still learns what they may do: `dractl access`
// asks the cluster for their own rules (SelfSubjectRulesReview) and says that it did.
TEST_F(SandboxKubectlTest, AccessFallsBackToTheUsersOwnRulesWhereRbacIsUnreadable)
{
    const QString cache = m_dir.filePath(QStringLiteral("training.db"));
    const QStringList asTraining { QStringLiteral("--kubeconfig"), kubeconfig(),
        QStringLiteral("--context"), QStringLiteral("demo-training") };
    const DractlRun synced = dractl(QStringList { QStringLiteral("sync"), QStringLiteral("--once"),
                                        QStringLiteral("--cache"), cache }
        + asTraining);
    ASSERT_EQ(synced.exitCode, 0) << synced.err;
    const DractlRun offline = dractl({ QStringLiteral("access"), QStringLiteral("--cache"), cache,
        QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(offline.exitCode, 0) << offline.err;
    EXPECT_EQ(offline.document()["source"], "none") << "the cache alone cannot tell";

    const DractlRun asked
        = dractl(QStringList { QStringLiteral("access"), QStringLiteral("--cache"), cache,
                     QStringLiteral("-o"), QStringLiteral("json") }
            + asTraining);
    ASSERT_EQ(asked.exitCode, 0) << asked.err;
    const nlohmann::json report = asked.document();
    EXPECT_EQ(report["source"], "self-rules") << asked.out;
    std::map<std::string, bool> authors;
    for (const nlohmann::json &ns : report["namespaces"])
        for (const nlohmann::json &author : ns["claimAuthors"])
            authors[ns["namespace"].get<std::string>()]
                = author["subject"]["name"] == "training-user";
    EXPECT_EQ(authors, (std::map<std::string, bool> { { "training", true } }))
        << "training-user creates claims in training only: " << asked.out;
}

TEST_F(SandboxKubectlTest, InstallerManifestsPassAStrictServerSideDryRun)
{
    const QString manifests = QStringLiteral(DRA_SOURCE_DIR "/installer/kubernetes");
    const DractlRun dryRun = kubectl({ QStringLiteral("apply"), QStringLiteral("--dry-run=server"),
        QStringLiteral("--validate=strict"), QStringLiteral("-f"), manifests });
    ASSERT_EQ(dryRun.exitCode, 0) << dryRun.out << dryRun.err;
    for (const char *object :
        { "statefulset.apps/draconsole-mirror", "service/draconsole-mirror",
            "networkpolicy.networking.k8s.io/draconsole-mirror", "serviceaccount/draconsole-mirror",
            "clusterrolebinding.rbac.authorization.k8s.io/draconsole-mirror",
            "role.rbac.authorization.k8s.io/draconsole-mirror",
            "rolebinding.rbac.authorization.k8s.io/draconsole-mirror" })
        EXPECT_NE(dryRun.out.find(object), std::string::npos) << object << "\n" << dryRun.out;

    QByteArray misspelled
        = QByteArray::fromStdString(readTestFile(manifests + QStringLiteral("/statefulset.yaml")));
    ASSERT_TRUE(misspelled.contains("  serviceName:"));
    misspelled.replace("  serviceName:", "  servceName:");
    const QString broken = writeTestFile(
        m_dir.filePath(QStringLiteral("statefulset.yaml")), misspelled.toStdString());
    const DractlRun refused = kubectl({ QStringLiteral("apply"), QStringLiteral("--dry-run=server"),
        QStringLiteral("--validate=strict"), QStringLiteral("-f"), broken });
    EXPECT_NE(refused.exitCode, 0) << refused.out;
    EXPECT_NE(refused.err.find("servceName"), std::string::npos) << refused.err;

    // The rollout controller's optional role passes as well.
    const DractlRun rolloutRole = kubectl({ QStringLiteral("apply"),
        QStringLiteral("--dry-run=server"), QStringLiteral("--validate=strict"),
        QStringLiteral("-f"), manifests + QStringLiteral("/rollouts") });
    ASSERT_EQ(rolloutRole.exitCode, 0) << rolloutRole.out << rolloutRole.err;
    EXPECT_NE(
        rolloutRole.out.find("clusterrolebinding.rbac.authorization.k8s.io/draconsole-rollouts"),
        std::string::npos)
        << rolloutRole.out;

    // The demo's roles for the mirror's service account are the installer's, rule for rule.
    const QString rules = QStringLiteral("jsonpath={.rules}");
    const struct
    {
        QStringList served;
        QString file;
    } roles[] = {
        { { QStringLiteral("clusterrole"), QStringLiteral("draconsole-mirror") },
            QStringLiteral("/clusterrole.yaml") },
        { { QStringLiteral("role"), QStringLiteral("draconsole-mirror"), QStringLiteral("-n"),
              QStringLiteral("draconsole") },
            QStringLiteral("/role.yaml") },
        { { QStringLiteral("clusterrole"), QStringLiteral("draconsole-rollouts") },
            QStringLiteral("/rollouts/clusterrole.yaml") },
    };
    for (const auto &role : roles) {
        const DractlRun served = kubectl(QStringList { QStringLiteral("get") } + role.served
            + QStringList { QStringLiteral("-o"), rules });
        ASSERT_EQ(served.exitCode, 0) << served.err;
        const DractlRun installed
            = kubectl({ QStringLiteral("create"), QStringLiteral("--dry-run=client"),
                QStringLiteral("-f"), manifests + role.file, QStringLiteral("-o"), rules });
        ASSERT_EQ(installed.exitCode, 0) << installed.err;
        EXPECT_EQ(nlohmann::json::parse(served.out, nullptr, false),
            nlohmann::json::parse(installed.out, nullptr, false))
            << role.file.toStdString() << "\n"
            << served.out << "\n"
            << installed.out;
    }
}

// The demo's users send requests through the llm-server route; its Prometheus counts them and
// answers kubectl through the API server's service proxy, as on a real cluster.
TEST_F(ServingSandboxKubectlTest, DemoPrometheusAnswersThroughTheServiceProxy)
{
    const QByteArray query = QUrl::toPercentEncoding(
        QStringLiteral("sum(rate(http_requests_total{namespace=\"inference\",deployment=\"llm-"
                       "server\",code=\"200\"}[30s]))"));
    const QString path
        = QStringLiteral(
              "/api/v1/namespaces/monitoring/services/prometheus:9090/proxy/api/v1/query?query=")
        + QString::fromLatin1(query);
    nlohmann::json answer;
    double rate = 0;
    QElapsedTimer waited;
    waited.start();
    // Two scrapes a second apart are needed before a rate exists.
    while (rate <= 0 && waited.elapsed() < 30'000) {
        const DractlRun raw = kubectl({ QStringLiteral("get"), QStringLiteral("--raw"), path });
        ASSERT_EQ(raw.exitCode, 0) << raw.out << raw.err;
        answer = nlohmann::json::parse(raw.out, nullptr, false);
        ASSERT_EQ(answer.value("status", ""), "success") << raw.out;
        const nlohmann::json &result = answer["data"]["result"];
        if (!result.empty())
            rate = std::stod(result[0]["value"][1].get<std::string>());
        if (rate <= 0)
            QThread::msleep(500);
    }
    EXPECT_GT(rate, 1.0) << "requests per second reaching llm-server: " << answer.dump();

    const DractlRun bad = kubectl({ QStringLiteral("get"), QStringLiteral("--raw"),
        QStringLiteral("/api/v1/namespaces/monitoring/services/prometheus:9090/proxy/api/v1/"
                       "query?query=sum(") });
    EXPECT_NE(bad.exitCode, 0);
    const DractlRun missing = kubectl({ QStringLiteral("get"), QStringLiteral("--raw"),
        QStringLiteral("/api/v1/namespaces/monitoring/services/grafana/proxy/") });
    EXPECT_NE(missing.exitCode, 0);
    EXPECT_NE(missing.err.find("services \"grafana\" not found"), std::string::npos) << missing.err;
}

// A demo cluster on an older release, as kubectl meets it: the release's /version (so the
// dispatcher runs that kubectl), only its resource.k8s.io versions, the inventory through them.
class OlderReleaseSandboxKubectlTest : public SandboxKubectlTest
{
protected:
    OlderReleaseSandboxKubectlTest() { m_preset = QStringLiteral("mixed-1.32"); }
};

TEST_F(OlderReleaseSandboxKubectlTest, ServesItsReleaseAndItsResourceApiVersions)
{
    const DractlRun version
        = kubectl({ QStringLiteral("version"), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(version.exitCode, 0) << version.err;
    EXPECT_EQ(nlohmann::json::parse(version.out)["serverVersion"]["gitVersion"], "v1.32.5");
    const DractlRun versions = kubectl({ QStringLiteral("api-versions") });
    ASSERT_EQ(versions.exitCode, 0) << versions.err;
    EXPECT_NE(versions.out.find("resource.k8s.io/v1beta1\n"), std::string::npos) << versions.out;
    EXPECT_EQ(versions.out.find("resource.k8s.io/v1\n"), std::string::npos)
        << "resource.k8s.io/v1 is GA from 1.34 only: " << versions.out;
    const DractlRun slices = kubectl({ QStringLiteral("get"), QStringLiteral("resourceslices"),
        QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(slices.exitCode, 0) << slices.err;
    const nlohmann::json list = nlohmann::json::parse(slices.out);
    ASSERT_FALSE(list["items"].empty());
    EXPECT_EQ(list["items"][0]["apiVersion"], "resource.k8s.io/v1beta1");
}

class AskedReleaseSandboxKubectlTest : public SandboxKubectlTest
{
protected:
    AskedReleaseSandboxKubectlTest()
    {
        m_serveArguments = { QStringLiteral("--kubernetes-version"), QStringLiteral("1.33") };
    }
};

TEST_F(AskedReleaseSandboxKubectlTest, AnyPresetRunsTheAskedRelease)
{
    EXPECT_TRUE(m_server->banner().contains("Kubernetes: v1.33.0")) << m_server->diagnostics();
    const DractlRun version
        = kubectl({ QStringLiteral("version"), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(version.exitCode, 0) << version.err;
    EXPECT_EQ(nlohmann::json::parse(version.out)["serverVersion"]["gitVersion"], "v1.33.0");
    const DractlRun versions = kubectl({ QStringLiteral("api-versions") });
    EXPECT_NE(versions.out.find("resource.k8s.io/v1beta2\n"), std::string::npos) << versions.out;
    EXPECT_EQ(versions.out.find("resource.k8s.io/v1\n"), std::string::npos) << versions.out;
}

TEST(ServeDemoOptionsTest, KubernetesVersionIsForADemoClusterWithinTheModelledReleases)
{
    QTemporaryDir dir;
    const DractlRun tooOld = dractl(
        { QStringLiteral("serve"), QStringLiteral("--demo"), QStringLiteral("--kubernetes-version"),
            QStringLiteral("1.29"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0") });
    EXPECT_NE(tooOld.exitCode, 0);
    EXPECT_NE(tooOld.err.find("1.29"), std::string::npos) << tooOld.err;
    const DractlRun notDemo = dractl({ QStringLiteral("serve"), QStringLiteral("--cache"),
        dir.filePath(QStringLiteral("none.db")), QStringLiteral("--kubernetes-version"),
        QStringLiteral("1.33") });
    EXPECT_NE(notDemo.exitCode, 0);
    EXPECT_NE(notDemo.err.find("--demo"), std::string::npos) << notDemo.err;
}

} // namespace
} // namespace dra::test
