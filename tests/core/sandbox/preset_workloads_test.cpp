// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Claims, templates and pods of the generated clusters: what the claim inspector and the
// allocation simulator will rely on.
#include <map>
#include <set>

#include <QHostAddress>

#include <gtest/gtest.h>

#include "tests/core/sandbox/preset_test_support.h"

using dra::test::generatePreset;
using dra::test::itemsOfKind;
using dra::test::quantityValue;
using nlohmann::json;

namespace {

std::string keyOf(const json &object)
{
    return object["metadata"].value("namespace", "") + '/'
        + object["metadata"]["name"].get<std::string>();
}

class PresetWorkloadsTest : public testing::TestWithParam<std::pair<std::string, int>>
{
};

} // namespace

TEST_P(PresetWorkloadsTest, AllocatedClaimsReferenceExistingDevicesAndPods)
{
    const json list = generatePreset(GetParam().first, GetParam().second, 3);
    const auto devices = dra::test::devicesByKey(list);
    std::map<std::string, const json *> pods, templates;
    for (const json *pod : itemsOfKind(list, "Pod"))
        pods[keyOf(*pod)] = pod;
    for (const json *t : itemsOfKind(list, "ResourceClaimTemplate"))
        templates[keyOf(*t)] = t;
    std::set<std::string> taken;
    int allocated = 0;
    for (const json *claim : itemsOfKind(list, "ResourceClaim")) {
        const std::string ns = (*claim)["metadata"]["namespace"];
        const json &status = (*claim)["status"];
        if (!status.contains("allocation")) {
            EXPECT_FALSE(status.contains("reservedFor")) << keyOf(*claim);
            continue;
        }
        ++allocated;
        const std::string node = status["allocation"]["nodeSelector"]["nodeSelectorTerms"][0]
                                       ["matchFields"][0]["values"][0];
        const json &results = status["allocation"]["devices"]["results"];
        ASSERT_FALSE(results.empty());
        std::set<std::string> requests;
        for (const json &request : (*claim)["spec"]["devices"]["requests"])
            requests.insert(request["name"].get<std::string>());
        for (const json &result : results) {
            const std::string device = result["driver"].get<std::string>() + '/'
                + result["pool"].get<std::string>() + '/' + result["device"].get<std::string>();
            EXPECT_TRUE(devices.contains(device)) << keyOf(*claim) << " got missing " << device;
            EXPECT_TRUE(taken.insert(device).second) << device << " allocated twice";
            EXPECT_EQ(result["pool"], node);
            EXPECT_TRUE(requests.contains(result["request"].get<std::string>()));
        }
        ASSERT_TRUE(status.contains("reservedFor")) << keyOf(*claim);
        for (const json &consumer : status["reservedFor"]) {
            EXPECT_EQ(consumer["resource"], "pods");
            const std::string podKey = ns + '/' + consumer["name"].get<std::string>();
            ASSERT_TRUE(pods.contains(podKey)) << podKey;
            const json &pod = *pods[podKey];
            EXPECT_EQ(pod["metadata"]["uid"], consumer["uid"]);
            EXPECT_EQ(pod["spec"]["nodeName"], node);
            EXPECT_EQ(pod["status"]["phase"], "Running");
            // The pod names the claim directly or through its resourceClaimStatuses.
            bool named = false;
            for (const json &podClaim : pod["spec"]["resourceClaims"])
                named = named
                    || podClaim.value("resourceClaimName", "") == (*claim)["metadata"]["name"];
            for (const json &claimStatus :
                pod["status"].value("resourceClaimStatuses", json::array()))
                named = named || claimStatus["resourceClaimName"] == (*claim)["metadata"]["name"];
            EXPECT_TRUE(named) << podKey << " does not reference " << keyOf(*claim);
        }
    }
    EXPECT_GT(allocated, 0);
    // Every template a pod names exists, and every stamped claim it points to exists.
    std::set<std::string> claims;
    for (const json *claim : itemsOfKind(list, "ResourceClaim"))
        claims.insert(keyOf(*claim));
    for (const auto &[podKey, pod] : pods) {
        const std::string ns = (*pod)["metadata"]["namespace"];
        for (const json &podClaim : (*pod)["spec"].value("resourceClaims", json::array())) {
            if (podClaim.contains("resourceClaimTemplateName"))
                EXPECT_TRUE(templates.contains(
                    ns + '/' + podClaim["resourceClaimTemplateName"].get<std::string>()));
            else
                EXPECT_TRUE(
                    claims.contains(ns + '/' + podClaim["resourceClaimName"].get<std::string>()));
        }
        for (const json &claimStatus :
            (*pod)["status"].value("resourceClaimStatuses", json::array()))
            EXPECT_TRUE(
                claims.contains(ns + '/' + claimStatus["resourceClaimName"].get<std::string>()));
    }
}

