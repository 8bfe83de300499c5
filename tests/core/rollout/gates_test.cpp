// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/gates.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "core/alloc/diagnosis.h"
#include "tests/support/rollout_fixtures.h"

using namespace dra::rollout;
using dra::model::Object;

namespace {

// tests/data/rollout/canary-pod.yaml: [0] Pod, [1] ResourceClaim, [2] ResourceSlice.
class GatesTest : public testing::Test
{
protected:
    GatesTest()
        : m_docs(test::fixtureDocuments("canary-pod.yaml"))
    {
    }

    nlohmann::json &pod() { return m_docs.at(0); }
    nlohmann::json &claim() { return m_docs.at(1); }
    nlohmann::json &slice() { return m_docs.at(2); }

    PodEvidence evidence(std::vector<nlohmann::json> events = {})
    {
        PodEvidence e { test::decode(pod()), { test::decode(claim()) }, { test::decode(slice()) },
            {} };
        for (const nlohmann::json &event : events)
            e.events.push_back(test::decode(event));
        return e;
    }

    static nlohmann::json event(const std::string &kind, const std::string &name,
        const std::string &reason, const std::string &message, int count = 1)
    {
        return { { "apiVersion", "v1" }, { "kind", "Event" },
            { "metadata", { { "name", name + "." + reason }, { "namespace", "inference" } } },
            { "involvedObject",
                { { "kind", kind }, { "namespace", "inference" }, { "name", name } } },
            { "reason", reason }, { "type", "Warning" }, { "message", message },
            { "count", count } };
    }

    static const Check &check(const GateResult &result, const std::string &prefix)
    {
        for (const Check &c : result.checks)
            if (c.name.starts_with(prefix))
                return c;
        static const Check none { "missing", Verdict::Failed, "no such check" };
        ADD_FAILURE() << "no check " << prefix;
        return none;
    }

    std::vector<nlohmann::json> m_docs;
    const std::string m_podName = "llm-server-dra-7d9f-abcde";
    const std::string m_claimName = "llm-server-dra-7d9f-abcde-gpu-x7k2p";
};

} // namespace

TEST_F(GatesTest, HealthyCanaryPassesApiAndNodeGates)
{
    const GateResult api = apiGate(evidence(), 42);
    EXPECT_EQ(api.verdict, Verdict::Passed) << api.summary();
    EXPECT_EQ(api.at, 42);
    EXPECT_EQ(check(api, "claim gpu allocated").evidence,
        "ResourceClaim inference/" + m_claimName + " allocated gpu.nvidia.com/node-a/gpu-0");
    const GateResult node = nodeGate(evidence(), NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Passed) << node.summary();
    EXPECT_EQ(check(node, "device gpu.nvidia.com/node-a/gpu-0 identity").evidence,
        "uuid GPU-8c1f2a64-3b7e-4d2a-9f10-0a1b2c3d4e5f as published");
}

TEST_F(GatesTest, UnallocatedClaimIsInconclusiveAndRepeatedFailuresFail)
{
    claim()["status"].erase("allocation");
    claim()["status"].erase("reservedFor");
    GateResult api = apiGate(evidence());
    EXPECT_EQ(api.verdict, Verdict::Inconclusive) << api.summary();
    EXPECT_EQ(api.decisive()->name, "claim gpu allocated");

    api = apiGate(evidence({ event("Pod", m_podName, "FailedScheduling",
        "0/3 nodes are available: 3 cannot allocate all claims.", 3) }));
    EXPECT_EQ(api.verdict, Verdict::Failed);
    EXPECT_EQ(api.decisive()->evidence,
        "3 allocation failure(s), last: FailedScheduling: 0/3 nodes are available: 3 cannot "
        "allocate all claims. (x3)");
}

TEST_F(GatesTest, OneFailureBeforeAllocationIsTransient)
{
    const GateResult api = apiGate(
        evidence({ event("Pod", m_podName, "FailedScheduling", "cannot allocate all claims") }));
    EXPECT_EQ(api.verdict, Verdict::Passed) << api.summary();
    EXPECT_NE(check(api, "no allocation failures").evidence.find("transient"), std::string::npos);
}

TEST_F(GatesTest, ClaimReservedForAnotherPodFails)
{
    claim()["status"]["reservedFor"][0]["name"] = "someone-else";
    claim()["status"]["reservedFor"][0]["uid"] = "other";
    const GateResult api = apiGate(evidence());
    EXPECT_EQ(api.verdict, Verdict::Failed);
    EXPECT_NE(api.decisive()->evidence.find("reserved for pods/someone-else"), std::string::npos);
}

