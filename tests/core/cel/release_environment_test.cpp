// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The selector environment follows the release and its gates, for new and for stored
// expressions, as Kubernetes' dynamic-resource-allocation/cel and the apiserver's base
// environment declare them release by release.
#include "core/cel/dra_environment.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/cel/dra_selector.h"

using namespace dra::cel;
using dra::release::KubernetesRelease;

namespace {

enum class Selector { New, Stored };

SelectorOptions target(const std::string &version, Selector kind, const std::string &gates = {})
{
    const dra::Result<KubernetesRelease> release = KubernetesRelease::parse(version, gates);
    EXPECT_TRUE(release.has_value()) << release.error().message.toStdString();
    return SelectorOptions { release.value_or(KubernetesRelease::newest()),
        kind == Selector::Stored };
}

struct Compiled
{
    bool valid = false;
    std::string type;
    std::vector<Diagnostic> diagnostics;
    CompiledSelector selector;

    std::string firstError() const
    {
        for (const Diagnostic &d : diagnostics) {
            if (d.severity == Diagnostic::Severity::Error)
                return d.message;
        }
        return {};
    }
    bool hasWarning(const std::string &part) const
    {
        for (const Diagnostic &d : diagnostics) {
            if (d.severity == Diagnostic::Severity::Warning
                && d.message.find(part) != std::string::npos)
                return true;
        }
        return false;
    }
};

Compiled compile(const std::string &expr, const SelectorOptions &options)
{
    Compiled out;
    dra::Result<CompiledSelector> s = compileSelector(expr, options, &out.diagnostics);
    EXPECT_TRUE(s.has_value());
    if (s) {
        out.valid = s->isValid();
        out.type = s->outputType();
        out.selector = std::move(*s);
    }
    return out;
}

// Whether `expr` compiles for each release and kind listed, and with which first error.
struct Availability
{
    std::string what;
    std::string expr;
    std::string version;
    Selector kind;
    std::string gates;
    bool compiles;
    std::string error = {}; // the start of the first error when it does not compile
};

class ReleaseEnvironmentTest : public testing::TestWithParam<Availability>
{
};

} // namespace

TEST_P(ReleaseEnvironmentTest, DeclaresWhatTheReleaseDeclares)
{
    const Availability &a = GetParam();
    const Compiled c = compile(a.expr, target(a.version, a.kind, a.gates));
    EXPECT_EQ(c.valid, a.compiles) << a.what << ": " << c.firstError();
    if (!a.compiles) {
        EXPECT_TRUE(c.firstError().starts_with(a.error)) << a.what << ": " << c.firstError();
    }
}

// The DRA fields and functions by release and gate (compile.go's versioned options).
INSTANTIATE_TEST_SUITE_P(Dra, ReleaseEnvironmentTest,
    testing::Values(
        Availability { "no allowMultipleAllocations before 1.34", "device.allowMultipleAllocations",
            "1.33", Selector::New, "", false, "undefined field 'allowMultipleAllocations'" },
        Availability { "alpha DRAConsumableCapacity is off in 1.34",
            "device.allowMultipleAllocations", "1.34", Selector::New, "", false,
            "undefined field 'allowMultipleAllocations'" },
        Availability { "on with the gate", "device.allowMultipleAllocations", "1.34", Selector::New,
            "DRAConsumableCapacity=true", true },
        Availability { "stored selectors keep it whatever the gate",
            "device.allowMultipleAllocations", "1.34", Selector::Stored, "", true },
        Availability {
            "beta on in 1.36", "device.allowMultipleAllocations", "1.36", Selector::New, "", true },
        Availability { "switched off in 1.36", "device.allowMultipleAllocations", "1.36",
            Selector::New, "DRAConsumableCapacity=false", false,
            "undefined field 'allowMultipleAllocations'" },
        Availability { "includes() needs DRAListTypeAttributes, alpha in 1.36",
            R"(device.attributes["d"].roots.includes("a"))", "1.36", Selector::New, "", false,
            "undeclared reference to 'includes'" },
        Availability { "includes() with the gate", R"(device.attributes["d"].roots.includes("a"))",
            "1.36", Selector::New, "DRAListTypeAttributes=true", true },
        Availability { "includes() in stored selectors of 1.36",
            R"(device.attributes["d"].roots.includes("a"))", "1.36", Selector::Stored, "", true },
        Availability { "no includes() in 1.35 at all",
            R"(device.attributes["d"].roots.includes("a"))", "1.35", Selector::Stored, "", false,
            "undeclared reference to 'includes'" },
        Availability { "attributes are google.protobuf.Any without list types",
            R"(device.attributes["d"].roots.exists(r, r == "a"))", "1.36", Selector::New, "", false,
            "expression of type 'google.protobuf.Any' cannot be range of a comprehension" },
        Availability { "and dyn, iterable, with them",
            R"(device.attributes["d"].roots.exists(r, r == "a"))", "1.36", Selector::New,
            "DRAListTypeAttributes=true", true },
        Availability { "1.37 stores list-typed attributes whatever the gate",
            R"(device.attributes["d"].roots.exists(r, r == "a"))", "1.37", Selector::Stored, "",
            true },
        Availability { "an attribute is the unknown type, a valid result",
            R"(device.attributes["d"].flag)", "1.35", Selector::New, "", true },
        Availability { "but dyn is not the unknown type of 1.35",
            R"(dyn(device.attributes["d"].flag))", "1.35", Selector::New, "", false,
            "must evaluate to bool or the unknown type, not dyn" }));

