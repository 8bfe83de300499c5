// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/selector_sweep.h"

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/cel/selector_evaluator.h"
#include "tests/support/selector_cases.h"
#include "tests/support/inventory_fixtures.h"

using namespace dra;

namespace {

// Every selector of the CEL benchmark (bench/cel/selectors.json, k8s forms) and of the
// selector table tests, plus shapes the remembered results must not apply to.
std::vector<std::string> sweepSelectors()
{
    std::vector<std::string> out;
    std::ifstream file(std::string(DRA_SOURCE_DIR) + "/bench/cel/selectors.json");
    const nlohmann::json bench = nlohmann::json::parse(file, nullptr, false);
    EXPECT_TRUE(bench.is_array()) << "bench/cel/selectors.json";
    if (bench.is_array()) {
        for (const nlohmann::json &s : bench)
            out.push_back(s.at("k8s").get<std::string>());
    }
    EXPECT_GE(out.size(), 12u);
    for (const test::SelectorCase &c : test::a100SelectorCases())
        out.push_back(c.expr);
    out.insert(out.end(),
        {
            R"(device.attributes["gpu.nvidia.com"].uuid.endsWith("0"))",
            R"(device.attributes["gpu.nvidia.com"].exists(n, n == "profile"))",
            R"(device.attributes[device.driver].type == "gpu")",
            R"(device.attributes["gpu.nvidia.com"].index + 1 > 2 || device.attributes["gpu.nvidia.com"].productName.contains("A"))",
            R"(device.capacity["gpu.nvidia.com"].memory.add(quantity("1Gi")).isGreaterThan(quantity("80Gi")))",
            R"(string(device.attributes["gpu.nvidia.com"].driverVersion) == "x")",
            R"(device.attributes["gpu.nvidia.com"].driverVersion)",
            R"([1, 2, 3].all(i, i < device.attributes["resource.kubernetes.io"].numaNode + 4))",
            R"(cel.bind(gpu, device.attributes["gpu.nvidia.com"], has(gpu.profile) ? gpu.profile.startsWith("1g") : gpu.index > 3))",
            R"(cel.bind(gpu, device.attributes["gpu.nvidia.com"], [1].exists(gpu, gpu == 1) || gpu.type == "gpu"))",
            R"(["a"].exists(device, device == "a") || device.driver == "gpu.nvidia.com")",
        });
    return out;
}

// Devices whose values differ only in type or validity, next to the preset's.
std::vector<cel::DeviceView> trickyDevices()
{
    using T = cel::DeviceAttributeValue::Type;
    std::vector<cel::DeviceView> out(4, test::a100());
    out[0].addAttribute("driverVersion", { T::Version, 0, false, "not-a-version" });
    out[1].addAttribute("driverVersion", { T::String, 0, false, "550.54.15" });
    out[2].addAttribute("index", { T::String, 0, false, "0" });
    out[2].addCapacity("memory", *model::Quantity::parse("42949672960"));
    out[3].driver = "net.example.com";
    return out;
}

} // namespace

TEST(SelectorSweepTest, RememberedResultsAreExactlyFreshEvaluations)
{
    // The demo inventories repeat values across devices; the evaluator answers repeats from
    // what it remembered. Every device must get the outcome and error message a fresh
    // evaluation gives, for every selector.
    std::vector<const cel::DeviceView *> devices;
    for (const char *preset : { "scale", "mixed" }) {
        for (const inventory::Device *d : test::sharedPresetSnapshot(preset, 4)->devices())
            devices.push_back(&d->view);
    }
    const std::vector<cel::DeviceView> tricky = trickyDevices();
    for (const cel::DeviceView &d : tricky)
        devices.push_back(&d);
    // Repeated after the rest, so the tricky devices are also looked up, not only remembered.
    for (const cel::DeviceView &d : tricky)
        devices.push_back(&d);
    ASSERT_GT(devices.size(), 100u);

    size_t reused = 0;
    size_t memoizable = 0;
    for (const std::string &expr : sweepSelectors()) {
        std::vector<cel::Diagnostic> diagnostics;
        Result<cel::CompiledSelector> selector = cel::compileSelector(expr, &diagnostics);
        ASSERT_TRUE(selector && selector->isValid()) << expr;
        memoizable += selector->readsOnlyDevicePaths() ? 1 : 0;
        cel::SelectorEvaluator remembering(*selector);
        cel::SelectorEvaluator fresh(*selector, cel::SelectorEvaluator::Memo::Off);
        for (const cel::DeviceView *device : devices) {
            const cel::SelectorResult expected = cel::evaluate(*selector, *device);
            const cel::SelectorResult &got = remembering.evaluate(*device);
            ASSERT_EQ(got.outcome, expected.outcome) << expr << " on " << device->driver;
            ASSERT_EQ(got.error, expected.error) << expr;
            const cel::SelectorResult &direct = fresh.evaluate(*device);
            ASSERT_EQ(direct.outcome, expected.outcome) << expr;
            ASSERT_EQ(direct.error, expected.error) << expr;
        }
        reused += remembering.reused();
        EXPECT_EQ(fresh.reused(), 0u);
    }
    // The comparison means something only if results were in fact reused.
    EXPECT_GT(memoizable, 20u);
    EXPECT_GT(reused, devices.size() * 10);
}