TEST_F(GatesTest, ClaimNotCreatedYetIsInconclusive)
{
    pod()["status"].erase("resourceClaimStatuses");
    const GateResult api = apiGate(evidence());
    EXPECT_EQ(api.verdict, Verdict::Inconclusive);
    EXPECT_EQ(api.decisive()->evidence, "no ResourceClaim generated for pod claim \"gpu\" yet");
}

TEST_F(GatesTest, WrongDeviceIdentityFails)
{
    claim()["status"]["devices"][0]["data"]["uuid"]
        = "GPU-0d9e8f7a-6b5c-4d3e-8f21-1a2b3c4d5e6f"; // gpu-1's
    const GateResult node = nodeGate(evidence(), NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Failed);
    EXPECT_EQ(node.decisive()->evidence,
        "the pod got GPU-0d9e8f7a-6b5c-4d3e-8f21-1a2b3c4d5e6f but the ResourceSlice publishes "
        "GPU-8c1f2a64-3b7e-4d2a-9f10-0a1b2c3d4e5f for gpu.nvidia.com/node-a/gpu-0");
}

TEST_F(GatesTest, IdentityIsNeverAssumedWhenTheDriverPublishesNone)
{
    claim()["status"].erase("devices");
    GateResult node = nodeGate(evidence(), NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Inconclusive);
    EXPECT_NE(node.decisive()->evidence.find("identity not verified"), std::string::npos);

    claim()["status"]["devices"] = nlohmann::json::array(
        { { { "driver", "gpu.nvidia.com" }, { "pool", "node-a" }, { "device", "gpu-0" } } });
    node = nodeGate(evidence(), NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Inconclusive);
    EXPECT_NE(node.decisive()->evidence.find("reports no uuid"), std::string::npos);
}

TEST_F(GatesTest, PodOnAnotherNodeThanItsDeviceFails)
{
    pod()["spec"]["nodeName"] = "node-b";
    const GateResult node = nodeGate(evidence(), NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Failed);
    EXPECT_EQ(node.decisive()->evidence, "the device is on node-a but the pod runs on node-b");
}

TEST_F(GatesTest, DriverPreparationErrorsAndStuckContainersFail)
{
    pod()["status"]["containerStatuses"][0]["state"]
        = { { "waiting", { { "reason", "ContainerCreating" } } } };
    pod()["status"]["containerStatuses"][0]["started"] = false;
    GateResult node = nodeGate(evidence(), NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Inconclusive) << node.summary();

    node = nodeGate(
        evidence({ event("Pod", m_podName, "FailedPrepareDynamicResources",
            "Failed to prepare dynamic resources: NodePrepareResources failed for gpu-0") }),
        NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Failed);
    EXPECT_EQ(node.decisive()->name, "no driver preparation errors");

    pod()["status"]["containerStatuses"][0]["state"]
        = { { "waiting", { { "reason", "CrashLoopBackOff" } } } };
    node = nodeGate(evidence(), NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Failed);
    EXPECT_EQ(node.decisive()->evidence, "not starting: server (CrashLoopBackOff)");
}

TEST_F(GatesTest, ApplicationGateComparesAgainstTheBaseline)
{
    ApplicationGateConfig config;
    config.probePath = "/health";
    config.probePort = 8080;
    config.minProbeSuccess = 0.9;
    config.maxErrorRateIncrease = 0.01;
    config.maxLatencyRatio = 1.2;
    ApplicationEvidence e { { test::decode(pod()) }, {}, std::nullopt, std::nullopt };
    GateResult app = applicationGate(e, config);
    EXPECT_EQ(app.verdict, Verdict::Inconclusive) << "configured checks without data";

    for (int i = 0; i < 10; ++i)
        e.probes.push_back(ProbeResult { i != 3, i != 3 ? 200 : 500, 12 });
    e.baseline = TrafficMetrics { 0.002, 100, 5000 };
    e.canary = TrafficMetrics { 0.004, 110, 250 };
    app = applicationGate(e, config);
    EXPECT_EQ(app.verdict, Verdict::Passed) << app.summary();
    EXPECT_EQ(check(app, "probe").evidence, "9/10 probes answered; first failure: HTTP 500");

    e.canary = TrafficMetrics { 0.05, 110, 250 };
    app = applicationGate(e, config);
    EXPECT_EQ(app.verdict, Verdict::Failed);
    EXPECT_EQ(app.decisive()->name, "error rate vs baseline");

    e.canary = TrafficMetrics { 0.002, 180, 250 };
    app = applicationGate(e, config);
    EXPECT_EQ(app.verdict, Verdict::Failed);
    EXPECT_EQ(app.decisive()->evidence, "p95 canary 180.0 ms vs baseline 100.0 ms (limit x1.2)");

    pod()["status"]["conditions"][0]["status"] = "False";
    e = ApplicationEvidence { { test::decode(pod()) }, {}, std::nullopt, std::nullopt };
    app = applicationGate(e, ApplicationGateConfig {});
    EXPECT_EQ(app.verdict, Verdict::Inconclusive);
    EXPECT_EQ(app.decisive()->evidence, "not Ready yet: " + m_podName + " (Running)");
}

