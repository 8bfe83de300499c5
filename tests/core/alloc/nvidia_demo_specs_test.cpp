// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The NVIDIA GPU DRA driver's quickstart specs (../shared/upstream/nvidia-dra-driver/demo/specs/
// quickstart/v1), simulated pod by pod: each must come out as the driver's documentation
// describes it. The GPU nodes are built here the way the driver publishes them.
#include <algorithm>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "core/alloc/workloads.h"
#include "core/model/manifest_reader.h"
#include "core/sandbox/presets.h"
#include "tests/support/upstream.h"

namespace dra::alloc {
namespace {

using nlohmann::json;

json deviceClass(const std::string &name, const std::string &type)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "DeviceClass" },
        { "metadata", { { "name", name } } },
        { "spec",
            { { "selectors",
                json::array({ { { "cel",
                    { { "expression",
                        "device.driver == 'gpu.nvidia.com' && "
                        "device.attributes['gpu.nvidia.com'].type == '"
                            + type + "'" } } } } }) } } } };
}

// An A100-SXM4-40GB node as the driver publishes it with MIG enabled: every GPU whole and in
// every MIG placement, each consuming the GPU's eight memory slices from a shared counter set,
// with the `index` attribute older drivers publish.
std::vector<json> a100Node(const std::string &node)
{
    struct Profile
    {
        const char *name;
        int slices;
        std::vector<int> starts;
    };
    const std::vector<Profile> profiles
        = { { "1g.5gb", 1, { 0, 1, 2, 3, 4, 5, 6 } }, { "2g.10gb", 2, { 0, 2, 4 } },
              { "3g.20gb", 4, { 0, 4 } }, { "4g.20gb", 4, { 0 } }, { "7g.40gb", 8, { 0 } } };
    json sets = json::array(), devices = json::array();
    for (int gpu = 0; gpu < 8; ++gpu) {
        const std::string set = "gpu-" + std::to_string(gpu) + "-counter-set";
        const std::string uuid = "GPU-" + node + "-" + std::to_string(gpu);
        json counters = json::object();
        for (int s = 0; s < 8; ++s)
            counters["memory-slice-" + std::to_string(s)] = { { "value", "1" } };
        sets.push_back({ { "name", set }, { "counters", counters } });
        const json common = { { "productName", { { "string", "NVIDIA A100-SXM4-40GB" } } },
            { "resource.kubernetes.io/pcieRoot",
                { { "string", "pci0000:" + std::to_string(gpu / 2) } } } };
        json whole = { { "name", "gpu-" + std::to_string(gpu) }, { "attributes", common },
            { "capacity", { { "memory", { { "value", "40Gi" } } } } },
            { "consumesCounters",
                json::array({ { { "counterSet", set }, { "counters", counters } } }) } };
        whole["attributes"]["type"] = { { "string", "gpu" } };
        whole["attributes"]["uuid"] = { { "string", uuid } };
        whole["attributes"]["index"] = { { "int", gpu } };
        devices.push_back(whole);
        for (const Profile &profile : profiles)
            for (const int start : profile.starts) {
                json used = json::object();
                for (int s = start; s < start + profile.slices; ++s)
                    used["memory-slice-" + std::to_string(s)] = { { "value", "1" } };
                std::string id = profile.name;
                id.erase(std::remove(id.begin(), id.end(), '.'), id.end());
                json mig = { { "name",
                                 "gpu-" + std::to_string(gpu) + "-mig-" + id + "-"
                                     + std::to_string(start) },
                    { "attributes", common },
                    { "consumesCounters",
                        json::array({ { { "counterSet", set }, { "counters", used } } }) } };
                mig["attributes"]["type"] = { { "string", "mig" } };
                mig["attributes"]["profile"] = { { "string", profile.name } };
                mig["attributes"]["parentUUID"] = { { "string", uuid } };
                devices.push_back(mig);
            }
    }
    const json pool = { { "name", node }, { "generation", 1 }, { "resourceSliceCount", 2 } };
    return { { { "apiVersion", "v1" }, { "kind", "Node" }, { "metadata", { { "name", node } } } },
        { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceSlice" },
            { "metadata", { { "name", node + "-counters" } } },
            { "spec",
                { { "driver", "gpu.nvidia.com" }, { "nodeName", node }, { "pool", pool },
                    { "sharedCounters", sets } } } },
        { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceSlice" },
            { "metadata", { { "name", node + "-devices" } } },
            { "spec",
                { { "driver", "gpu.nvidia.com" }, { "nodeName", node }, { "pool", pool },
                    { "devices", devices } } } } };
}

