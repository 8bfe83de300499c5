// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/device_table.h"

#include <gtest/gtest.h>

#include "core/cel/selector_evaluator.h"
#include "tests/support/selector_cases.h"

using namespace dra::cel;

namespace {

using T = DeviceAttributeValue::Type;

// A small inventory with repeated and differing values, missing attributes and domains, a
// version that is not semver and a second driver.
std::vector<DeviceView> tableInventory()
{
    std::vector<DeviceView> devices;
    for (int i = 0; i < 6; ++i) {
        DeviceView d = dra::test::a100();
        d.addAttribute("index", { T::Int, i % 3, false, {} });
        devices.push_back(std::move(d));
    }
    DeviceView h100 = dra::test::a100();
    h100.addAttribute("productName", { T::String, 0, false, "NVIDIA H100 80GB HBM3" });
    h100.addAttribute("cudaComputeCapability", { T::Version, 0, false, "9.0.0" });
    h100.addCapacity("memory", *dra::model::Quantity::parse("80Gi"));
    devices.push_back(h100);
    DeviceView broken = dra::test::a100();
    broken.addAttribute("driverVersion", { T::Version, 0, false, "not-a-version" });
    devices.push_back(broken);
    DeviceView nic;
    nic.driver = "nic.example.com";
    nic.allowMultipleAllocations = true;
    nic.addAttribute("model", { T::String, 0, false, "cx7" });
    nic.addAttribute("gpu.nvidia.com/index", { T::String, 0, false, "0" }); // same name, other type
    nic.addCapacity("bandwidth", *dra::model::Quantity::parse("400G"));
    devices.push_back(nic);
    devices.push_back(dra::test::a100());
    return devices;
}

std::vector<const DeviceView *> pointers(const std::vector<DeviceView> &devices)
{
    std::vector<const DeviceView *> out;
    for (const DeviceView &d : devices)
        out.push_back(&d);
    return out;
}

} // namespace

TEST(DeviceTableTest, InternsEqualValuesToEqualIds)
{
    const std::vector<DeviceView> devices = tableInventory();
    const std::vector<const DeviceView *> views = pointers(devices);
    const DeviceTable table(views);
    ASSERT_EQ(table.size(), devices.size());

    const DevicePath index { DevicePath::Kind::Attribute, "gpu.nvidia.com", "index" };
    const uint32_t *ids = table.column(index);
    ASSERT_NE(ids, nullptr);
    EXPECT_EQ(ids[0], ids[3]);
    EXPECT_NE(ids[0], ids[1]);
    EXPECT_NE(ids[8], 0u); // the NIC's string "0" ...
    EXPECT_NE(ids[8], ids[9]); // ... is not the int 0
    // ints 0, 1, 2 and the string "0"
    EXPECT_EQ(table.distinctValues(index), 4u);

    const DevicePath model { DevicePath::Kind::Attribute, "nic.example.com", "model" };
    ASSERT_NE(table.column(model), nullptr);
    EXPECT_EQ(table.column(model)[0], 0u); // absent on the GPUs
    EXPECT_NE(table.column(model)[8], 0u);

    EXPECT_EQ(table.column({ DevicePath::Kind::Attribute, "gpu.nvidia.com", "nothing" }), nullptr);
    EXPECT_EQ(table.distinctValues({ DevicePath::Kind::Driver, {}, {} }), 2u);
    EXPECT_EQ(table.distinctValues({ DevicePath::Kind::AllowMultipleAllocations, {}, {} }), 2u);
    EXPECT_EQ(table.distinctValues({ DevicePath::Kind::Capacity, "gpu.nvidia.com", "memory" }), 2u);
}

class DeviceTableSweepTest : public testing::TestWithParam<dra::test::SelectorCase>
{
};

// Every selector gives, device by device, exactly what evaluate() gives: outcome and message.
TEST_P(DeviceTableSweepTest, AgreesWithEvaluatingEachDevice)
{
    std::vector<Diagnostic> diagnostics;
    dra::Result<CompiledSelector> selector = compileSelector(GetParam().expr, &diagnostics);
    ASSERT_TRUE(selector.has_value());
    ASSERT_TRUE(selector->isValid()) << GetParam().expr;
    const std::vector<DeviceView> devices = tableInventory();
    const std::vector<const DeviceView *> views = pointers(devices);
    const DeviceTable table(views);

    SelectorEvaluator fromTable(*selector);
    SelectorEvaluator mixed(*selector);
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < devices.size(); ++i) {
            const SelectorResult want = evaluate(*selector, devices[i]);
            const SelectorResult got = fromTable.evaluate(table, i);
            EXPECT_EQ(got.outcome, want.outcome) << GetParam().expr << " on device " << i;
            EXPECT_EQ(got.error, want.error) << GetParam().expr << " on device " << i;
            // The same evaluator alternating between device views and the table.
            const SelectorResult &alternate
                = i % 2 ? mixed.evaluate(devices[i]) : mixed.evaluate(table, i);
            EXPECT_EQ(alternate.outcome, want.outcome) << GetParam().expr << " on device " << i;
            EXPECT_EQ(alternate.error, want.error) << GetParam().expr << " on device " << i;
        }
    }
    if (selector->readsOnlyDevicePaths()) {
        EXPECT_GT(fromTable.reused(), 0u) << GetParam().expr;
    }
}

INSTANTIATE_TEST_SUITE_P(
    A100Cases, DeviceTableSweepTest, testing::ValuesIn(dra::test::a100SelectorCases()));

TEST(DeviceTableTest, SelectorsOnTheBrokenVersionReportItsText)
{
    std::vector<Diagnostic> diagnostics;
    dra::Result<CompiledSelector> selector = compileSelector(
        R"(device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("550.0.0")))",
        &diagnostics);
    ASSERT_TRUE(selector && selector->isValid());
    const std::vector<DeviceView> devices = tableInventory();
    const std::vector<const DeviceView *> views = pointers(devices);
    const DeviceTable table(views);
    SelectorEvaluator evaluator(*selector);
    EXPECT_EQ(evaluator.evaluate(table, 0).outcome, SelectorResult::Outcome::Match);
    const SelectorResult &broken = evaluator.evaluate(table, 7);
    EXPECT_EQ(broken.outcome, SelectorResult::Outcome::Error);
    EXPECT_NE(broken.error.find("not-a-version"), std::string::npos) << broken.error;
    EXPECT_EQ(evaluator.evaluate(table, 8).outcome, SelectorResult::Outcome::Error); // no such key
}