TEST_F(GatesTest, MetricsAreJudgedOnlyWhereTrafficFlows)
{
    ApplicationGateConfig config;
    config.maxErrorRate = 0.01;
    config.maxErrorRateIncrease = 0.005;
    ApplicationEvidence e { { test::decode(pod()) }, {}, std::nullopt, std::nullopt };
    // Canary: no weight and no mirror yet, so no data is expected and none is waited for.
    e.canaryTakesTraffic = false;
    GateResult app = applicationGate(e, config);
    EXPECT_EQ(app.verdict, Verdict::Passed) << app.summary();
    EXPECT_TRUE(std::none_of(
        app.checks.begin(), app.checks.end(), [](const auto &c) { return c.name == "metrics"; }));

    // Shadow: mirrored requests, so missing data is Inconclusive again.
    e.canaryTakesTraffic = true;
    EXPECT_EQ(applicationGate(e, config).verdict, Verdict::Inconclusive);

    // 100%: the baseline serves nothing; the canary is held to the absolute ceiling alone.
    e.baselineTakesTraffic = false;
    e.canary = TrafficMetrics { 0.002, 10, 900 };
    app = applicationGate(e, config);
    EXPECT_EQ(app.verdict, Verdict::Passed) << app.summary();
    EXPECT_EQ(check(app, "error rate").evidence, "canary error rate 0.20% (limit 1.00%)");
    e.canary = TrafficMetrics { 0.02, 10, 900 };
    app = applicationGate(e, config);
    EXPECT_EQ(app.verdict, Verdict::Failed);
    EXPECT_EQ(app.decisive()->name, "error rate");
}

TEST(NegativeControlGateTest, PendingWithAnExplanationPasses)
{
    const std::vector<nlohmann::json> docs = test::fixtureDocuments("negative-control-claim.yaml");
    NegativeControlEvidence e { test::decode(docs[0]), {}, nullptr };
    GateResult gate = negativeControlGate(e);
    EXPECT_EQ(gate.verdict, Verdict::Inconclusive) << "Pending but not yet explained";

    e.events.push_back(test::decode(docs[1]));
    gate = negativeControlGate(e);
    EXPECT_EQ(gate.verdict, Verdict::Passed) << gate.summary();
    EXPECT_EQ(gate.checks.back().evidence,
        "FailedScheduling: 0/3 nodes are available: 3 cannot allocate all claims. (x4)");

    dra::alloc::Diagnosis diagnosis;
    diagnosis.verdict
        = "claim not allocated: no device of class gpu.nvidia.com matches the selector";
    e.events.clear();
    e.diagnosis = &diagnosis;
    gate = negativeControlGate(e);
    EXPECT_EQ(gate.verdict, Verdict::Passed);
    EXPECT_EQ(gate.checks.back().evidence, "diagnosis: " + diagnosis.verdict);
}

TEST(NegativeControlGateTest, AnAllocatedControlFails)
{
    std::vector<nlohmann::json> docs = test::fixtureDocuments("negative-control-claim.yaml");
    docs[0]["status"]["allocation"]["devices"]["results"]
        = nlohmann::json::array({ { { "request", "gpu" }, { "driver", "gpu.nvidia.com" },
            { "pool", "node-a" }, { "device", "gpu-1" } } });
    const GateResult gate
        = negativeControlGate(NegativeControlEvidence { test::decode(docs[0]), {}, nullptr });
    EXPECT_EQ(gate.verdict, Verdict::Failed);
    EXPECT_NE(gate.decisive()->evidence.find("selectors are not enforced"), std::string::npos);
    EXPECT_EQ(negativeControlGate(NegativeControlEvidence {}).verdict, Verdict::Inconclusive);
}

