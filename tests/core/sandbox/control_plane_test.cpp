// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The demo cluster's control plane turns Deployments into running pods, with devices.
#include <map>
#include <set>

#include "core/sandbox/pod_scheduler.h"
#include "tests/core/sandbox/control_plane_harness.h"

namespace dra::test {
namespace {

using model::Kind;
using nlohmann::json;

bool ready(const json &pod)
{
    for (const json &condition : pod["status"].value("conditions", json::array())) {
        if (condition["type"] == "Ready")
            return condition["status"] == "True";
    }
    return false;
}

std::set<std::string> names(const std::vector<json> &objects)
{
    std::set<std::string> out;
    for (const json &object : objects)
        out.insert(object["metadata"]["name"]);
    return out;
}

using ControlPlaneTest = ControlPlaneHarness;

TEST(PodSchedulerBackoffTest, RetriesBackOffAsKubeSchedulerAndByWhatAnAttemptCosts)
{
    using sandbox::PodScheduler;
    // Cheap attempts: 1 s, doubling, capped at 10 s, as kube-scheduler backs off.
    int64_t delay = PodScheduler::retryDelayMs(std::nullopt, 0);
    EXPECT_EQ(delay, 1'000);
    std::vector<int64_t> delays;
    for (int i = 0; i < 6; ++i)
        delays.push_back(delay = PodScheduler::retryDelayMs(delay, 3));
    EXPECT_EQ(delays, (std::vector<int64_t> { 2'000, 4'000, 8'000, 10'000, 10'000, 10'000 }));
    // An attempt that took 2.5 s over a large inventory waits ten times as long, past the cap,
    // so one pod that fits nowhere keeps the shared thread at most a tenth busy.
    EXPECT_EQ(PodScheduler::retryDelayMs(std::nullopt, 2'500), 25'000);
    EXPECT_EQ(PodScheduler::retryDelayMs(10'000, 2'500), 25'000);
    // Once attempts are cheap again the usual backoff applies.
    EXPECT_EQ(PodScheduler::retryDelayMs(25'000, 1), 10'000);
}

TEST_F(ControlPlaneTest, PreseededServingStackIsAdoptedNotRecreated)
{
    const std::set<std::string> before = names(podsOf("inference", "llm-server"));
    ASSERT_EQ(before.size(), 3u);
    const std::vector<json> claimsBefore = list(Kind::ResourceClaim);
    settle();
    EXPECT_EQ(names(podsOf("inference", "llm-server")), before);
    EXPECT_EQ(list(Kind::ReplicaSet, "inference").size(), 1u);
    const json deployment = *get(Kind::Deployment, "inference", "llm-server");
    EXPECT_EQ(deployment["status"]["readyReplicas"], 3);
    // Claims of preseeded pods keep their allocation and reservations.
    for (const json &claim : claimsBefore) {
        const std::optional<json> now
            = get(Kind::ResourceClaim, claim["metadata"]["namespace"], claim["metadata"]["name"]);
        ASSERT_TRUE(now) << claim["metadata"]["name"];
        EXPECT_EQ((*now)["status"].value("reservedFor", json()),
            claim["status"].value("reservedFor", json()));
    }
}

TEST_F(ControlPlaneTest, DevicePluginDeploymentGetsReadyPodsOnDevicePluginNodes)
{
    // The device-plugin nodes are full of llm-server (8 GPUs each): scale it down by one first.
    json llm = *get(Kind::Deployment, "inference", "llm-server");
    llm["spec"]["replicas"] = 2;
    put(llm);
    settle();
    EXPECT_EQ(podsOf("inference", "llm-server").size(), 2u);

    put(devicePluginDeployment("inference", "tei-gpu4", 4, 2));
    settle();
    const std::vector<json> pods = podsOf("inference", "tei-gpu4");
    ASSERT_EQ(pods.size(), 2u) << json(pods).dump()
                               << json(list(Kind::ReplicaSet, "inference")).dump();
    for (const json &pod : pods) {
        EXPECT_TRUE(pod["spec"]["nodeName"].get<std::string>().starts_with("legacy-h100-"))
            << pod.dump();
        EXPECT_EQ(pod["status"]["phase"], "Running");
        EXPECT_TRUE(ready(pod)) << pod.dump();
        EXPECT_TRUE(pod["status"]["podIP"].get<std::string>().starts_with("127."));
        EXPECT_EQ(pod["metadata"]["labels"]["app"], "tei-gpu4");
        EXPECT_TRUE(pod["metadata"]["labels"].contains("pod-template-hash"));
        EXPECT_EQ(pod["metadata"]["ownerReferences"][0]["kind"], "ReplicaSet");
        EXPECT_EQ(pod["metadata"]["ownerReferences"][0]["controller"], true);
        EXPECT_EQ(eventsAbout(pod, "Scheduled").size(), 1u);
        EXPECT_EQ(eventsAbout(pod, "Started").size(), 1u);
    }
    const json deployment = *get(Kind::Deployment, "inference", "tei-gpu4");
    EXPECT_EQ(deployment["status"]["readyReplicas"], 2);
    EXPECT_EQ(deployment["status"]["updatedReplicas"], 2);
    EXPECT_EQ(deployment["status"]["observedGeneration"], 1);

    // A third pod does not fit: 8 - 2 * 4 GPUs are left on the freed node.
    json more = deployment;
    more["spec"]["replicas"] = 3;
    put(more);
    settle();
    std::vector<json> pending;
    for (const json &pod : podsOf("inference", "tei-gpu4")) {
        if (!pod["spec"].contains("nodeName"))
            pending.push_back(pod);
    }
    ASSERT_EQ(pending.size(), 1u);
    EXPECT_EQ(pending[0]["status"]["phase"], "Pending");
    const std::vector<json> failed = eventsAbout(pending[0], "FailedScheduling");
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_NE(failed[0]["message"].get<std::string>().find("Insufficient nvidia.com/gpu"),
        std::string::npos);
}

TEST_F(ControlPlaneTest, DraDeploymentGetsClaimsAllocatedReservedAndTheSlicesUuid)
{
    put(gpuTemplate("inference", "one-gpu"));
    put(draDeployment("inference", "llm-dra", "one-gpu", 1));
    settle();
    const std::vector<json> pods = podsOf("inference", "llm-dra");
    ASSERT_EQ(pods.size(), 1u);
    const json &pod = pods[0];
    EXPECT_TRUE(ready(pod)) << pod.dump();
    const std::string claimName = pod["status"]["resourceClaimStatuses"][0]["resourceClaimName"];
    EXPECT_TRUE(claimName.starts_with(pod["metadata"]["name"].get<std::string>() + "-gpu-"))
        << claimName;
    const json claim = *get(Kind::ResourceClaim, "inference", claimName);
    EXPECT_EQ(claim["metadata"]["annotations"]["resource.kubernetes.io/pod-claim-name"], "gpu");
    EXPECT_EQ(claim["metadata"]["ownerReferences"][0]["uid"], pod["metadata"]["uid"]);
    EXPECT_EQ(claim["metadata"]["ownerReferences"][0]["controller"], true);
    const json &results = claim["status"]["allocation"]["devices"]["results"];
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0]["driver"], "gpu.nvidia.com");
    ASSERT_EQ(claim["status"]["reservedFor"].size(), 1u);
    EXPECT_EQ(claim["status"]["reservedFor"][0]["uid"], pod["metadata"]["uid"]);
    EXPECT_EQ(claim["status"]["reservedFor"][0]["resource"], "pods");
    // The pod runs where its device is, and the kubelet publishes the device's uuid.
    EXPECT_NE(claim["status"]["allocation"]
                  .value("nodeSelector", json())
                  .dump()
                  .find(pod["spec"]["nodeName"].get<std::string>()),
        std::string::npos);
    ASSERT_EQ(claim["status"]["devices"].size(), 1u);
    EXPECT_EQ(claim["status"]["devices"][0]["device"], results[0]["device"]);
    const std::string uuid = sliceUuid(results[0]);
    EXPECT_FALSE(uuid.empty());
    EXPECT_EQ(claim["status"]["devices"][0]["data"]["uuid"], uuid);
}

TEST_F(ControlPlaneTest, ScalingToZeroDeletesPodsAndTheirClaimsAndFreesTheDevices)
{
    put(gpuTemplate("inference", "one-gpu"));
    put(draDeployment("inference", "llm-dra", "one-gpu", 2));
    settle();
    ASSERT_EQ(podsOf("inference", "llm-dra").size(), 2u);
    const size_t withPods = list(Kind::ResourceClaim, "inference").size();

    json deployment = *get(Kind::Deployment, "inference", "llm-dra");
    deployment["spec"]["replicas"] = 0;
    put(deployment);
    settle();
    EXPECT_TRUE(podsOf("inference", "llm-dra").empty());
    EXPECT_EQ(list(Kind::ResourceClaim, "inference").size(), withPods - 2);
    EXPECT_EQ((*get(Kind::Deployment, "inference", "llm-dra"))["status"]["replicas"], 0);

    // The freed devices are taken again by the next pods.
    deployment = *get(Kind::Deployment, "inference", "llm-dra");
    deployment["spec"]["replicas"] = 2;
    put(deployment);
    settle();
    for (const json &pod : podsOf("inference", "llm-dra"))
        EXPECT_TRUE(ready(pod)) << pod.dump();
}

TEST_F(ControlPlaneTest, ChangedTemplateMakesANewReplicaSetAndDeletingTheDeploymentCascades)
{
    put(devicePluginDeployment("batch", "cpu-job", 0, 2));
    settle();
    ASSERT_EQ(podsOf("batch", "cpu-job").size(), 2u);
    json deployment = *get(Kind::Deployment, "batch", "cpu-job");
    deployment["spec"]["template"]["metadata"]["labels"]["version"] = "2";
    put(deployment);
    settle();
    std::vector<json> replicaSets;
    for (json &replicaSet : list(Kind::ReplicaSet, "batch"))
        replicaSets.push_back(replicaSet);
    ASSERT_EQ(replicaSets.size(), 2u);
    int scaledToZero = 0;
    for (const json &replicaSet : replicaSets)
        scaledToZero += replicaSet["spec"]["replicas"] == 0 ? 1 : 0;
    EXPECT_EQ(scaledToZero, 1);
    const std::vector<json> pods = podsOf("batch", "cpu-job");
    ASSERT_EQ(pods.size(), 2u);
    for (const json &pod : pods)
        EXPECT_EQ(pod["metadata"]["labels"]["version"], "2");
    const json status = (*get(Kind::Deployment, "batch", "cpu-job"))["status"];
    EXPECT_EQ(status["updatedReplicas"], 2);
    EXPECT_EQ(status["observedGeneration"], 2);

    remove(Kind::Deployment, "batch", "cpu-job");
    settle();
    EXPECT_TRUE(list(Kind::ReplicaSet, "batch").empty());
    EXPECT_TRUE(podsOf("batch", "cpu-job").empty());
}

} // namespace
} // namespace dra::test

namespace dra::test {
namespace {

// The kubelet reports the health of each container's devices as allocatedResourcesStatus, and
// the unhealthy-device fault turns it Unhealthy while the pod runs.
TEST_F(ControlPlaneTest, KubeletReportsEachContainersDeviceHealth)
{
    put(gpuTemplate("inference", "one-gpu"));
    put(draDeployment("inference", "llm-dra", "one-gpu", 1));
    settle();
    const auto reported = [this] {
        const std::vector<json> pods = podsOf("inference", "llm-dra");
        EXPECT_EQ(pods.size(), 1u);
        return pods.empty() ? json() : pods[0];
    };
    const json pod = reported();
    const std::string claimName = pod["status"]["resourceClaimStatuses"][0]["resourceClaimName"];
    const json result = get(Kind::ResourceClaim, "inference", claimName)
                            ->at("status")["allocation"]["devices"]["results"][0];
    const json &entries = pod["status"]["containerStatuses"][0]["allocatedResourcesStatus"];
    ASSERT_EQ(entries.size(), 1u) << pod["status"].dump();
    EXPECT_EQ(entries[0]["name"], "claim:" + claimName + "/gpu");
    EXPECT_EQ(entries[0]["resources"][0]["resourceID"],
        result["driver"].get<std::string>() + "/" + result["pool"].get<std::string>() + "/"
            + result["device"].get<std::string>());
    EXPECT_EQ(entries[0]["resources"][0]["health"], "Healthy");

    plane().faults().add({ sandbox::FaultKind::UnhealthyDevice, "inference", "llm-dra" });
    plane().faultsChanged();
    settle();
    EXPECT_EQ(reported()["status"]["containerStatuses"][0]["allocatedResourcesStatus"][0]
                        ["resources"][0]["health"],
        "Unhealthy");
}

TEST_F(ControlPlaneTest, DaemonSetsRunOneReadyPodOnEachNodeTheySelect)
{
    settle();
    const std::string ns = "gpu-operator", plugin = "nvidia-dra-driver-gpu-kubelet-plugin";
    std::set<std::string> draNodes, devicePluginNodes;
    for (const json &node : list(Kind::Node)) {
        const std::string stack
            = node["metadata"]["labels"].value("sandbox.dra-console.io/gpu-stack", "");
        (stack == "dra" ? draNodes : devicePluginNodes).insert(node["metadata"]["name"]);
    }
    ASSERT_FALSE(draNodes.empty());
    ASSERT_FALSE(devicePluginNodes.empty());
    const auto podsOn = [&](const std::string &daemonSet) {
        std::map<std::string, json> byNode;
        for (const json &pod : list(Kind::Pod, ns)) {
            if (pod["metadata"]["ownerReferences"][0]["name"] == daemonSet)
                byNode[pod["spec"]["nodeName"]] = pod;
        }
        return byNode;
    };
    std::map<std::string, json> pods = podsOn(plugin);
    std::set<std::string> nodes;
    for (const auto &[node, pod] : pods) {
        nodes.insert(node);
        EXPECT_TRUE(ready(pod)) << pod.dump();
        EXPECT_EQ(pod["metadata"]["ownerReferences"][0]["kind"], "DaemonSet");
    }
    EXPECT_EQ(nodes, draNodes);
    EXPECT_EQ(podsOn("nvidia-device-plugin-daemonset").size(), devicePluginNodes.size());
    json daemonSet = *get(Kind::DaemonSet, ns, plugin);
    EXPECT_EQ(daemonSet["status"]["desiredNumberScheduled"], draNodes.size());
    EXPECT_EQ(daemonSet["status"]["numberReady"], draNodes.size());

    // A deleted pod comes back on its node, as a new pod.
    const std::string node = *draNodes.begin();
    const std::string gone = pods.at(node)["metadata"]["name"];
    remove(Kind::Pod, ns, gone);
    settle();
    pods = podsOn(plugin);
    ASSERT_TRUE(pods.contains(node));
    EXPECT_NE(pods.at(node)["metadata"]["name"], gone);
    EXPECT_TRUE(ready(pods.at(node))) << pods.at(node).dump();

    // driver-not-ready: the kubelet plugins run but are not Ready; other DaemonSets are.
    plane().faults().add({ sandbox::FaultKind::DriverNotReady, "", "" });
    plane().faultsChanged();
    settle();
    for (const auto &[on, pod] : podsOn(plugin))
        EXPECT_FALSE(ready(pod)) << on;
    for (const auto &[on, pod] : podsOn("nvidia-device-plugin-daemonset"))
        EXPECT_TRUE(ready(pod)) << on;
    daemonSet = *get(Kind::DaemonSet, ns, plugin);
    EXPECT_EQ(daemonSet["status"]["numberReady"], 0);
    EXPECT_EQ(daemonSet["status"]["numberUnavailable"], draNodes.size());
}

} // namespace
} // namespace dra::test
