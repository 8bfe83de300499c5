// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The generated ResourceSlices against what the NVIDIA GPU DRA driver documents it publishes.
#include <map>
#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "tests/core/sandbox/preset_test_support.h"
#include "tests/support/upstream.h"

using dra::test::generatePreset;
using dra::test::itemsOfKind;
using dra::test::quantityValue;
using nlohmann::json;

namespace {

// Backticked names in the first column of the table under the heading starting with `heading`.
std::set<std::string> tableNames(const std::string &markdown, const std::string &heading)
{
    std::set<std::string> names;
    const size_t start = markdown.find("\n## " + heading);
    if (start == std::string::npos)
        return names;
    const size_t end = markdown.find("\n## ", start + 4);
    std::istringstream section(markdown.substr(start, end - start));
    static const std::regex backticked("`([^`]+)`");
    for (std::string line; std::getline(section, line);) {
        if (!line.starts_with("| `"))
            continue;
        const std::string firstCell = line.substr(1, line.find('|', 1) - 1);
        for (auto it = std::sregex_iterator(firstCell.begin(), firstCell.end(), backticked);
             it != std::sregex_iterator(); ++it)
            names.insert((*it)[1]);
    }
    return names;
}

std::vector<const json *> gpuDriverDevices(const json &list, const std::string &type)
{
    std::vector<const json *> out;
    for (const json *slice : itemsOfKind(list, "ResourceSlice")) {
        if ((*slice)["spec"]["driver"] != "gpu.nvidia.com" || !(*slice)["spec"].contains("devices"))
            continue;
        for (const json &device : (*slice)["spec"]["devices"]) {
            if (device["attributes"]["type"]["string"] == type)
                out.push_back(&device);
        }
    }
    return out;
}

const std::vector<std::string> kRequiredGpuAttributes
    = { "type", "uuid", "productName", "brand", "architecture", "cudaComputeCapability",
          "driverVersion", "cudaDriverVersion", "resource.kubernetes.io/pciBusID",
          "resource.kubernetes.io/pcieRoot", "resource.kubernetes.io/numaNode" };

} // namespace

