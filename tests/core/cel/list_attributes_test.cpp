// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// List-typed device attributes (KEP-5491, DRAListTypeAttributes) and includes(), against a
// device publishing every scalar and list type, after Kubernetes' own test cases.
#include "core/cel/device_attribute.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/cel/device_paths.h"
#include "core/cel/device_table.h"
#include "core/cel/dra_selector.h"
#include "core/cel/selector_evaluator.h"

using namespace dra::cel;

namespace {

using ListType = DeviceAttributeValue::Type;

DeviceAttributeValue listOfInts(std::vector<int64_t> values)
{
    return DeviceAttributeValue::ints(std::move(values));
}

DeviceAttributeValue listOfBools(std::vector<bool> values)
{
    return DeviceAttributeValue::bools(std::move(values));
}

DeviceAttributeValue listOfTexts(ListType type, std::vector<std::string> values)
{
    return type == ListType::Versions ? DeviceAttributeValue::versions(std::move(values))
                                      : DeviceAttributeValue::strings(std::move(values));
}

// A device of dra.example.com with one attribute of each type, scalar and list.
DeviceView listDevice()
{
    DeviceView d;
    d.driver = "dra.example.com";
    d.addAttribute("int", { ListType::Int, 42, false, {} });
    d.addAttribute("bool", { ListType::Bool, 0, true, {} });
    d.addAttribute("string", { ListType::String, 0, false, "pci0000:00" });
    d.addAttribute("version", { ListType::Version, 0, false, "1.0.0" });
    d.addAttribute("ints", listOfInts({ 1, 2, 3 }));
    d.addAttribute("bools", listOfBools({ false, true }));
    d.addAttribute("names", listOfTexts(ListType::Strings, { "pci0000:00", "pci0000:40" }));
    d.addAttribute("versions", listOfTexts(ListType::Versions, { "1.0.0", "2.1.0-rc.1" }));
    d.addAttribute("badVersions", listOfTexts(ListType::Versions, { "1.0.0", "one" }));
    d.addAttribute("empty", listOfTexts(ListType::Strings, {}));
    std::vector<int64_t> many;
    for (int64_t i = 0; i < 49; ++i)
        many.push_back(i);
    d.addAttribute("many", listOfInts(many));
    return d;
}

struct ListCase
{
    std::string expr;
    SelectorResult::Outcome want;
    std::string error = {}; // a part of the message, for Error
};

class ListAttributeTest : public testing::TestWithParam<ListCase>
{
};

constexpr auto kMatch = SelectorResult::Outcome::Match;
constexpr auto kNoMatch = SelectorResult::Outcome::NoMatch;
constexpr auto kError = SelectorResult::Outcome::Error;

std::string attr(const std::string &name)
{
    return "device.attributes[\"dra.example.com\"]." + name;
}

// The newest release with the (alpha) DRAListTypeAttributes gate on, as a new selector.
SelectorOptions withListAttributes()
{
    SelectorOptions options;
    options.release.gates.listTypeAttributes = true;
    return options;
}

} // namespace

TEST_P(ListAttributeTest, EvaluatesAsKubernetes)
{
    std::vector<Diagnostic> diags;
    auto selector = compileSelector(GetParam().expr, withListAttributes(), &diags);
    ASSERT_TRUE(selector.has_value());
    ASSERT_TRUE(selector->isValid()) << GetParam().expr << ": " << diags.front().message;
    const SelectorResult r = evaluate(*selector, listDevice());
    EXPECT_EQ(r.outcome, GetParam().want) << GetParam().expr << ": " << r.error;
    if (GetParam().want == kError) {
        EXPECT_NE(r.error.find(GetParam().error), std::string::npos) << r.error;
    }
}

