// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `dractl simulate` as a user runs it on the demo cluster: a process, files, stdout and the exit
// status.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/support/dractl_run.h"

namespace {

using dra::test::dractl;
using dra::test::DractlRun;
using nlohmann::json;

class SimulateTest : public testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = new QTemporaryDir;
        const DractlRun demo
            = dractl({ QStringLiteral("demo-inventory"), QStringLiteral("--preset"),
                QStringLiteral("mixed"), QStringLiteral("-o"), QStringLiteral("json") });
        ASSERT_EQ(demo.exitCode, 0) << demo.err;
        QFile file(s_dir->filePath(QStringLiteral("demo.json")));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(demo.out));
        s_inventory = new json(json::parse(demo.out));
    }
    static void TearDownTestSuite()
    {
        delete s_inventory;
        delete s_dir;
    }

    static QString inventory() { return s_dir->filePath(QStringLiteral("demo.json")); }

    // Writes a claim file and runs simulate on it against the demo inventory.
    static DractlRun simulate(
        const std::string &name, const std::string &yaml, QStringList extra = {})
    {
        const QString path = s_dir->filePath(QString::fromStdString(name));
        QFile file(path);
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(yaml));
        file.close();
        QStringList arguments = { QStringLiteral("simulate"), QStringLiteral("--claim"), path,
            QStringLiteral("--inventory"), inventory() };
        arguments += extra;
        return dractl(arguments);
    }

    // An attribute of a device of the demo inventory.
    static json attribute(
        const std::string &pool, const std::string &device, const std::string &name)
    {
        for (const json &item : (*s_inventory)["items"]) {
            if (item["kind"] != "ResourceSlice" || item["spec"]["pool"]["name"] != pool)
                continue;
            for (const json &d : item["spec"].value("devices", json::array()))
                if (d["name"] == device)
                    return d["attributes"][name];
        }
        return nullptr;
    }

    static QTemporaryDir *s_dir;
    static json *s_inventory;
};

QTemporaryDir *SimulateTest::s_dir = nullptr;
json *SimulateTest::s_inventory = nullptr;

const char *kPcieRootPair = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: two-gpus-one-root
  namespace: training
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu.nvidia.com
        count: 2
    constraints:
    - matchAttribute: resource.kubernetes.io/pcieRoot
)";