TEST(PresetDevicesTest, GpuAndMigAttributesAreTheOnesTheDriverPublishes)
{
    DRA_REQUIRE_UPSTREAM(path, "nvidia-dra-driver/ATTRIBUTES.md");
    const std::string doc = dra::test::readFile(path);
    const std::set<std::string> gpuNames = tableNames(doc, "Attributes — full GPU");
    const std::set<std::string> migNames = tableNames(doc, "Attributes — MIG device");
    ASSERT_TRUE(gpuNames.contains("productName") && migNames.contains("parentUUID"))
        << "ATTRIBUTES.md tables changed shape";
    const json list = generatePreset("mixed");
    const std::vector<const json *> gpus = gpuDriverDevices(list, "gpu");
    const std::vector<const json *> migs = gpuDriverDevices(list, "mig");
    ASSERT_EQ(gpus.size(), 8u * 8 + 2 * 8 + 2 * 4);
    ASSERT_FALSE(migs.empty());
    static const std::regex uuid(
        "GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    std::set<std::string> uuids;
    for (const json *device : gpus) {
        const json &attributes = (*device)["attributes"];
        for (const std::string &name : kRequiredGpuAttributes)
            EXPECT_TRUE(attributes.contains(name)) << (*device)["name"] << " lacks " << name;
        for (const auto &[name, value] : attributes.items())
            EXPECT_TRUE(gpuNames.contains(name))
                << name << " is not a GPU attribute in ATTRIBUTES.md";
        for (const char *version :
            { "cudaComputeCapability", "driverVersion", "cudaDriverVersion" })
            EXPECT_TRUE(attributes[version].contains("version")) << version;
        EXPECT_TRUE(attributes["resource.kubernetes.io/numaNode"].contains("int"));
        const std::string id = attributes["uuid"]["string"];
        EXPECT_TRUE(std::regex_match(id, uuid)) << id;
        EXPECT_TRUE(uuids.insert(id).second) << "duplicate " << id;
        EXPECT_GT(quantityValue((*device)["capacity"]["memory"]["value"]), int64_t(40) << 30);
        EXPECT_TRUE(
            std::regex_match((*device)["name"].get<std::string>(), std::regex("gpu-[0-7]")));
    }
    static const std::regex migName("gpu-[0-7]-mig-[0-9]g[0-9]+gb-[0-9]+-[0-7]");
    for (const json *device : migs) {
        const json &attributes = (*device)["attributes"];
        for (const auto &[name, value] : attributes.items())
            EXPECT_TRUE(migNames.contains(name))
                << name << " is not a MIG attribute in ATTRIBUTES.md";
        EXPECT_TRUE(uuids.contains(attributes["parentUUID"]["string"].get<std::string>()));
        EXPECT_FALSE(attributes.contains("uuid")) << "abstract dynamic-MIG devices have no UUID";
        EXPECT_TRUE(std::regex_match((*device)["name"].get<std::string>(), migName))
            << (*device)["name"];
        for (const char *capacity : { "multiprocessors", "copyEngines", "decoders", "encoders",
                 "jpegEngines", "ofaEngines", "memory" }) {
            EXPECT_TRUE((*device)["capacity"].contains(capacity)) << capacity;
            EXPECT_NE(doc.find(std::string("`") + capacity + '`'), std::string::npos) << capacity;
        }
    }
}

TEST(PresetDevicesTest, DeviceClassesMatchTheHelmChart)
{
    DRA_REQUIRE_UPSTREAM(dir, "nvidia-dra-driver/deployments/helm/dra-driver-nvidia-gpu/templates");
    std::map<std::string, std::string> chart; // name -> CEL expression
    for (const auto &entry : std::filesystem::directory_iterator(dir)) {
        if (!entry.path().filename().string().starts_with("deviceclass-"))
            continue;
        const std::string text = dra::test::readFile(entry.path());
        std::smatch name, expression;
        ASSERT_TRUE(std::regex_search(text, name, std::regex(R"(name: (\S+))")));
        ASSERT_TRUE(
            std::regex_search(text, expression, std::regex(R"re(expression: "([^"]+)")re")));
        chart[name[1]] = expression[1];
    }
    ASSERT_EQ(chart.size(), 5u);
    const json list = generatePreset("mixed");
    std::map<std::string, const json *> ours;
    for (const json *deviceClass : itemsOfKind(list, "DeviceClass"))
        ours[(*deviceClass)["metadata"]["name"]] = deviceClass;
    for (const auto &[name, expression] : chart) {
        ASSERT_TRUE(ours.contains(name)) << name;
        EXPECT_EQ((*ours[name])["spec"]["selectors"][0]["cel"]["expression"], expression) << name;
    }
    EXPECT_EQ((*ours["gpu.nvidia.com"])["spec"]["extendedResourceName"], "nvidia.com/gpu");
}

TEST(PresetDevicesTest, MigCountersNeverOverbook)
{
    const json list = generatePreset("a100-mig");
    std::map<std::string, std::map<std::string, std::map<std::string, int64_t>>>
        shared; // pool -> set -> counter
    for (const json *slice : itemsOfKind(list, "ResourceSlice")) {
        const json &spec = (*slice)["spec"];
        EXPECT_NE(spec.contains("devices"), spec.contains("sharedCounters"))
            << "devices and sharedCounters must not share a slice";
        if (!spec.contains("sharedCounters"))
            continue;
        EXPECT_LE(spec["sharedCounters"].size(), 8u);
        for (const json &set : spec["sharedCounters"]) {
            EXPECT_EQ(set["counters"].size(), 7u + 8u); // engines + memory-slice-0..7
            for (const auto &[counter, value] : set["counters"].items())
                shared[spec["pool"]["name"]][set["name"]][counter] = quantityValue(value["value"]);
        }
    }
    ASSERT_EQ(shared.size(), 2u);
    int devices = 0;
    for (const json *slice : itemsOfKind(list, "ResourceSlice")) {
        const json &spec = (*slice)["spec"];
        if (!spec.contains("devices"))
            continue;
        EXPECT_LE(spec["devices"].size(), 64u);
        // Per counter set and profile: every placement of one profile fits at the same time.
        std::map<std::string, std::map<std::string, int64_t>> perProfile;
        for (const json &device : spec["devices"]) {
            ++devices;
            ASSERT_EQ(device["consumesCounters"].size(), 1u) << device["name"];
            const json &consumption = device["consumesCounters"][0];
            const auto &set = shared[spec["pool"]["name"]][consumption["counterSet"]];
            ASSERT_FALSE(set.empty()) << consumption["counterSet"];
            const bool full = device["attributes"]["type"]["string"] == "gpu";
            if (full) {
                EXPECT_EQ(consumption["counters"].size(), set.size()) << device["name"];
            }
            const std::string key = consumption["counterSet"].get<std::string>() + '/'
                + (full ? "gpu" : device["attributes"]["profile"]["string"].get<std::string>());
            for (const auto &[counter, value] : consumption["counters"].items()) {
                ASSERT_TRUE(set.contains(counter)) << counter;
                const int64_t used = quantityValue(value["value"]);
                if (full) {
                    EXPECT_EQ(used, set.at(counter)) << "the full GPU consumes everything";
                }
                perProfile[key][counter] += used;
                EXPECT_LE(perProfile[key][counter], set.at(counter)) << key << ' ' << counter;
            }
        }
    }
    // 1 full GPU + 7 + 4 + 3 + 2 + 1 + 1 placements per GPU.
    EXPECT_EQ(devices, 2 * 8 * 19);
}

TEST(PresetDevicesTest, PoolsAreCompleteAndDeviceNamesUnique)
{
    for (const char *preset : { "mixed", "a100-mig" }) {
        const json list = generatePreset(preset);
        std::map<std::string, int> slicesPerPool, declared;
        std::set<std::string> names;
        for (const json *slice : itemsOfKind(list, "ResourceSlice")) {
            const json &spec = (*slice)["spec"];
            const std::string pool
                = spec["driver"].get<std::string>() + '/' + spec["pool"]["name"].get<std::string>();
            ++slicesPerPool[pool];
            declared[pool] = spec["pool"]["resourceSliceCount"];
            EXPECT_EQ(spec["pool"]["generation"], 1);
            EXPECT_EQ((*slice)["metadata"]["ownerReferences"][0]["name"], spec["nodeName"]);
            for (const json &device : spec.value("devices", json::array()))
                EXPECT_TRUE(names.insert(pool + '/' + device["name"].get<std::string>()).second);
        }
        EXPECT_EQ(slicesPerPool, declared) << preset;
    }
}

TEST(PresetDevicesTest, DevicePluginNodesPublishNoSlices)
{
    const json list = generatePreset("mixed");
    std::set<std::string> withSlices;
    for (const json *slice : itemsOfKind(list, "ResourceSlice"))
        withSlices.insert((*slice)["spec"]["nodeName"].get<std::string>());
    int legacy = 0;
    for (const json *node : itemsOfKind(list, "Node")) {
        const json &labels = (*node)["metadata"]["labels"];
        const std::string name = (*node)["metadata"]["name"];
        if (labels["sandbox.dra-console.io/gpu-stack"] == "device-plugin") {
            ++legacy;
            EXPECT_FALSE(withSlices.contains(name)) << name;
            EXPECT_EQ(labels["nvidia.com/gpu.deploy.device-plugin"], "true");
            EXPECT_EQ((*node)["status"]["capacity"]["nvidia.com/gpu"], "8");
            EXPECT_EQ((*node)["status"]["allocatable"]["nvidia.com/gpu"], "8");
        } else {
            EXPECT_TRUE(withSlices.contains(name)) << name;
            EXPECT_FALSE((*node)["status"]["capacity"].contains("nvidia.com/gpu")) << name;
        }
    }
    EXPECT_EQ(legacy, 3);
}

TEST(PresetDevicesTest, EveryH100HasARdmaNicOnItsPcieRootAndNumaNode)
{
    const json list = generatePreset("h100-sxm", 1);
    const auto devices = dra::test::devicesByKey(list);
    std::map<std::string, int> gpusPerRoot;
    std::map<std::string, std::set<int64_t>> numaOfRoot;
    for (int minor = 0; minor < 8; ++minor) {
        const json &gpu = *devices.at("gpu.nvidia.com/h100-000/gpu-" + std::to_string(minor));
        const std::string root = gpu["attributes"]["resource.kubernetes.io/pcieRoot"]["string"];
        ++gpusPerRoot[root];
        numaOfRoot[root].insert(
            gpu["attributes"]["resource.kubernetes.io/numaNode"]["int"].get<int64_t>());
        int nicsHere = 0;
        for (const auto &[key, nic] : devices) {
            if (!key.starts_with("dra.net/")
                || (*nic)["attributes"]["resource.kubernetes.io/pcieRoot"]["string"] != root)
                continue;
            ++nicsHere;
            EXPECT_EQ((*nic)["attributes"]["numaNode"]["int"],
                gpu["attributes"]["resource.kubernetes.io/numaNode"]["int"]);
            EXPECT_EQ((*nic)["attributes"]["rdma"]["bool"], true);
        }
        EXPECT_EQ(nicsHere, 2) << root;
    }
    EXPECT_EQ(gpusPerRoot.size(), 4u);
    for (const auto &[root, count] : gpusPerRoot) {
        EXPECT_EQ(count, 2) << root;
        EXPECT_EQ(numaOfRoot[root].size(), 1u) << root;
    }
    std::set<int64_t> numa;
    for (const auto &[root, nodes] : numaOfRoot)
        numa.insert(nodes.begin(), nodes.end());
    EXPECT_EQ(numa, (std::set<int64_t> { 0, 1 }));
}