// Tools and probes parse these: each pod has a dotted-quad IPv4 address within the podCIDR of
// the node it runs on.
TEST_P(PresetWorkloadsTest, PodAddressesLieInTheirNodesPodCidr)
{
    const json list = generatePreset(GetParam().first, GetParam().second, 3);
    std::map<std::string, QPair<QHostAddress, int>> cidrs;
    for (const json *node : itemsOfKind(list, "Node")) {
        const auto subnet = QHostAddress::parseSubnet(
            QString::fromStdString((*node)["spec"]["podCIDR"].get<std::string>()));
        ASSERT_EQ(subnet.first.protocol(), QAbstractSocket::IPv4Protocol) << keyOf(*node);
        cidrs[(*node)["metadata"]["name"].get<std::string>()] = subnet;
    }
    for (const json *pod : itemsOfKind(list, "Pod")) {
        if (!(*pod)["status"].contains("podIP"))
            continue; // not running yet
        const QHostAddress ip(QString::fromStdString((*pod)["status"]["podIP"].get<std::string>()));
        ASSERT_EQ(ip.protocol(), QAbstractSocket::IPv4Protocol)
            << keyOf(*pod) << ": " << (*pod)["status"]["podIP"];
        const std::string node = (*pod)["spec"]["nodeName"];
        ASSERT_TRUE(cidrs.contains(node)) << keyOf(*pod);
        EXPECT_TRUE(ip.isInSubnet(cidrs[node])) << keyOf(*pod) << " on " << node;
    }
}

INSTANTIATE_TEST_SUITE_P(AllPresets, PresetWorkloadsTest,
    testing::Values(std::pair<std::string, int> { "mixed", 0 },
        std::pair<std::string, int> { "h100-sxm", 0 },
        std::pair<std::string, int> { "a100-mig", 0 },
        std::pair<std::string, int> { "l40s-pcie", 0 }, std::pair<std::string, int> { "scale", 30 },
        std::pair<std::string, int> { "mixed", 1 }, std::pair<std::string, int> { "h100-sxm", 1 },
        std::pair<std::string, int> { "a100-mig", 1 },
        std::pair<std::string, int> { "l40s-pcie", 1 },
        std::pair<std::string, int> { "scale", 1 }));

