// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/dra_selector.h"

#include <chrono>
#include <iostream>

#include <gtest/gtest.h>

#include "tests/support/selector_cases.h"

using namespace dra::cel;

namespace {

using dra::test::a100;
using dra::test::SelectorCase;

class SelectorEvalTest : public testing::TestWithParam<SelectorCase>
{
};

constexpr auto Match = SelectorResult::Outcome::Match;
constexpr auto NoMatch = SelectorResult::Outcome::NoMatch;
constexpr auto Error = SelectorResult::Outcome::Error;

} // namespace

TEST_P(SelectorEvalTest, AgainstA100)
{
    std::vector<Diagnostic> diags;
    auto selector = compileSelector(GetParam().expr, &diags);
    ASSERT_TRUE(selector.has_value());
    ASSERT_TRUE(selector->isValid()) << diags.front().message;
    const SelectorResult r = evaluate(*selector, a100());
    EXPECT_EQ(r.outcome, GetParam().want) << r.error;
}

INSTANTIATE_TEST_SUITE_P(
    Nvidia, SelectorEvalTest, testing::ValuesIn(dra::test::a100SelectorCases()));

TEST(SelectorTest, MissingAttributeErrorCarriesAHint)
{
    std::vector<Diagnostic> diags;
    auto selector = compileSelector(R"(device.attributes["gpu.nvidia.com"].memory > 0)", &diags);
    ASSERT_TRUE(selector && selector->isValid());
    const SelectorResult r = evaluate(*selector, a100());
    ASSERT_EQ(r.outcome, Error);
    EXPECT_NE(r.error.find("no such key: memory"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("has()"), std::string::npos) << r.error;
}

TEST(SelectorTest, SyntaxErrorsAreDiagnosticsNotFailures)
{
    std::vector<Diagnostic> diags;
    auto selector = compileSelector("device.driver == ", &diags);
    ASSERT_TRUE(selector.has_value());
    EXPECT_FALSE(selector->isValid());
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags[0].line, 1);
    EXPECT_EQ(diags[0].column, 18);
}

TEST(SelectorTest, UndeclaredVariablesAreReported)
{
    std::vector<Diagnostic> diags;
    auto selector = compileSelector("devices.driver == 'x'", &diags);
    ASSERT_TRUE(selector.has_value());
    EXPECT_FALSE(selector->isValid());
    ASSERT_FALSE(diags.empty());
    EXPECT_NE(diags[0].message.find("undeclared reference to 'devices'"), std::string::npos);
    EXPECT_NE(diags[0].message.find("did you mean 'device'?"), std::string::npos)
        << diags[0].message;
}

TEST(SelectorTest, OffersKubernetesLibrariesOnly)
{
    // Kubernetes' selector environment has no math or encoders extension and the strings
    // extension only at version 2; a selector using them must not compile here either.
    for (const char *expr : { "math.greatest(1, 2) == 2", "base64.encode(b'a') == 'YQ=='",
             "'abc'.reverse() == 'cba'" }) {
        std::vector<Diagnostic> diags;
        auto selector = compileSelector(expr, &diags);
        ASSERT_TRUE(selector.has_value());
        EXPECT_FALSE(selector->isValid()) << expr;
    }
    for (const char *expr :
        { "[3, 1].isSorted() == false", "[1, 2].sum() == 3", "sets.contains([1, 2], [1])",
            "'a,b'.split(',').size() == 2", "'abc'.find('b') == 'b'", "'x'.matches('^x$')" }) {
        std::vector<Diagnostic> diags;
        auto selector = compileSelector(expr, &diags);
        ASSERT_TRUE(selector && selector->isValid()) << expr << ": " << diags.front().message;
        EXPECT_EQ(evaluate(*selector, a100()).outcome, Match) << expr;
    }
}

TEST(SelectorTest, InvalidLiteralsAreCompileErrorsAsInKubernetes)
{
    for (const char *expr :
        { "device.driver.matches('[')", "duration('5 minutes') > duration('1s')",
            "timestamp('yesterday') < timestamp('2024-01-01T00:00:00Z')",
            "device.driver in ['a', 1]" }) {
        std::vector<Diagnostic> diags;
        auto selector = compileSelector(expr, &diags);
        ASSERT_TRUE(selector.has_value());
        EXPECT_FALSE(selector->isValid()) << expr;
        EXPECT_FALSE(diags.empty()) << expr;
    }
}

TEST(SelectorTest, MisspeltFunctionsGetASuggestion)
{
    std::vector<Diagnostic> diags;
    auto selector = compileSelector("device.driver.startswith('gpu')", &diags);
    ASSERT_TRUE(selector.has_value());
    EXPECT_FALSE(selector->isValid());
    ASSERT_FALSE(diags.empty());
    EXPECT_NE(diags[0].message.find("did you mean 'startsWith'?"), std::string::npos)
        << diags[0].message;
    EXPECT_EQ(diags[0].column, 14);
}

