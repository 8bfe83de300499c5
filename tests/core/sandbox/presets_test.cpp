// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/presets.h"

#include <chrono>
#include <set>

#include <gtest/gtest.h>

#include "tests/core/sandbox/preset_test_support.h"

using dra::test::generatePreset;
using dra::test::itemsOfKind;
using nlohmann::json;

namespace {

std::vector<std::string> namesOf(const json &list, const std::string &kind)
{
    std::vector<std::string> names;
    for (const json *item : itemsOfKind(list, kind))
        names.push_back((*item)["metadata"]["name"]);
    return names;
}

int slicesOfDriver(const json &list, const std::string &driver)
{
    int count = 0;
    for (const json *slice : itemsOfKind(list, "ResourceSlice"))
        count += (*slice)["spec"]["driver"] == driver ? 1 : 0;
    return count;
}

} // namespace

TEST(PresetsTest, EveryListedPresetGeneratesAV1List)
{
    const auto presets = dra::sandbox::presetNames();
    ASSERT_EQ(presets.size(), 7u);
    for (const auto &[name, description] : presets) {
        EXPECT_FALSE(description.empty()) << name;
        const json list = generatePreset(name, name == "scale" ? 40 : 0);
        ASSERT_TRUE(list.is_object()) << name;
        EXPECT_EQ(list["apiVersion"], "v1");
        EXPECT_EQ(list["kind"], "List");
        for (const char *kind : { "Namespace", "Node", "DeviceClass", "ResourceSlice",
                 "ResourceClaimTemplate", "ResourceClaim", "Pod" })
            EXPECT_FALSE(itemsOfKind(list, kind).empty()) << name << " has no " << kind;
        std::set<std::string> uids;
        for (const json &item : list["items"]) {
            const json &metadata = item["metadata"];
            EXPECT_TRUE(uids.insert(metadata["uid"].get<std::string>()).second)
                << name << ": duplicate uid on " << metadata["name"];
            EXPECT_EQ(metadata["resourceVersion"], "1");
            EXPECT_EQ(metadata["generation"], 1);
            EXPECT_EQ(metadata["creationTimestamp"], "2026-01-15T09:00:00Z");
            const std::string api = item["apiVersion"];
            EXPECT_TRUE(api == "v1" || api == "resource.k8s.io/v1" || api == "apps/v1"
                || api == "gateway.networking.k8s.io/v1")
                << api;
        }
    }
}

TEST(PresetsTest, SameSeedSameBytesOtherSeedOtherIdentities)
{
    for (const auto &[name, description] : dra::sandbox::presetNames()) {
        const int nodes = name == "scale" ? 20 : 0;
        const json first = generatePreset(name, nodes, 7);
        const json again = generatePreset(name, nodes, 7);
        const json other = generatePreset(name, nodes, 8);
        EXPECT_EQ(first.dump(), again.dump()) << name;
        EXPECT_NE(first.dump(), other.dump()) << name;
        // Names are the documented ones whatever the seed; identities are not.
        EXPECT_EQ(namesOf(first, "Node"), namesOf(other, "Node")) << name;
        EXPECT_NE(first["items"][0]["metadata"]["uid"], other["items"][0]["metadata"]["uid"]);
    }
}

TEST(PresetsTest, H100SxmHasDocumentedNodesAndPools)
{
    const json list = generatePreset("h100-sxm");
    EXPECT_EQ(namesOf(list, "Node"),
        (std::vector<std::string> { "h100-000", "h100-001", "h100-002", "h100-003" }));
    EXPECT_EQ(slicesOfDriver(list, "gpu.nvidia.com"), 4);
    EXPECT_EQ(slicesOfDriver(list, "dra.net"), 4);
    EXPECT_EQ(namesOf(list, "Namespace"),
        (std::vector<std::string> { "inference", "training", "batch", "gpu-operator" }));
    for (const json *slice : itemsOfKind(list, "ResourceSlice")) {
        const json &spec = (*slice)["spec"];
        EXPECT_EQ(spec["pool"]["name"], spec["nodeName"]);
        EXPECT_EQ(spec["pool"]["resourceSliceCount"], 1);
        ASSERT_EQ(spec["devices"].size(), 8u);
        if (spec["driver"] == "gpu.nvidia.com") {
            for (int i = 0; i < 8; ++i)
                EXPECT_EQ(spec["devices"][size_t(i)]["name"], "gpu-" + std::to_string(i));
        }
        const std::string name = (*slice)["metadata"]["name"];
        EXPECT_TRUE(name.starts_with(
            spec["nodeName"].get<std::string>() + '-' + spec["driver"].get<std::string>() + '-'))
            << name;
    }
    EXPECT_EQ(itemsOfKind(generatePreset("h100-sxm", 2), "Node").size(), 2u);
}