// The base environment of new expressions is that of the previous release (the apiserver's
// compatibility version); stored ones get the release's own.
INSTANTIATE_TEST_SUITE_P(Base, ReleaseEnvironmentTest,
    testing::Values(
        Availability { "two-variable comprehensions arrived in 1.32's base",
            R"(device.attributes["d"].all(name, value, name != ""))", "1.32", Selector::New, "",
            false,
            "undeclared reference to 'name' (in container ''); two-variable comprehensions" },
        Availability { "so new selectors have them from 1.33",
            R"(device.attributes["d"].all(name, value, name != ""))", "1.33", Selector::New, "",
            true },
        Availability { "and stored ones from 1.32",
            R"(device.attributes["d"].all(name, value, name != ""))", "1.32", Selector::Stored, "",
            true },
        Availability { "cel-go lists arrived in 1.34's base", "[2, 1].sort() == [1, 2]", "1.34",
            Selector::New, "", false, "undeclared reference to 'sort'" },
        Availability {
            "new from 1.35", "[2, 1].sort() == [1, 2]", "1.35", Selector::New, "", true },
        Availability {
            "stored from 1.34", "[2, 1].sort() == [1, 2]", "1.34", Selector::Stored, "", true },
        Availability { "semver normalization arrived in 1.33's base",
            R"(semver("v1.2", true).major() == 1)", "1.33", Selector::New, "", false,
            "found no matching overload for 'semver' applied to '(string, bool)'" },
        Availability { "new from 1.34", R"(semver("v1.2", true).major() == 1)", "1.34",
            Selector::New, "", true }));

TEST(ReleaseEnvironmentTest, MissingDeclarationsSayWhichReleaseOffersThem)
{
    const Compiled field
        = compile("device.allowMultipleAllocations", target("1.33", Selector::New));
    EXPECT_EQ(field.firstError(),
        "undefined field 'allowMultipleAllocations'; device.allowMultipleAllocations arrived in "
        "Kubernetes 1.34 behind the DRAConsumableCapacity feature gate, which a new selector in "
        "Kubernetes 1.33 does not offer");
    const Compiled function
        = compile(R"(device.attributes["d"].roots.includes("a"))", target("1.36", Selector::New));
    EXPECT_TRUE(function.firstError().starts_with(
        "undeclared reference to 'includes' (in container ''); includes() arrived in Kubernetes "
        "1.36 behind the DRAListTypeAttributes feature gate"))
        << function.firstError();
}

TEST(ReleaseEnvironmentTest, DefaultIsANewSelectorOfTheNewestRelease)
{
    std::vector<Diagnostic> diagnostics;
    const dra::Result<CompiledSelector> s = compileSelector("device.driver == 'x'", &diagnostics);
    ASSERT_TRUE(s && s->isValid());
    EXPECT_EQ(s->options().release, KubernetesRelease::newest());
    EXPECT_FALSE(s->options().stored);
}

namespace {

// Four nested walks over a domain's attributes: an estimate of 32^4 iterations, over the
// limit, that a device with few attributes evaluates cheaply.
const std::string kExpensive = R"(device.attributes["dra.example.com"].all(a,
    device.attributes["dra.example.com"].all(b,
    device.attributes["dra.example.com"].all(c,
    device.attributes["dra.example.com"].all(e, a != "" || b != "" || c != "" || e != "")))))";

DeviceView deviceWithAttributes(int count)
{
    DeviceView d;
    d.driver = "dra.example.com";
    for (int i = 0; i < count; ++i)
        d.addAttribute("a" + std::to_string(i), { DeviceAttributeValue::Type::Int, i, false, {} });
    return d;
}

} // namespace

TEST(StoredSelectorCostTest, ANewSelectorOverTheEstimateIsRejected)
{
    const Compiled c = compile(kExpensive, target("1.36", Selector::New));
    EXPECT_FALSE(c.valid);
    EXPECT_TRUE(c.firstError().starts_with("too complex, exceeds cost limit")) << c.firstError();
}

TEST(StoredSelectorCostTest, AStoredSelectorIsEvaluatedAndLimitedAtRunTime)
{
    const Compiled c = compile(kExpensive, target("1.36", Selector::Stored));
    ASSERT_TRUE(c.valid) << c.firstError();
    EXPECT_GT(c.selector.cost().max, kSelectorMaxCost);
    EXPECT_TRUE(c.hasWarning("a stored selector is evaluated anyway"));
    // Cheap where the device is small...
    EXPECT_EQ(
        evaluate(c.selector, deviceWithAttributes(3)).outcome, SelectorResult::Outcome::Match);
    // ...and stopped where its actual cost passes the runtime limit: 32^4 iterations.
    const SelectorResult big = evaluate(c.selector, deviceWithAttributes(32));
    EXPECT_EQ(big.outcome, SelectorResult::Outcome::Error);
    EXPECT_EQ(big.error, "operation cancelled: actual cost limit exceeded");
}

TEST(StoredSelectorCostTest, Kubernetes131HadNoEstimatedLimit)
{
    const Compiled c = compile(kExpensive, target("1.31", Selector::New));
    EXPECT_TRUE(c.valid) << c.firstError();
    EXPECT_TRUE(c.hasWarning("Kubernetes 1.31 does not limit the estimate"));
}
