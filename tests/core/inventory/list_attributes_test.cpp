// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// List-typed attributes (KEP-5491) on their way from a stored ResourceSlice into the
// inventory: both readers (device rows, full decode), table text, JSON rows, selectors.
#include "core/inventory/slice_reader.h"

#include <gtest/gtest.h>

#include "core/inventory/device_rows.h"
#include "core/inventory/selector_sweep.h"
#include "tests/support/inventory_fixtures.h"

using namespace dra;
using dra::test::json;

namespace {

json listDevice()
{
    return dra::test::gpuDevice("gpu-0",
        { { "ids", { { "ints", { 3, 1 } } } }, { "flags", { { "bools", { true, false } } } },
            { "resource.kubernetes.io/pcieRoots",
                { { "strings", { "pci0000:00", "pci0000:40" } } } },
            { "firmware", { { "versions", { "1.2.3", "2.0.0-rc.1" } } } },
            { "empty", { { "strings", json::array() } } } });
}

json listSlice()
{
    return dra::test::sliceObject("node-a-gpus", "node-a", { listDevice() });
}

// Both ways a stored slice is read: from its device rows, and decoded in full.
std::vector<inventory::detail::SlicePtr> readBothWays()
{
    std::vector<model::ObjectRecord> records
        = dra::test::recordsOf(dra::test::listOf({ listSlice() }));
    EXPECT_EQ(records.size(), 1u);
    EXPECT_FALSE(records[0].devices.empty());
    model::ObjectRecord withoutRows = records[0];
    withoutRows.devices.clear();
    std::vector<inventory::detail::SlicePtr> out;
    for (model::ObjectRecord record : { records[0], withoutRows }) {
        Result<inventory::detail::SlicePtr> slice = inventory::detail::readSlice(std::move(record));
        EXPECT_TRUE(slice.has_value()) << slice.error().message.toStdString();
        if (slice)
            out.push_back(*slice);
    }
    return out;
}

} // namespace

TEST(ListAttributeReaderTest, ReadsEveryListTypeFromRowsAndFromFullDecode)
{
    using T = cel::DeviceAttributeValue::Type;
    const std::vector<inventory::detail::SlicePtr> slices = readBothWays();
    ASSERT_EQ(slices.size(), 2u);
    for (const inventory::detail::SlicePtr &slice : slices) {
        ASSERT_EQ(slice->devices.size(), 1u);
        const inventory::Device &device = slice->devices[0];
        const cel::DeviceAttributeValue *ids = device.attribute("ids");
        ASSERT_NE(ids, nullptr);
        EXPECT_EQ(ids->type, T::Ints);
        ASSERT_NE(ids->list, nullptr);
        EXPECT_EQ(ids->list->ints, (std::vector<int64_t> { 3, 1 }));
        const cel::DeviceAttributeValue *flags = device.attribute("flags");
        ASSERT_NE(flags, nullptr);
        EXPECT_EQ(flags->type, T::Bools);
        ASSERT_NE(flags->list, nullptr);
        EXPECT_EQ(flags->list->bools, (std::vector<bool> { true, false }));
        const cel::DeviceAttributeValue *roots
            = device.attribute("resource.kubernetes.io/pcieRoots");
        ASSERT_NE(roots, nullptr);
        EXPECT_EQ(roots->type, T::Strings);
        ASSERT_NE(roots->list, nullptr);
        EXPECT_EQ(roots->list->texts, (std::vector<std::string> { "pci0000:00", "pci0000:40" }));
        const cel::DeviceAttributeValue *firmware = device.attribute("firmware");
        ASSERT_NE(firmware, nullptr);
        EXPECT_EQ(firmware->type, T::Versions);
        ASSERT_NE(firmware->list, nullptr);
        EXPECT_EQ(firmware->list->values.size(), 2u) << "versions parsed for selectors";
        EXPECT_TRUE(firmware->list->error.empty());
        const cel::DeviceAttributeValue *empty = device.attribute("empty");
        ASSERT_NE(empty, nullptr);
        EXPECT_EQ(empty->type, T::Strings);
        EXPECT_EQ(empty->valueCount(), 0u);
        EXPECT_EQ(
            device.attributeText("resource.kubernetes.io/pcieRoots"), "[pci0000:00, pci0000:40]");
        EXPECT_EQ(device.attributeText("ids"), "[3, 1]");
        EXPECT_EQ(device.attributeText("type"), "gpu") << "scalars beside lists read as before";
    }
    EXPECT_TRUE(*slices[0] == *slices[1]) << "both readers give the same slice";
}