TEST(BaselineGateTest, MixedDevicePluginAndDraOnOneNodeFails)
{
    const std::vector<nlohmann::json> docs = test::fixtureDocuments("canary-pod.yaml");
    const nlohmann::json node
        = { { "apiVersion", "v1" }, { "kind", "Node" }, { "metadata", { { "name", "node-a" } } },
              { "status", { { "capacity", { { "nvidia.com/gpu", "8" } } } } } };
    BaselineEvidence e { { "v1", "v1beta2" }, WorkloadStatus { true, 8, 8 }, { test::decode(node) },
        { test::decode(docs[2]) } };
    GateResult gate = baselineGate(e);
    EXPECT_EQ(gate.verdict, Verdict::Failed);
    EXPECT_EQ(gate.decisive()->evidence,
        "both manage GPUs on node-a (8 nvidia.com/gpu and gpu.nvidia.com)");

    e.nodes.clear();
    EXPECT_EQ(baselineGate(e).verdict, Verdict::Passed);
    e.servedResourceVersions.clear();
    e.baseline.readyReplicas = 6;
    gate = baselineGate(e);
    EXPECT_EQ(gate.verdict, Verdict::Failed);
    EXPECT_EQ(gate.checks.size(), 3u);
    EXPECT_EQ(gate.checks[0].verdict, Verdict::Failed);
    EXPECT_EQ(gate.checks[1].evidence, "6/8 replicas Ready: start from a healthy baseline");
}

TEST(RollbackGateTest, PassesOnlyWhenEverythingIsBack)
{
    RollbackEvidence e { WorkloadStatus { true, 8, 8 }, 8, WorkloadStatus {}, 0, {}, 100 };
    EXPECT_EQ(rollbackGate(e).verdict, Verdict::Passed);
    e.remainingClaims = { "inference/llm-server-dra-7d9f-abcde-gpu-x7k2p" };
    EXPECT_EQ(rollbackGate(e).verdict, Verdict::Inconclusive);
    EXPECT_EQ(rollbackGate(e).decisive()->evidence,
        "still present: inference/llm-server-dra-7d9f-abcde-gpu-x7k2p");
    e.remainingClaims.clear();
    e.baseline.exists = false;
    EXPECT_EQ(rollbackGate(e).verdict, Verdict::Failed);
}

TEST(GateResultTest, JsonRoundTrip)
{
    GateResult result = gateResult(GateKind::NegativeControl,
        { Check { "a", Verdict::Passed, "x" }, Check { "b", Verdict::Inconclusive, "y" } }, 9);
    EXPECT_EQ(result.verdict, Verdict::Inconclusive);
    result.pictures["node h100-002"] = "<svg xmlns=\"http://www.w3.org/2000/svg\"/>";
    const std::optional<GateResult> back = gateResultFromJson(gateResultJson(result));
    ASSERT_TRUE(back);
    EXPECT_EQ(gateResultJson(*back), gateResultJson(result));
    EXPECT_EQ(back->pictures, result.pictures)
        << "the evidence's pictures are kept with the verdict";
    EXPECT_EQ(gateResult(GateKind::Api, {}).verdict, Verdict::Inconclusive)
        << "nothing checked is not a pass";
}