INSTANTIATE_TEST_SUITE_P(Includes, ListAttributeTest,
    testing::Values(
        // Scalars: includes() is equality, so selectors can move to it before drivers move
        // to lists.
        ListCase { attr("int") + ".includes(42)", kMatch },
        ListCase { attr("int") + ".includes(41)", kNoMatch },
        ListCase { attr("bool") + ".includes(true)", kMatch },
        ListCase { attr("bool") + ".includes(false)", kNoMatch },
        ListCase { attr("string") + ".includes(\"pci0000:00\")", kMatch },
        ListCase { attr("string") + ".includes(\"pci0000:40\")", kNoMatch },
        ListCase { attr("version") + ".includes(semver(\"1.0.0\"))", kMatch },
        ListCase { attr("version") + ".includes(semver(\"1.0.1\"))", kNoMatch },
        ListCase { attr("version") + ".includes(\"1.0.0\")", kNoMatch }, // a string is no semver
        // Lists: membership, with CEL's heterogeneous equality.
        ListCase { attr("ints") + ".includes(2)", kMatch },
        ListCase { attr("ints") + ".includes(2.0)", kMatch },
        ListCase { attr("ints") + ".includes(4)", kNoMatch },
        ListCase { attr("bools") + ".includes(true)", kMatch },
        ListCase { attr("names") + ".includes(\"pci0000:40\")", kMatch },
        ListCase { attr("names") + ".includes(\"pci0000:80\")", kNoMatch },
        ListCase { attr("versions") + ".includes(semver(\"2.1.0-rc.1\"))", kMatch },
        ListCase { attr("versions") + ".includes(semver(\"2.1.0\"))", kNoMatch },
        ListCase { attr("empty") + ".includes(\"x\")", kNoMatch },
        // One selector for a scalar and a list attribute.
        ListCase { attr("string") + ".includes(\"pci0000:00\") && " + attr("names")
                + ".includes(\"pci0000:00\")",
            kMatch },
        // More than 48 values are not searched.
        ListCase { attr("many") + ".includes(47)", kMatch },
        ListCase { attr("many") + ".includes(48)", kError,
            "'includes' function cannot be applied to lists longer than 48 values" },
        ListCase { attr("many") + ".includes(100)", kError, "longer than 48 values" },
        ListCase { attr("badVersions") + ".includes(semver(\"1.0.0\"))", kError,
            "parse semantic version" }));

INSTANTIATE_TEST_SUITE_P(Lists, ListAttributeTest,
    testing::Values(ListCase { attr("names") + ".size() == 2", kMatch },
        ListCase { attr("ints") + ".size() == 2", kNoMatch },
        ListCase { attr("ints") + ".exists(x, x > 2)", kMatch },
        ListCase { attr("ints") + ".all(x, x > 1)", kNoMatch },
        ListCase { attr("names") + ".all(n, n.startsWith(\"pci0000:\"))", kMatch },
        ListCase { "1 in " + attr("ints"), kMatch },
        ListCase { "\"pci0000:80\" in " + attr("names"), kNoMatch },
        ListCase { attr("versions") + ".exists(v, v.isGreaterThan(semver(\"2.0.0\")))", kMatch },
        ListCase { attr("versions") + "[1].major() == 2", kMatch },
        ListCase { attr("bools") + " == [false, true]", kMatch },
        // A list never equals a scalar.
        ListCase { attr("names") + " == \"pci0000:00\"", kNoMatch },
        ListCase { attr("badVersions") + ".size() == 2", kError,
            "parse semantic version: invalid version \"one\"" },
        // A selector must give a bool, not the list.
        ListCase { attr("names"), kError, "must evaluate to bool, not list" },
        // Through the generic path (a bound domain map) as through the compiled one.
        ListCase {
            "cel.bind(d, device.attributes[\"dra.example.com\"], d.names.includes(\"pci0000:40\"))",
            kMatch },
        ListCase { "device.attributes[\"dra.example.com\"].exists(k, k == \"ints\" && "
                   "device.attributes[\"dra.example.com\"][k].size() == 3)",
            kMatch }));

TEST(ListAttributeTest, IncludesIsCheckedAsAMemberFunctionReturningBool)
{
    std::vector<Diagnostic> diags;
    auto selector
        = compileSelector(attr("names") + ".includes(\"a\")", withListAttributes(), &diags);
    ASSERT_TRUE(selector.has_value());
    ASSERT_TRUE(selector->isValid());
    EXPECT_EQ(selector->outputType(), "bool");
    // Receiver style only, as Kubernetes declares it: the global form has no overload.
    diags.clear();
    auto global = compileSelector(
        "includes(" + attr("names") + ", \"pci0000:00\")", withListAttributes(), &diags);
    ASSERT_TRUE(global.has_value());
    if (global->isValid()) {
        EXPECT_EQ(evaluate(*global, listDevice()).outcome, kError);
    }
}