struct Demo
{
    std::shared_ptr<Cluster> cluster;
    std::vector<PodPlacement> pods;
};

// Simulates one quickstart spec against `inventory` (JSON objects).
Demo simulateSpec(const std::string &spec, const std::vector<json> &inventory)
{
    Demo demo;
    const std::filesystem::path path
        = dra::test::upstreamPath("nvidia-dra-driver/demo/specs/quickstart/v1/" + spec);
    const model::ManifestSet manifests
        = model::readManifests({ QString::fromStdString(path.string()) });
    EXPECT_TRUE(manifests.problems.empty());
    std::vector<json> documents;
    for (const model::ManifestDocument &document : manifests.documents)
        documents.push_back(document.object);
    Result<SimulationInput> input = readSimulationInput(documents);
    EXPECT_TRUE(input.has_value()) << (input ? "" : input.error().message.toStdString());
    std::vector<model::Object> objects;
    for (const json &object : inventory) {
        Result<model::Object> decoded = model::decodeObject(object);
        EXPECT_TRUE(decoded.has_value()) << (decoded ? "" : decoded.error().message.toStdString());
        if (decoded)
            objects.push_back(std::move(*decoded));
    }
    Result<Cluster> cluster = Cluster::build(std::move(objects));
    demo.cluster = std::make_shared<Cluster>(std::move(*cluster));
    Simulator simulator(*demo.cluster, release::KubernetesRelease::newest(),
        AllocatedState::fromClaims(*demo.cluster));
    demo.pods = simulatePods(simulator, *input, {});
    return demo;
}

// Two H100 nodes of the demo presets, nothing allocated.
std::vector<json> h100Inventory()
{
    Result<json> list = sandbox::generateInventory({ "h100-sxm", 2, 1 });
    std::vector<json> out;
    for (const json &item : (*list)["items"])
        if (item["kind"] != "ResourceClaim" && item["kind"] != "Pod")
            out.push_back(item);
    return out;
}

std::vector<json> a100Inventory()
{
    std::vector<json> out
        = { deviceClass("gpu.nvidia.com", "gpu"), deviceClass("mig.nvidia.com", "mig") };
    for (json &object : a100Node("a100-40gb-0"))
        out.push_back(std::move(object));
    return out;
}

std::vector<std::string> devicesOf(const PodPlacement &pod)
{
    std::vector<std::string> out;
    for (const ClaimResult &claim : pod.results)
        for (const DeviceResult &device : claim.devices)
            out.push_back(device.pool + "/" + device.name);
    return out;
}

const model::DeviceAttribute *attributeOf(
    const Cluster &cluster, const DeviceResult &device, const std::string &name)
{
    return cluster.devices()[size_t(device.device)].spec->attribute(name, device.driver);
}

// gpu-test1: "two pods, one container each, each container asking for 1 distinct GPU".
TEST(NvidiaDemoSpecsTest, GpuTest1TwoPodsGetDistinctGpus)
{
    DRA_REQUIRE_UPSTREAM(dir, "nvidia-dra-driver/demo/specs/quickstart/v1/gpu-test1.yaml");
    const Demo demo = simulateSpec("gpu-test1.yaml", h100Inventory());
    ASSERT_EQ(demo.pods.size(), 2u);
    for (const PodPlacement &pod : demo.pods) {
        ASSERT_TRUE(pod.placed) << pod.name << ": " << pod.placement.error;
        EXPECT_EQ(devicesOf(pod).size(), 1u);
    }
    EXPECT_NE(devicesOf(demo.pods[0]), devicesOf(demo.pods[1]));
}

// gpu-test2: "one pod, two containers, both sharing one GPU" (one claim from a template).
TEST(NvidiaDemoSpecsTest, GpuTest2OnePodOneGpu)
{
    DRA_REQUIRE_UPSTREAM(dir, "nvidia-dra-driver/demo/specs/quickstart/v1/gpu-test2.yaml");
    const Demo demo = simulateSpec("gpu-test2.yaml", h100Inventory());
    ASSERT_EQ(demo.pods.size(), 1u);
    ASSERT_TRUE(demo.pods[0].placed) << demo.pods[0].placement.error;
    EXPECT_EQ(devicesOf(demo.pods[0]).size(), 1u);
}