TEST(PresetsTest, MixedClusterHasThreeWorldsAndFourKindsOfNode)
{
    const json list = generatePreset("mixed");
    const std::vector<std::string> nodes = namesOf(list, "Node");
    ASSERT_EQ(nodes.size(), 15u);
    EXPECT_EQ(nodes.front(), "h100-000");
    EXPECT_EQ(nodes[7], "h100-007");
    EXPECT_EQ(nodes[8], "a100-mig-000");
    EXPECT_EQ(nodes[10], "l40s-000");
    EXPECT_EQ(nodes[12], "legacy-h100-000");
    EXPECT_EQ(nodes[14], "legacy-h100-002");
    // 8 H100 nodes: a GPU and a NIC pool each; A100: 1 counter slice + 3 device slices; L40S: 1.
    EXPECT_EQ(slicesOfDriver(list, "gpu.nvidia.com"), 8 + 2 * 4 + 2);
    EXPECT_EQ(slicesOfDriver(list, "dra.net"), 8);
    EXPECT_EQ(namesOf(list, "DeviceClass"),
        (std::vector<std::string> { "compute-domain-daemon.nvidia.com",
            "compute-domain-default-channel.nvidia.com", "gpu.nvidia.com", "mig.nvidia.com",
            "vfio.gpu.nvidia.com", "dranet" }));
    std::set<std::string> namespaces;
    for (const json *pod : itemsOfKind(list, "Pod"))
        namespaces.insert((*pod)["metadata"]["namespace"].get<std::string>());
    EXPECT_EQ(
        namespaces, (std::set<std::string> { "inference", "training", "batch", "monitoring" }));
    EXPECT_EQ(namesOf(list, "Namespace"),
        (std::vector<std::string> {
            "inference", "training", "batch", "gpu-operator", "monitoring" }));
    EXPECT_EQ(itemsOfKind(generatePreset("mixed", 2), "Node").size(), 2u + 7u);
}

TEST(PresetsTest, A100AndL40SPresetsHonourNodeCounts)
{
    EXPECT_EQ(namesOf(generatePreset("a100-mig"), "Node"),
        (std::vector<std::string> { "a100-mig-000", "a100-mig-001" }));
    const json l40s = generatePreset("l40s-pcie");
    EXPECT_EQ(itemsOfKind(l40s, "Node").size(), 4u);
    for (const json *slice : itemsOfKind(l40s, "ResourceSlice"))
        EXPECT_EQ((*slice)["spec"]["devices"].size(), 4u);
    // No NICs in these presets, so no NIC class either.
    EXPECT_EQ(itemsOfKind(l40s, "DeviceClass").size(), 5u);
}

TEST(PresetsTest, EveryNodeReportsCompleteNodeInfoAndCapacity)
{
    const json list = generatePreset("mixed");
    for (const json *node : itemsOfKind(list, "Node")) {
        const json &status = (*node)["status"];
        for (const char *field : { "machineID", "systemUUID", "bootID", "kernelVersion", "osImage",
                 "containerRuntimeVersion", "kubeletVersion", "kubeProxyVersion", "operatingSystem",
                 "architecture" }) {
            ASSERT_TRUE(status["nodeInfo"].contains(field)) << field;
            EXPECT_FALSE(status["nodeInfo"][field].get<std::string>().empty()) << field;
        }
        for (const char *resource : { "cpu", "memory", "pods" }) {
            EXPECT_TRUE(status["capacity"].contains(resource)) << resource;
            EXPECT_TRUE(status["allocatable"].contains(resource)) << resource;
        }
        EXPECT_EQ(
            (*node)["metadata"]["labels"]["kubernetes.io/hostname"], (*node)["metadata"]["name"]);
        EXPECT_EQ(status["conditions"].back()["type"], "Ready");
    }
}

