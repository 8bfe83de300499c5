// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/selector_sweep.h"

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/cel/device_table.h"
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
            // Keys computed at run time, key tests and maps used whole.
            R"("profile" in device.attributes["gpu.nvidia.com"])",
            R"("example.com" in device.attributes || "example.com" in device.capacity)",
            R"(device.attributes.exists(d, d.startsWith("example")))",
            R"(device.attributes.exists(d, device.attributes[d].exists(n, n == "extra")))",
            R"(size(device.attributes["gpu.nvidia.com"]) > 8 && device.attributes["example.com"].size() == 0)",
            R"(device.attributes["gpu.nvidia.com"][device.driver == "gpu.nvidia.com" ? "type" : "index"] == "gpu")",
            R"(has(device.attributes[device.driver].profile))",
            R"(cel.bind(d, "example.com", d in device.attributes && device.attributes[d].extra == "x"))",
            R"(device.capacity[device.driver].memory.compareTo(quantity("40Gi")) >= 0)",
            R"(device.attributes["example.com"] == {"extra": "x"})",
            R"(device.attributes["gpu.nvidia.com"].?profile.orValue("") == "")",
        });
    return out;
}

// Devices whose values differ only in type or validity, next to the preset's.
std::vector<cel::DeviceView> trickyDevices()
{
    using T = cel::DeviceAttributeValue::Type;
    std::vector<cel::DeviceView> out(6, test::a100());
    out[0].addAttribute("driverVersion", { T::Version, 0, false, "not-a-version" });
    out[1].addAttribute("driverVersion", { T::String, 0, false, "550.54.15" });
    out[2].addAttribute("index", { T::String, 0, false, "0" });
    out[2].addCapacity("memory", *model::Quantity::parse("42949672960"));
    out[3].driver = "net.example.com";
    // An attribute only these publish, with equal presence and different values.
    out[4].addAttribute("example.com/extra", { T::String, 0, false, "x" });
    out[5].addAttribute("example.com/extra", { T::String, 0, false, "y" });
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

    const cel::DeviceTable table(devices);
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
        // The same sweep by the table's columns, as the editor runs it.
        cel::SelectorEvaluator byColumns(*selector);
        for (size_t i = 0; i < table.size(); ++i) {
            const cel::SelectorResult expected = cel::evaluate(*selector, table.device(i));
            const cel::SelectorResult &got = byColumns.evaluate(table, i);
            ASSERT_EQ(got.outcome, expected.outcome) << expr << " on device " << i;
            ASSERT_EQ(got.error, expected.error) << expr << " on device " << i;
        }
    }
    // The comparison means something only if results were in fact reused.
    EXPECT_GT(memoizable, 20u);
    EXPECT_GT(reused, devices.size() * 10);
}

TEST(SelectorSweepTest, SelectorsUsingTheDeviceItselfAreNotRemembered)
{
    for (const char *expr : {
             R"(cel.bind(d, device, d.driver == "gpu.nvidia.com"))",
             R"([device].size() == 1)",
         }) {
        std::vector<cel::Diagnostic> diagnostics;
        Result<cel::CompiledSelector> selector = cel::compileSelector(expr, &diagnostics);
        ASSERT_TRUE(selector && selector->isValid()) << expr;
        EXPECT_FALSE(selector->readsOnlyDevicePaths()) << expr;
    }
}

TEST(SelectorSweepTest, ConstantPathsAreReadAsLeaves)
{
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
        for (const cel::DevicePath &path : selector->devicePaths())
            EXPECT_TRUE(path.isLeaf()) << expr;
    }
}

// What a read with a run-time key, a key test or a whole map covers: the memo key is built
// from exactly these, so a path too narrow would share a result between devices that differ.
TEST(SelectorSweepTest, DynamicReadsCoverEveryLeafTheyCanReach)
{
    using K = cel::DevicePath::Kind;
    struct Case
    {
        const char *expr;
        cel::DevicePath path; // among those collected
    };
    const Case cases[] = {
        { R"("pcieRoot" in device.attributes["resource.kubernetes.io"])",
            { K::Attribute, "resource.kubernetes.io", "pcieRoot", false, false, true } },
        { R"("gpu.nvidia.com" in device.attributes)",
            { K::Attribute, "gpu.nvidia.com", {}, false, true, true } },
        { R"(device.attributes[device.driver].type == "gpu")", { K::Attribute, {}, "type", true } },
        { R"(device.attributes[device.driver].type == "gpu")", { K::Driver, {}, "driver" } },
        { R"(has(device.capacity[device.driver].memory))",
            { K::Capacity, {}, "memory", true, false, true } },
        { R"(device.attributes.exists(d, d.endsWith(".nvidia.com")))",
            { K::Attribute, {}, {}, true, true, true } },
        { R"(device.attributes["gpu.nvidia.com"].exists(n, n.startsWith("cuda")))",
            { K::Attribute, "gpu.nvidia.com", {}, false, true, true } },
        { R"(device.attributes["gpu.nvidia.com"].exists(n, device.attributes["gpu.nvidia.com"][n] == "gpu"))",
            { K::Attribute, "gpu.nvidia.com", {}, false, true, false } },
        { R"(size(device.capacity["gpu.nvidia.com"]) == 1)",
            { K::Capacity, "gpu.nvidia.com", {}, false, true, true } },
        { R"(device.attributes["example.com"] == {"extra": "x"})",
            { K::Attribute, "example.com", {}, false, true, false } },
        { R"(cel.bind(gpu, device.attributes["gpu.nvidia.com"], gpu.size() > 2 && gpu.type == "gpu"))",
            { K::Attribute, "gpu.nvidia.com", {}, false, true, true } },
        { R"(device.capacity.exists(d, true))", { K::Capacity, {}, {}, true, true, true } },
    };
    for (const Case &c : cases) {
        std::vector<cel::Diagnostic> diagnostics;
        Result<cel::CompiledSelector> selector = cel::compileSelector(c.expr, &diagnostics);
        ASSERT_TRUE(selector && selector->isValid()) << c.expr;
        EXPECT_TRUE(selector->readsOnlyDevicePaths()) << c.expr;
        const std::vector<cel::DevicePath> &paths = selector->devicePaths();
        EXPECT_NE(std::find(paths.begin(), paths.end(), c.path), paths.end())
            << c.expr << ": " << paths.size() << " paths, not the expected one";
    }
}

// A sweep of a selector with a dynamic key reuses results through the table's columns.
TEST(SelectorSweepTest, DynamicKeysShareEvaluations)
{
    std::vector<const cel::DeviceView *> devices;
    for (const inventory::Device *d : test::sharedPresetSnapshot("scale", 4)->devices())
        devices.push_back(&d->view);
    const cel::DeviceTable table(devices);
    for (const char *expr : {
             R"(device.attributes[device.driver].type == "gpu")",
             R"(device.attributes.exists(d, d.endsWith(".nvidia.com")))",
             R"("pcieRoot" in device.attributes["resource.kubernetes.io"])",
         }) {
        std::vector<cel::Diagnostic> diagnostics;
        Result<cel::CompiledSelector> selector = cel::compileSelector(expr, &diagnostics);
        ASSERT_TRUE(selector && selector->isValid()) << expr;
        cel::SelectorEvaluator evaluator(*selector);
        for (size_t i = 0; i < table.size(); ++i)
            evaluator.evaluate(table, i);
        EXPECT_GT(evaluator.reused(), table.size() * 9 / 10) << expr;
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