// gpu-test3: "two pods sharing one GPU" through one named ResourceClaim.
TEST(NvidiaDemoSpecsTest, GpuTest3TwoPodsShareOneClaim)
{
    DRA_REQUIRE_UPSTREAM(dir, "nvidia-dra-driver/demo/specs/quickstart/v1/gpu-test3.yaml");
    const Demo demo = simulateSpec("gpu-test3.yaml", h100Inventory());
    ASSERT_EQ(demo.pods.size(), 2u);
    ASSERT_TRUE(demo.pods[0].placed && demo.pods[1].placed);
    EXPECT_EQ(devicesOf(demo.pods[0]).size(), 1u);
    EXPECT_TRUE(demo.pods[1].claims.empty())
        << "the second pod reuses the claim allocated for the first";
    EXPECT_EQ(demo.pods[1].shared, (std::vector<std::string> { "gpu-test3/single-gpu" }));
    EXPECT_EQ(demo.pods[0].node, demo.pods[1].node);
}

// gpu-test4: four replicas, each with MIG devices 1g.5gb, 1g.5gb, 2g.10gb and 3g.20gb that must
// share a parent GPU: together they take one whole A100-40GB each.
TEST(NvidiaDemoSpecsTest, GpuTest4MigDevicesShareTheirParentGpu)
{
    DRA_REQUIRE_UPSTREAM(dir, "nvidia-dra-driver/demo/specs/quickstart/v1/gpu-test4.yaml");
    const Demo demo = simulateSpec("gpu-test4.yaml", a100Inventory());
    ASSERT_EQ(demo.pods.size(), 4u);
    std::set<std::string> parents;
    for (const PodPlacement &pod : demo.pods) {
        ASSERT_TRUE(pod.placed) << pod.name << ": " << pod.placement.error << " "
                                << pod.placement.summary;
        ASSERT_EQ(pod.results.size(), 1u);
        std::set<std::string> podParents;
        std::multiset<std::string> profiles;
        for (const DeviceResult &device : pod.results[0].devices) {
            podParents.insert(attributeOf(*demo.cluster, device, "parentUUID")->stringValue);
            profiles.insert(attributeOf(*demo.cluster, device, "profile")->stringValue);
        }
        EXPECT_EQ(podParents.size(), 1u);
        EXPECT_EQ(
            profiles, (std::multiset<std::string> { "1g.5gb", "1g.5gb", "2g.10gb", "3g.20gb" }));
        parents.insert(*podParents.begin());
    }
    EXPECT_EQ(parents.size(), 4u) << "each replica fills a GPU of its own";
}

// gpu-test5: one pod with two GPUs, one time-sliced and one for MPS.
TEST(NvidiaDemoSpecsTest, GpuTest5OnePodTwoGpus)
{
    DRA_REQUIRE_UPSTREAM(dir, "nvidia-dra-driver/demo/specs/quickstart/v1/gpu-test5.yaml");
    const Demo demo = simulateSpec("gpu-test5.yaml", h100Inventory());
    ASSERT_EQ(demo.pods.size(), 1u);
    ASSERT_TRUE(demo.pods[0].placed) << demo.pods[0].placement.error;
    const std::vector<std::string> devices = devicesOf(demo.pods[0]);
    ASSERT_EQ(devices.size(), 2u);
    EXPECT_NE(devices[0], devices[1]);
}

// gpu-test6: four replicas, each on one of the A100s with an even index (0, 2, 4, 6).
TEST(NvidiaDemoSpecsTest, GpuTest6PicksEvenIndexA100s)
{
    DRA_REQUIRE_UPSTREAM(dir, "nvidia-dra-driver/demo/specs/quickstart/v1/gpu-test6.yaml");
    const Demo demo = simulateSpec("gpu-test6.yaml", a100Inventory());
    ASSERT_EQ(demo.pods.size(), 4u);
    std::set<int64_t> indexes;
    for (const PodPlacement &pod : demo.pods) {
        ASSERT_TRUE(pod.placed) << pod.name << ": " << pod.placement.error;
        indexes.insert(attributeOf(*demo.cluster, pod.results[0].devices[0], "index")->intValue);
    }
    EXPECT_EQ(indexes, (std::set<int64_t> { 0, 2, 4, 6 }));
}

} // namespace
} // namespace dra::alloc