// Kubernetes' estimates: includes() costs at most 48 whatever the receiver, on top of reading
// the attribute (4) and its argument.
TEST(ListAttributeTest, IncludesCostsAsInKubernetes)
{
    struct Want
    {
        std::string expr;
        uint64_t min, max;
    };
    for (const Want &w :
        { Want { R"(device.attributes["dra.example.com"].name.includes(true))", 4, 52 },
            Want { R"(device.attributes["dra.example.com"].name.includes(semver("1.0.0")))", 5,
                53 } }) {
        std::vector<Diagnostic> diags;
        auto selector = compileSelector(w.expr, withListAttributes(), &diags);
        ASSERT_TRUE(selector.has_value());
        ASSERT_TRUE(selector->isValid()) << w.expr;
        EXPECT_EQ(selector->cost().min, w.min) << w.expr;
        EXPECT_EQ(selector->cost().max, w.max) << w.expr;
    }
}

TEST(ListAttributeTest, PrintsAndCountsValues)
{
    const DeviceView d = listDevice();
    const DeviceAttributeValue *names = d.findAttribute("dra.example.com", "names");
    ASSERT_NE(names, nullptr);
    EXPECT_TRUE(names->isList());
    EXPECT_EQ(names->valueCount(), 2u);
    EXPECT_EQ(deviceAttributeText(*names), "[pci0000:00, pci0000:40]");
    EXPECT_EQ(deviceAttributeText(*d.findAttribute("dra.example.com", "ints")), "[1, 2, 3]");
    EXPECT_EQ(deviceAttributeText(*d.findAttribute("dra.example.com", "bools")), "[false, true]");
    EXPECT_EQ(deviceAttributeText(*d.findAttribute("dra.example.com", "empty")), "[]");
    EXPECT_EQ(d.findAttribute("dra.example.com", "int")->valueCount(), 1u);
}

// Result reuse and the columnar table tell lists apart by type and by every element.
TEST(ListAttributeTest, EncodingsTellListsApart)
{
    const auto key = [](const DeviceAttributeValue &value) {
        std::string out;
        appendAttributeKey(&value, out);
        return out;
    };
    EXPECT_EQ(key(listOfInts({ 1, 2 })), key(listOfInts({ 1, 2 })));
    EXPECT_NE(key(listOfInts({ 1, 2 })), key(listOfInts({ 2, 1 })));
    EXPECT_NE(key(listOfInts({ 1 })), key({ ListType::Int, 1, false, {} }));
    EXPECT_NE(key(listOfTexts(ListType::Strings, { "1.0.0" })),
        key(listOfTexts(ListType::Versions, { "1.0.0" })));
    EXPECT_NE(key(listOfTexts(ListType::Strings, { "ab" })),
        key(listOfTexts(ListType::Strings, { "a", "b" })));
    EXPECT_NE(key(listOfTexts(ListType::Versions, { "1.0.0" })),
        key(listOfTexts(ListType::Versions, { "1.0.1" })));
    EXPECT_NE(key(listOfTexts(ListType::Versions, { "1.0.0", "x" })),
        key(listOfTexts(ListType::Versions, { "1.0.0", "y" })));
    // Copies share the elements.
    const DeviceAttributeValue names = listOfTexts(ListType::Strings, { "a" });
    const DeviceAttributeValue copy = names;
    EXPECT_EQ(copy.list, names.list);
    EXPECT_TRUE(sameDeviceAttribute(copy, listOfTexts(ListType::Strings, { "a" })));
    EXPECT_FALSE(sameDeviceAttribute(copy, listOfTexts(ListType::Versions, { "a" })));
}

TEST(ListAttributeTest, SweepsGiveTheSameResultsAsSingleEvaluations)
{
    std::vector<DeviceView> devices(4);
    for (size_t i = 0; i < devices.size(); ++i) {
        devices[i].driver = "dra.example.com";
        devices[i].addAttribute(
            "roots", listOfTexts(ListType::Strings, { "pci" + std::to_string(i % 2), "shared" }));
    }
    devices[3].addAttribute("roots", { ListType::String, 0, false, "pci1" });
    std::vector<const DeviceView *> pointers;
    for (const DeviceView &d : devices)
        pointers.push_back(&d);
    const DeviceTable table(pointers);
    std::vector<Diagnostic> diags;
    auto selector
        = compileSelector(attr("roots") + ".includes(\"pci1\")", withListAttributes(), &diags);
    ASSERT_TRUE(selector.has_value() && selector->isValid());
    SelectorEvaluator evaluator(*selector);
    for (size_t i = 0; i < devices.size(); ++i) {
        const SelectorResult &swept = evaluator.evaluate(table, i);
        EXPECT_EQ(swept.outcome, evaluate(*selector, devices[i]).outcome) << i;
        EXPECT_EQ(swept.outcome, i % 2 == 1 ? kMatch : kNoMatch) << i;
    }
}