TEST(PresetWorkloadsMixedTest, AllocatedMigDevicesFitTheirGpusCounters)
{
    const json list = generatePreset("mixed", 0, 11);
    const auto devices = dra::test::devicesByKey(list);
    std::map<std::string, std::map<std::string, int64_t>> capacity, used; // pool/set -> counter
    for (const json *slice : itemsOfKind(list, "ResourceSlice")) {
        for (const json &set : (*slice)["spec"].value("sharedCounters", json::array()))
            for (const auto &[counter, value] : set["counters"].items())
                capacity[(*slice)["spec"]["pool"]["name"].get<std::string>() + '/'
                    + set["name"].get<std::string>()][counter]
                    = quantityValue(value["value"]);
    }
    int migAllocations = 0;
    for (const json *claim : itemsOfKind(list, "ResourceClaim")) {
        if (!(*claim)["status"].contains("allocation"))
            continue;
        for (const json &result : (*claim)["status"]["allocation"]["devices"]["results"]) {
            const json &device = *devices.at(result["driver"].get<std::string>() + '/'
                + result["pool"].get<std::string>() + '/' + result["device"].get<std::string>());
            for (const json &consumption : device.value("consumesCounters", json::array())) {
                migAllocations += device["attributes"]["type"]["string"] == "mig" ? 1 : 0;
                const std::string set = result["pool"].get<std::string>() + '/'
                    + consumption["counterSet"].get<std::string>();
                for (const auto &[counter, value] : consumption["counters"].items()) {
                    used[set][counter] += quantityValue(value["value"]);
                    EXPECT_LE(used[set][counter], capacity[set][counter]) << set << ' ' << counter;
                }
            }
        }
    }
    EXPECT_EQ(migAllocations, 5 + 2);
}