TEST(PresetsTest, ReleasePresetsAreTheMixedClusterOnAnOlderKubernetes)
{
    using dra::sandbox::presetKubernetesVersion;
    EXPECT_EQ(
        presetKubernetesVersion({ "mixed" }).value_or(""), dra::sandbox::kDemoKubernetesVersion);
    EXPECT_EQ(presetKubernetesVersion({ "mixed-1.32" }).value_or(""), "v1.32.5");
    EXPECT_EQ(presetKubernetesVersion({ "mixed-1.34" }).value_or(""), "v1.34.2");
    // Any preset on an asked release, written as /version writes it.
    EXPECT_EQ(presetKubernetesVersion({ "h100-sxm", 0, 1, "1.33" }).value_or(""), "v1.33.0");
    EXPECT_EQ(presetKubernetesVersion({ "mixed-1.32", 0, 1, "v1.35.1" }).value_or(""), "v1.35.1");
    const auto tooOld = presetKubernetesVersion({ "mixed", 0, 1, "1.29" });
    ASSERT_FALSE(tooOld.has_value());
    EXPECT_TRUE(tooOld.error().message.contains(QStringLiteral("1.29")))
        << tooOld.error().message.toStdString();
    EXPECT_FALSE(presetKubernetesVersion({ "no-such-preset" }).has_value());

    // The same nodes as the mixed cluster; its kubelets one minor behind its control plane.
    const json mixed = generatePreset("mixed");
    const json older = generatePreset("mixed-1.32");
    EXPECT_EQ(namesOf(older, "Node"), namesOf(mixed, "Node"));
    EXPECT_EQ(namesOf(older, "ResourceSlice"), namesOf(mixed, "ResourceSlice"));
    for (const json *node : itemsOfKind(older, "Node"))
        EXPECT_EQ((*node)["status"]["nodeInfo"]["kubeletVersion"], "v1.31.2");
    for (const json *node : itemsOfKind(mixed, "Node"))
        EXPECT_EQ((*node)["status"]["nodeInfo"]["kubeletVersion"], "v1.35.2");
    const auto asked = dra::sandbox::generateInventory({ "mixed", 0, 1, "1.34" });
    ASSERT_TRUE(asked.has_value());
    for (const json *node : itemsOfKind(*asked, "Node"))
        EXPECT_EQ((*node)["status"]["nodeInfo"]["kubeletVersion"], "v1.33.2");
}

TEST(PresetsTest, RejectsUnknownPresetAndBadNodeCounts)
{
    const auto unknown = dra::sandbox::generateInventory({ "b200-nvl72", 0, 1 });
    ASSERT_FALSE(unknown.has_value());
    EXPECT_EQ(unknown.error().code, dra::common::Error::Code::Invalid);
    EXPECT_TRUE(unknown.error().message.contains(QStringLiteral("h100-sxm")))
        << unknown.error().message.toStdString();
    EXPECT_FALSE(dra::sandbox::generateInventory({ "h100-sxm", -1, 1 }).has_value());
    EXPECT_FALSE(dra::sandbox::generateInventory({ "scale", 1000000, 1 }).has_value());
}

TEST(PresetsTest, ScaleGeneratesFiveThousandNodesByDefault)
{
    const auto start = std::chrono::steady_clock::now();
    const json list = generatePreset("scale");
    const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    const auto nodes = itemsOfKind(list, "Node");
    ASSERT_EQ(nodes.size(), 5000u);
    EXPECT_EQ((*nodes.front())["metadata"]["name"], "node-00000");
    EXPECT_EQ((*nodes.back())["metadata"]["name"], "node-04999");
    size_t devices = 0;
    for (const json *slice : itemsOfKind(list, "ResourceSlice"))
        devices += (*slice)["spec"]["devices"].size();
    EXPECT_EQ(devices, 40000u);
    // Timing is only meaningful in Release; the benchmark asserts it, here we report it.
    RecordProperty("generate_ms", int(elapsed.count()));
}