TEST(ListAttributeReaderTest, DeviceJsonPrintsListsAsArrays)
{
    const Result<model::Object> object = model::decodeObject(listSlice());
    ASSERT_TRUE(object.has_value());
    const std::vector<model::Object> slices { *object }; // the rows point into it
    const auto rows = inventory::deviceRows(slices, {});
    ASSERT_EQ(rows.size(), 1u);
    const json out = inventory::deviceJson(rows[0]);
    EXPECT_EQ(out["attributes"]["resource.kubernetes.io/pcieRoots"],
        json({ "pci0000:00", "pci0000:40" }));
    EXPECT_EQ(out["attributes"]["gpu.example.com/ids"], json({ 3, 1 }));
    EXPECT_EQ(out["attributes"]["gpu.example.com/flags"], json({ true, false }));
    EXPECT_EQ(out["attributes"]["gpu.example.com/firmware"], json({ "1.2.3", "2.0.0-rc.1" }));
}

TEST(ListAttributeReaderTest, SelectorsOverTheSnapshotSeeLists)
{
    const inventory::SnapshotPtr snapshot
        = dra::test::snapshotOf(dra::test::listOf({ listSlice() }));
    ASSERT_EQ(snapshot->devices().size(), 1u);
    const inventory::Device &device = *snapshot->devices()[0];
    for (const std::string expr :
        { R"(device.attributes["resource.kubernetes.io"].pcieRoots.includes("pci0000:40"))",
            R"(device.attributes["gpu.example.com"].ids.exists(i, i == 3))",
            R"(device.attributes["gpu.example.com"].firmware.includes(semver("2.0.0-rc.1")))",
            R"(device.attributes["gpu.example.com"].type.includes("gpu"))" }) {
        std::vector<cel::Diagnostic> diags;
        cel::SelectorOptions options; // includes() needs the alpha DRAListTypeAttributes gate
        options.release.gates.listTypeAttributes = true;
        auto selector = cel::compileSelector(expr, options, &diags);
        ASSERT_TRUE(selector.has_value() && selector->isValid()) << expr;
        EXPECT_EQ(
            cel::evaluate(*selector, device.view).outcome, cel::SelectorResult::Outcome::Match)
            << expr;
    }
}

// The editor's completions offer list elements as values to pass to includes().
TEST(ListAttributeReaderTest, VocabularyOffersListElementsAndIncludes)
{
    const inventory::SnapshotPtr snapshot
        = dra::test::snapshotOf(dra::test::listOf({ listSlice() }));
    const std::vector<std::string> words = inventory::selectorVocabulary(*snapshot);
    const auto has = [&](const std::string &w) {
        return std::find(words.begin(), words.end(), w) != words.end();
    };
    EXPECT_TRUE(has("pci0000:40"));
    EXPECT_TRUE(has("includes("));
}

// Comparing a list attribute with `==` is never true, but not because the value is missing:
// no "no device has this value" warning, whose list of published values would mislead.
TEST(ListAttributeReaderTest, NoPublishedValueWarningForListAttributes)
{
    const inventory::SnapshotPtr snapshot
        = dra::test::snapshotOf(dra::test::listOf({ listSlice() }));
    const inventory::SelectorSweep sweep = inventory::sweepSelector(
        *snapshot, R"(device.attributes["resource.kubernetes.io"].pcieRoots == "pci0000:00")");
    EXPECT_TRUE(sweep.valid);
    for (const cel::Diagnostic &d : sweep.diagnostics)
        EXPECT_EQ(d.message.find("no device in the inventory has"), std::string::npos) << d.message;
    EXPECT_TRUE(sweep.matches.empty());
    EXPECT_EQ(sweep.runtimeErrors, 0);
}

TEST(ListAttributeReaderTest, EqualityWithAListAttributeSuggestsIncludes)
{
    const inventory::SnapshotPtr snapshot
        = dra::test::snapshotOf(dra::test::listOf({ listSlice() }));
    const inventory::SelectorSweep sweep
        = inventory::sweepSelector(*snapshot, R"(device.attributes["gpu.example.com"].ids == 3)");
    bool suggested = false;
    for (const cel::Diagnostic &d : sweep.diagnostics)
        suggested = suggested
            || d.message
                == "gpu.example.com/ids is a list on some devices and a list never equals 3; "
                   "to test whether it holds the value write .ids.includes(3), which also "
                   "matches devices that publish a single value";
    EXPECT_TRUE(suggested);
}