TEST(PresetWorkloadsMixedTest, ThreeWorldsRunWhatTheyNeed)
{
    const json list = generatePreset("mixed");
    std::map<std::string, const json *> pods, claims;
    for (const json *pod : itemsOfKind(list, "Pod"))
        pods[keyOf(*pod)] = pod;
    for (const json *claim : itemsOfKind(list, "ResourceClaim"))
        claims[keyOf(*claim)] = claim;
    const auto claimOf = [&](const std::string &podKey) -> const json & {
        const json &pod = *pods.at(podKey);
        const std::string ns = pod["metadata"]["namespace"];
        return *claims.at(ns + '/'
            + pod["status"]["resourceClaimStatuses"][0]["resourceClaimName"].get<std::string>());
    };
    // Inference: one server on a whole H100 node.
    EXPECT_EQ(
        claimOf("inference/llm-tp8-0")["status"]["allocation"]["devices"]["results"].size(), 8u);
    // Training: a gang of four on four distinct nodes, each with 8 GPUs and 8 NICs.
    std::set<std::string> trainerNodes;
    for (int i = 0; i < 4; ++i) {
        const std::string key = "training/trainer-" + std::to_string(i);
        ASSERT_TRUE(pods.contains(key)) << key;
        trainerNodes.insert((*pods[key])["spec"]["nodeName"].get<std::string>());
        EXPECT_EQ(claimOf(key)["status"]["allocation"]["devices"]["results"].size(), 16u);
    }
    EXPECT_EQ(trainerNodes.size(), 4u);
    // The fine-tune pair really is on one PCIe root.
    const auto devices = dra::test::devicesByKey(list);
    std::set<std::string> roots;
    for (const json &result :
        claimOf("training/finetune-0")["status"]["allocation"]["devices"]["results"])
        roots.insert((*devices.at(result["driver"].get<std::string>() + '/'
            + result["pool"].get<std::string>() + '/'
            + result["device"].get<std::string>()))["attributes"]["resource.kubernetes.io/pcieRoot"]
                                                   ["string"]
                                                       .get<std::string>());
    EXPECT_EQ(roots.size(), 1u);
    // A claim shared by two pods.
    EXPECT_EQ((*claims.at("inference/shared-l40s"))["status"]["reservedFor"].size(), 2u);
    // The negative control stays Pending and unallocated.
    EXPECT_EQ((*pods.at("batch/b200-probe"))["status"]["phase"], "Pending");
    EXPECT_FALSE((*claims.at("batch/needs-b200"))["status"].contains("allocation"));
    // The rollout's baseline: the llm-server Deployment runs one whole-node replica per
    // device-plugin node, through its ReplicaSet, behind a Service and an HTTPRoute.
    // Beside it, the Prometheus that measures it (no GPU) in `monitoring`.
    const auto inNamespace = [&](const char *kind, const std::string &ns) {
        std::vector<const json *> items = itemsOfKind(list, kind);
        std::erase_if(items,
            [&](const json *item) { return (*item)["metadata"].value("namespace", "") != ns; });
        return items;
    };
    const std::vector<const json *> monitoring = inNamespace("Deployment", "monitoring");
    ASSERT_EQ(monitoring.size(), 1u);
    EXPECT_EQ(keyOf(*monitoring[0]), "monitoring/prometheus");
    EXPECT_FALSE(
        (*monitoring[0])["spec"]["template"]["spec"]["containers"][0].contains("resources"));
    ASSERT_EQ(inNamespace("Service", "monitoring").size(), 1u);
    EXPECT_EQ((*inNamespace("Service", "monitoring")[0])["spec"]["ports"][0]["port"], 9090);
    const std::vector<const json *> deployments = inNamespace("Deployment", "inference");
    ASSERT_EQ(deployments.size(), 1u);
    EXPECT_EQ(keyOf(*deployments[0]), "inference/llm-server");
    EXPECT_EQ((*deployments[0])["spec"]["replicas"], 3);
    const std::vector<const json *> replicaSets = inNamespace("ReplicaSet", "inference");
    ASSERT_EQ(replicaSets.size(), 1u);
    const json &replicaSet = *replicaSets[0];
    EXPECT_EQ(
        replicaSet["metadata"]["ownerReferences"][0]["uid"], (*deployments[0])["metadata"]["uid"]);
    std::set<std::string> servingNodes;
    for (const auto &[key, pod] : pods) {
        const json owners = (*pod)["metadata"].value("ownerReferences", json::array());
        if (owners.empty() || owners[0]["uid"] != replicaSet["metadata"]["uid"])
            continue;
        EXPECT_TRUE(
            key.starts_with("inference/" + replicaSet["metadata"]["name"].get<std::string>() + '-'))
            << key;
        EXPECT_EQ((*pod)["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"], "8");
        EXPECT_EQ((*pod)["metadata"]["labels"], replicaSet["spec"]["selector"]["matchLabels"]);
        servingNodes.insert((*pod)["spec"]["nodeName"].get<std::string>());
    }
    EXPECT_EQ(servingNodes,
        (std::set<std::string> { "legacy-h100-000", "legacy-h100-001", "legacy-h100-002" }));
    ASSERT_EQ(inNamespace("Service", "inference").size(), 1u);
    EXPECT_EQ((*inNamespace("Service", "inference")[0])["spec"]["selector"]["app"], "llm-server");
    ASSERT_EQ(itemsOfKind(list, "HTTPRoute").size(), 1u);
    EXPECT_EQ(
        (*itemsOfKind(list, "HTTPRoute")[0])["spec"]["rules"][0]["backendRefs"][0]["weight"], 100);
    // Both drivers run as DaemonSets on the nodes of their stack.
    std::map<std::string, int> daemonSets;
    for (const json *daemonSet : itemsOfKind(list, "DaemonSet"))
        daemonSets[(*daemonSet)["metadata"]["name"]]
            = (*daemonSet)["status"]["desiredNumberScheduled"];
    EXPECT_EQ(daemonSets,
        (std::map<std::string, int> { { "nvidia-device-plugin-daemonset", 3 },
            { "nvidia-dra-driver-gpu-kubelet-plugin", 12 } }));
}

TEST(PresetWorkloadsMixedTest, PlacementFollowsTheSeed)
{
    std::set<std::string> serverNodes;
    for (uint64_t seed = 1; seed <= 8; ++seed) {
        const json list = generatePreset("mixed", 0, seed);
        for (const json *pod : itemsOfKind(list, "Pod")) {
            if ((*pod)["metadata"]["name"] == "llm-tp8-0")
                serverNodes.insert((*pod)["spec"]["nodeName"].get<std::string>());
        }
    }
    EXPECT_GT(serverNodes.size(), 1u);
}