TEST(SelectorSweepTest, SelectorsReadingMoreThanConstantPathsAreNotRemembered)
{
    for (const char *expr : {
             R"(device.attributes["gpu.nvidia.com"].exists(n, n == "profile"))",
             R"(device.attributes[device.driver].type == "gpu")",
             R"(cel.bind(gpu, device.attributes["gpu.nvidia.com"], size(gpu) > 3))",
             R"(cel.bind(gpu, device.attributes["gpu.nvidia.com"], gpu.exists(n, n == "type")))",
             R"(device.attributes["gpu.nvidia.com"].?memory.orValue(0) == 0)",
             R"(device.attributes.exists(d, d == "gpu.nvidia.com"))",
         }) {
        std::vector<cel::Diagnostic> diagnostics;
        Result<cel::CompiledSelector> selector = cel::compileSelector(expr, &diagnostics);
        ASSERT_TRUE(selector && selector->isValid()) << expr;
        EXPECT_FALSE(selector->readsOnlyDevicePaths()) << expr;
    }
    for (const char *expr :
        {
            R"(has(device.attributes["gpu.nvidia.com"].profile) && device.capacity["gpu.nvidia.com"]["memory"].sign() >= 0 && device.driver != "")",
            R"(cel.bind(gpu, device.attributes["gpu.nvidia.com"], has(gpu.profile) && gpu["type"] == "gpu") && device.driver != "")",
            // A comprehension variable named `device` hides the device only inside it.
            R"(["a"].exists(device, device == "a") || device.driver == "x" || device.attributes["d"].n == 1 || device.capacity["d"].n.sign() > 0)",
            R"(cel.bind(c, device.capacity["gpu.nvidia.com"], cel.bind(a, device.attributes["gpu.nvidia.com"], c.memory.sign() >= 0 && a.type == "" && device.driver != "")))",
        }) {
        std::vector<cel::Diagnostic> diagnostics;
        Result<cel::CompiledSelector> selector = cel::compileSelector(expr, &diagnostics);
        ASSERT_TRUE(selector && selector->isValid()) << expr;
        EXPECT_TRUE(selector->readsOnlyDevicePaths()) << expr;
        EXPECT_EQ(selector->devicePaths().size(), 3u) << expr;
    }
}

TEST(SelectorSweepTest, WarnsWhenNoDeviceHasTheComparedValue)
{
    const inventory::SnapshotPtr &snapshot = test::sharedPresetSnapshot("scale", 2);
    const cel::DeviceAttributeValue *product
        = snapshot->devices().front()->view.findAttribute("gpu.nvidia.com", "productName");
    ASSERT_NE(product, nullptr);
    auto neverTrue = [&](const std::string &expr) {
        int count = 0;
        for (const cel::Diagnostic &d : inventory::inventoryWarnings(*snapshot, expr))
            count += d.message.find("never true") != std::string::npos ? 1 : 0;
        return count;
    };
    EXPECT_EQ(neverTrue(R"(device.attributes["gpu.nvidia.com"].productName == "H200")"), 1);
    EXPECT_EQ(neverTrue(R"(device.attributes["gpu.nvidia.com"].productName == ")"
                  + product->stringValue + "\""),
        0);
}