TEST(SelectorTest, ExpressionsOverTenKibibytesAreRejected)
{
    std::string expr = "device.driver == '" + std::string(11 * 1024, 'a') + "'";
    std::vector<Diagnostic> diags;
    auto selector = compileSelector(expr, &diags);
    ASSERT_TRUE(selector.has_value());
    EXPECT_FALSE(selector->isValid());
}

TEST(SelectorTest, CostLimitStopsRunawayComprehensions)
{
    // Kubernetes rejects it before it runs: 10^6 iterations are estimated far over the limit.
    const std::string expr
        = "cel.bind(l, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], l.all(a, l.all(b, l.all(c, l.all(d, "
          "l.all(e, l.all(f, a + b + c + d + e + f >= 0)))))))";
    std::vector<Diagnostic> diags;
    auto selector = compileSelector(expr, &diags);
    ASSERT_TRUE(selector.has_value());
    EXPECT_FALSE(selector->isValid());
    ASSERT_FALSE(diags.empty());
    EXPECT_NE(diags[0].message.find("too complex"), std::string::npos) << diags[0].message;

    // And the runtime counter stops the same program when it is run without the check.
    static const Environment env = Environment::standard();
    auto program = compile(env, expr, {}, &diags);
    ASSERT_TRUE(program && program->isValid());
    const Value v = program->evaluate({}, nullptr, 1000000);
    ASSERT_TRUE(v.isError());
    EXPECT_NE(std::string(v.asString()).find("cost limit"), std::string::npos) << v.asString();
}

TEST(SelectorTest, SweepsAFortyThousandDeviceInventory)
{
    // The template editor re-evaluates a selector over every device per keystroke: check the
    // counts over a synthetic inventory, and report the time per device.
    std::vector<DeviceView> devices(40000);
    using T = DeviceAttributeValue::Type;
    for (size_t i = 0; i < devices.size(); ++i) {
        DeviceView &d = devices[i];
        d.driver = i % 4 == 0 ? "net.example.com" : "gpu.nvidia.com";
        d.addAttribute("index", { T::Int, static_cast<int64_t>(i % 8), false, {} });
        d.addAttribute("productName",
            { T::String, 0, false, i % 2 ? "NVIDIA A100-SXM4-40GB" : "NVIDIA H100 80GB HBM3" });
        d.addAttribute(
            "driverVersion", { T::Version, 0, false, i % 3 ? "550.54.15" : "535.104.5" });
        d.addCapacity("memory", *dra::model::Quantity::parse(i % 2 ? "40Gi" : "80Gi"));
    }
    const std::string expr = R"(device.driver == "gpu.nvidia.com" &&
        device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA H100") &&
        device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("80Gi")) >= 0 &&
        device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("540.0.0")))";
    std::vector<Diagnostic> diags;
    auto selector = compileSelector(expr, &diags);
    ASSERT_TRUE(selector && selector->isValid());
    size_t matches = 0;
    size_t errors = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const DeviceView &d : devices) {
        const SelectorResult r = evaluate(*selector, d);
        matches += r.outcome == SelectorResult::Outcome::Match;
        errors += r.outcome == SelectorResult::Outcome::Error;
    }
    const auto elapsed = std::chrono::steady_clock::now() - start;
    size_t expected = 0;
    for (size_t i = 0; i < devices.size(); ++i)
        expected += i % 4 != 0 && i % 2 == 0 && i % 3 != 0;
    EXPECT_EQ(matches, expected);
    EXPECT_EQ(errors, 0u);
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count();
    RecordProperty("ns_per_device", static_cast<int>(ns / static_cast<long long>(devices.size())));
    std::cout << "selector sweep: " << ns / static_cast<long long>(devices.size())
              << " ns per device over " << devices.size() << " devices\n";
}

// `in` asks whether the device publishes the domain; has() and lookups see every domain as
// present (an empty map), as Kubernetes' map with a default value does.
TEST(SelectorTest, InIsFalseForADomainTheDeviceDoesNotPublish)
{
    const DeviceView gpu = a100();
    struct Case
    {
        const char *expr;
        SelectorResult::Outcome want;
    };
    for (const Case &c : {
             Case { R"("no-such-domain" in device.attributes)", SelectorResult::Outcome::NoMatch },
             Case { R"("gpu.nvidia.com" in device.attributes)", SelectorResult::Outcome::Match },
             Case { R"("no-such-domain" in device.capacity)", SelectorResult::Outcome::NoMatch },
             Case { R"("gpu.nvidia.com" in device.capacity)", SelectorResult::Outcome::Match },
             Case { R"(!("no-such-domain" in device.attributes) &&
                       device.attributes["no-such-domain"].size() == 0)",
                 SelectorResult::Outcome::Match },
         }) {
        std::vector<Diagnostic> diags;
        auto selector = compileSelector(c.expr, &diags);
        ASSERT_TRUE(selector && selector->isValid()) << c.expr;
        EXPECT_EQ(evaluate(*selector, gpu).outcome, c.want) << c.expr;
    }
}