TEST_F(SimulateTest, TwoGpusOnOnePcieRoot)
{
    const DractlRun run
        = simulate("pair.yaml", kPcieRootPair, { QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(run.exitCode, 0) << run.err << run.out;
    const json result = run.document();
    EXPECT_EQ(result["allocated"], true);
    ASSERT_EQ(result["claims"].size(), 1u);
    const json &claim = result["claims"][0];
    EXPECT_EQ(claim["name"], "two-gpus-one-root");
    ASSERT_EQ(claim["results"].size(), 2u);
    const json &a = claim["results"][0], &b = claim["results"][1];
    EXPECT_EQ(a["request"], "gpus");
    EXPECT_EQ(a["driver"], "gpu.nvidia.com");
    EXPECT_EQ(a["pool"], b["pool"]);
    EXPECT_EQ(a["pool"], result["node"]);
    EXPECT_NE(a["device"], b["device"]);
    EXPECT_EQ(attribute(a["pool"], a["device"], "resource.kubernetes.io/pcieRoot"),
        attribute(b["pool"], b["device"], "resource.kubernetes.io/pcieRoot"));
    EXPECT_EQ(claim["nodeSelector"]["nodeSelectorTerms"][0]["matchFields"][0]["values"][0],
        result["node"]);
    EXPECT_EQ(result["featureGates"]["DRAPrioritizedList"], true);
}

TEST_F(SimulateTest, MigSliceFromATemplate)
{
    const DractlRun run = simulate("mig.yaml", R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: mig-1g
  namespace: batch
spec:
  spec:
    devices:
      requests:
      - name: mig
        exactly:
          deviceClassName: mig.nvidia.com
          selectors:
          - cel:
              expression: device.attributes['gpu.nvidia.com'].profile == '1g.10gb'
)",
        { QStringLiteral("--count"), QStringLiteral("3"), QStringLiteral("-o"),
            QStringLiteral("json") });
    ASSERT_EQ(run.exitCode, 0) << run.err << run.out;
    const json result = run.document();
    ASSERT_EQ(result["claims"].size(), 3u);
    for (const json &claim : result["claims"]) {
        const json &device = claim["results"][0];
        EXPECT_EQ(attribute(device["pool"], device["device"], "profile")["string"], "1g.10gb");
        EXPECT_EQ(claim["node"].get<std::string>().rfind("a100-mig-", 0), 0u);
    }
    EXPECT_EQ(result["claims"][0]["name"], "mig-1g-1");
}

TEST_F(SimulateTest, ImpossibleClaimIsExplained)
{
    const std::string claim = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: needs-b200
  namespace: batch
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.nvidia.com
        selectors:
        - cel:
            expression: device.attributes['gpu.nvidia.com'].productName == 'NVIDIA B200' && device.attributes['gpu.nvidia.com'].type == 'gpu'
)";
    const DractlRun run
        = simulate("b200.yaml", claim, { QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(run.exitCode, 1) << "not allocated is a failure the exit status reports";
    const json result = run.document();
    EXPECT_EQ(result["allocated"], false);
    EXPECT_FALSE(result.contains("error"));
    ASSERT_FALSE(result["explanation"].empty());
    const json &closest = result["explanation"][0];
    EXPECT_EQ(closest["failedAt"], "selectors");
    EXPECT_EQ(closest["request"], "gpu");
    EXPECT_EQ(closest["devices"]["matchingSelectors"], 0);
    ASSERT_EQ(closest["eliminatedBy"].size(), 1u) << closest.dump();
    EXPECT_EQ(closest["eliminatedBy"][0]["clause"],
        "device.attributes['gpu.nvidia.com'].productName == 'NVIDIA B200'");
    EXPECT_NE(result["summary"].get<std::string>().find("0/15 nodes"), std::string::npos);

    const DractlRun text = simulate("b200.yaml", claim);
    EXPECT_NE(text.out.find("Not allocated"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("productName == 'NVIDIA B200'"), std::string::npos) << text.out;
}

TEST_F(SimulateTest, UnknownClassIsAnError)
{
    const DractlRun run = simulate("typo.yaml", R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: typo, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.nvidia.comm}
)",
        { QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(run.exitCode, 1);
    const json result = run.document();
    EXPECT_EQ(result["allocated"], false);
    EXPECT_NE(
        result["error"].get<std::string>().find("could not retrieve device class gpu.nvidia.comm"),
        std::string::npos);
    EXPECT_FALSE(result.contains("explanation"));
}

TEST_F(SimulateTest, FeatureGatesAreKubeSchedulers)
{
    const std::string claim = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: either, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - {name: h100, deviceClassName: gpu.nvidia.com}
)";
    const DractlRun off = simulate("either.yaml", claim,
        { QStringLiteral("--feature-gates"), QStringLiteral("DRAPrioritizedList=false"),
            QStringLiteral("--node"), QStringLiteral("h100-002"), QStringLiteral("-o"),
            QStringLiteral("json") });
    // 1.36 is the newest release: DRAPrioritizedList is GA there but not locked yet.
    EXPECT_NE(
        off.document()["error"].get<std::string>().find("DRAPrioritizedList feature is disabled"),
        std::string::npos)
        << off.out << off.err;
    const DractlRun on
        = simulate("either.yaml", claim, { QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(on.exitCode, 0) << on.out;
    EXPECT_EQ(on.document()["claims"][0]["results"][0]["request"], "gpu/h100");
    const DractlRun bad = simulate("either.yaml", claim,
        { QStringLiteral("--feature-gates"), QStringLiteral("NoSuchGate=true") });
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("unrecognized feature gate: NoSuchGate"), std::string::npos) << bad.err;
}

TEST_F(SimulateTest, KubernetesVersionChoosesTheReleaseSimulated)
{
    // With an inventory file (no recorded version) the newest release is simulated unless asked:
    // DRAPrioritizedList is alpha and off in 1.33, so a firstAvailable claim cannot be allocated.
    const std::string claim = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: either, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - {name: h100, deviceClassName: gpu.nvidia.com}
)";
    const DractlRun old = simulate("either.yaml", claim,
        { QStringLiteral("--kubernetes-version"), QStringLiteral("1.33"), QStringLiteral("-o"),
            QStringLiteral("json") });
    EXPECT_EQ(old.exitCode, 1) << old.out << old.err;
    EXPECT_EQ(old.document()["kubernetesVersion"], "1.33");
    EXPECT_EQ(old.document()["allocated"], false);
    const DractlRun enabled = simulate("either.yaml", claim,
        { QStringLiteral("--kubernetes-version"), QStringLiteral("1.33"),
            QStringLiteral("--feature-gates"), QStringLiteral("DRAPrioritizedList=true"),
            QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(enabled.exitCode, 0) << enabled.out << enabled.err;
    const DractlRun text = simulate(
        "either.yaml", claim, { QStringLiteral("--kubernetes-version"), QStringLiteral("1.33") });
    EXPECT_NE(text.out.find("Not allocated (Kubernetes 1.33 (as asked))"), std::string::npos)
        << text.out;
    const DractlRun unmodelled = simulate(
        "either.yaml", claim, { QStringLiteral("--kubernetes-version"), QStringLiteral("1.29") });
    EXPECT_EQ(unmodelled.exitCode, 1);
    EXPECT_NE(unmodelled.err.find("--kubernetes-version"), std::string::npos) << unmodelled.err;
}

TEST_F(SimulateTest, FitAnalysisOfATemplate)
{
    const DractlRun run = simulate("l40s.yaml", R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: single-l40s, namespace: inference}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          selectors:
          - cel: {expression: "device.attributes['gpu.nvidia.com'].productName == 'NVIDIA L40S'"}
)",
        { QStringLiteral("--fit"), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    const json fit = run.document()["fit"];
    EXPECT_EQ(fit["nodesWhereOneFits"], json({ "l40s-000", "l40s-001" }));
    EXPECT_EQ(fit["copiesThatFit"], 5);
    EXPECT_EQ(fit["explanation"][0]["failedAt"], "free");
}

TEST_F(SimulateTest, SimulatesAgainstTheCache)
{
    const QString cache = s_dir->filePath(QStringLiteral("cache.db"));
    const DractlRun imported
        = dractl({ QStringLiteral("import"), QStringLiteral("--cache"), cache, inventory() });
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    const QString path = s_dir->filePath(QStringLiteral("pair-cache.yaml"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(kPcieRootPair);
    file.close();
    const DractlRun run = dractl({ QStringLiteral("simulate"), QStringLiteral("--claim"), path,
        QStringLiteral("--cache"), cache, QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.document()["allocated"], true);
}

} // namespace