// The node gate looks inside the container: nvidia-smi -L must list exactly the allocated GPU.
TEST_F(GatesTest, TheContainerMustSeeExactlyItsOwnGpu)
{
    const std::string own = "GPU-8c1f2a64-3b7e-4d2a-9f10-0a1b2c3d4e5f";
    const std::string neighbour = "GPU-00000000-1111-2222-3333-444444444444";
    PodEvidence seen = evidence();
    seen.command
        = ContainerCommand { "GPU 0: NVIDIA H100 80GB HBM3 (UUID: " + own + ")\n", "", 0, "" };
    GateResult node = nodeGate(seen, NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Passed) << node.summary();
    EXPECT_EQ(check(node, "container device identity").evidence,
        "nvidia-smi -L in inference/" + m_podName + " lists exactly its devices: " + own);

    // A neighbour's GPU besides its own fails, and the wrong-device stop condition sees it as a
    // failed identity check.
    seen.command->out += "GPU 1: NVIDIA H100 80GB HBM3 (UUID: " + neighbour + ")\n";
    node = nodeGate(seen, NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Failed);
    EXPECT_EQ(node.decisive()->name, "container device identity");
    EXPECT_TRUE(node.decisive()->name.ends_with(" identity"));
    EXPECT_NE(node.decisive()->evidence.find("sees " + neighbour + ", not allocated to it"),
        std::string::npos)
        << node.decisive()->evidence;

    // Only the neighbour: its own GPU is missing.
    seen.command->out = "GPU 0: NVIDIA H100 80GB HBM3 (UUID: " + neighbour + ")\n";
    EXPECT_EQ(nodeGate(seen, NodeGateConfig {}).verdict, Verdict::Failed);

    // An image without the command, or exec refused: inconclusive with the reason, never a pass.
    seen.command
        = ContainerCommand { "", "exec: \"nvidia-smi\": executable file not found", 127, "" };
    node = nodeGate(seen, NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Inconclusive);
    EXPECT_NE(check(node, "container device identity").evidence.find("exited with 127"),
        std::string::npos);
    seen.command = ContainerCommand { "", "", 0, "pods/exec is forbidden" };
    node = nodeGate(seen, NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Inconclusive);
    EXPECT_NE(check(node, "container device identity").evidence.find("pods/exec is forbidden"),
        std::string::npos);

    // Turned off in the plan: no such check.
    NodeGateConfig off;
    off.command.clear();
    EXPECT_EQ(nodeGate(seen, off).verdict, Verdict::Passed);
}

TEST_F(GatesTest, TheDriversPodOnTheCanarysNodeMustBeReady)
{
    const auto driverPod = [](const std::string &name, const std::string &node, bool ready) {
        return test::decode({ { "apiVersion", "v1" }, { "kind", "Pod" },
            { "metadata",
                { { "name", name }, { "namespace", "gpu-operator" },
                    { "ownerReferences",
                        nlohmann::json::array({ { { "apiVersion", "apps/v1" },
                            { "kind", "DaemonSet" }, { "name", "dra-kubelet-plugin" },
                            { "uid", "ds-1" }, { "controller", true } } }) } } },
            { "spec", { { "nodeName", node } } },
            { "status",
                { { "phase", "Running" },
                    { "conditions",
                        nlohmann::json::array({ { { "type", "Ready" },
                            { "status", ready ? "True" : "False" } } }) } } } });
    };
    PodEvidence e = evidence();
    e.driver = DriverPods { { "gpu-operator/dra-kubelet-plugin" },
        { driverPod("dra-kubelet-plugin-b", "node-b", true),
            driverPod("dra-kubelet-plugin-a", "node-a", true) },
        {} };
    GateResult node = nodeGate(e, NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Passed) << node.summary();
    EXPECT_EQ(check(node, "driver pod Ready").evidence,
        "Pod gpu-operator/dra-kubelet-plugin-a of DaemonSet gpu-operator/dra-kubelet-plugin on "
        "node node-a is Ready");

    // Not Ready on the canary's node fails, whatever the other nodes' pods say.
    e.driver->pods.back() = driverPod("dra-kubelet-plugin-a", "node-a", false);
    node = nodeGate(e, NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Failed);
    EXPECT_EQ(node.decisive()->name, "driver pod Ready");
    EXPECT_NE(node.decisive()->evidence.find("dra-kubelet-plugin-a of DaemonSet "
                                             "gpu-operator/dra-kubelet-plugin on node node-a is "
                                             "not Ready"),
        std::string::npos)
        << node.decisive()->evidence;

    // No driver pod on the node: no driver prepares its devices.
    e.driver->pods.pop_back();
    node = nodeGate(e, NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Failed);
    EXPECT_EQ(node.decisive()->evidence,
        "no pod of the DRA driver's DaemonSet (gpu-operator/dra-kubelet-plugin) runs on node "
        "node-a");

    // Pods that could not be read are not known: never a pass.
    e.driver->error = "Pods in gpu-operator: forbidden";
    node = nodeGate(e, NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Inconclusive);
    EXPECT_EQ(node.decisive()->evidence,
        "the DRA driver's pods could not be read: Pods in gpu-operator: forbidden");

    // Without a driver DaemonSet known there is no such check.
    e.driver.reset();
    node = nodeGate(e, NodeGateConfig {});
    EXPECT_EQ(node.verdict, Verdict::Passed) << node.summary();
    EXPECT_TRUE(std::none_of(node.checks.begin(), node.checks.end(),
        [](const Check &c) { return c.name == "driver pod Ready"; }));
}
