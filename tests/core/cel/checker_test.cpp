// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/checker.h"

#include <gtest/gtest.h>

#include "core/cel/dra_environment.h"
#include "core/cel/dra_selector.h"

using namespace dra::cel;

namespace {

struct Checked
{
    std::string type;
    std::vector<Diagnostic> diagnostics;
};

// Checks `expr` in the standard environment (no variables).
Checked checkStandard(const std::string &expr)
{
    Checked out;
    const auto parsed = parse(expr, {}, &out.diagnostics);
    if (!parsed)
        return out;
    static const Environment env = Environment::standard();
    const CheckedExpr checked = check(*parsed, Declarations::standard(), env, &out.diagnostics);
    out.type = checked.resultType.toString();
    return out;
}

struct TypeCase
{
    std::string expr;
    std::string type;
};

class CheckerTypeTest : public testing::TestWithParam<TypeCase>
{
};

struct ErrorCase
{
    std::string expr;
    int line;
    int column;
    std::string message;
};

class CheckerErrorTest : public testing::TestWithParam<ErrorCase>
{
};

class SelectorCheckErrorTest : public testing::TestWithParam<ErrorCase>
{
};

} // namespace

TEST_P(CheckerTypeTest, InfersType)
{
    const Checked c = checkStandard(GetParam().expr);
    ASSERT_TRUE(c.diagnostics.empty()) << c.diagnostics.front().message;
    EXPECT_EQ(c.type, GetParam().type);
}

INSTANTIATE_TEST_SUITE_P(Standard, CheckerTypeTest,
    testing::Values(TypeCase { "1 + 2", "int" }, TypeCase { "1u * 2u", "uint" },
        TypeCase { "'a' + 'b'", "string" }, TypeCase { "size('abc') == 3", "bool" },
        TypeCase { "[1, 2]", "list(int)" }, TypeCase { "[1, 'a']", "list(dyn)" },
        TypeCase { "{'a': 1}['a']", "int" }, TypeCase { "[1, 2].map(x, x * 2)", "list(int)" },
        TypeCase { "[1, 2].filter(x, x > 1)", "list(int)" },
        TypeCase { "[1, 2].exists(x, x > 1)", "bool" }, TypeCase { "true ? 1 : 2", "int" },
        TypeCase { "1 < 2.0", "bool" }, TypeCase { "optional.of(1).orValue(2)", "int" },
        TypeCase { "quantity('1Gi').compareTo(quantity('2Gi'))", "int" },
        TypeCase { "semver('1.2.3').major()", "int" },
        TypeCase { "'a,b'.split(',')", "list(string)" }, TypeCase { "type(1) == int", "bool" },
        TypeCase { "dyn(1)", "dyn" }, TypeCase { "cel.bind(x, 'abc', x.size())", "int" },
        TypeCase {
            "timestamp('2024-01-01T00:00:00Z') + duration('1h')", "google.protobuf.Timestamp" }));

TEST_P(CheckerErrorTest, ReportsPositionAndMessage)
{
    const Checked c = checkStandard(GetParam().expr);
    ASSERT_FALSE(c.diagnostics.empty()) << GetParam().expr;
    EXPECT_EQ(c.diagnostics.front().line, GetParam().line);
    EXPECT_EQ(c.diagnostics.front().column, GetParam().column);
    EXPECT_EQ(c.diagnostics.front().message, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(Standard, CheckerErrorTest,
    testing::Values(ErrorCase { "1 + 'a'", 1, 3,
                        "found no matching overload for '_+_' applied to '(int, string)'" },
        ErrorCase { "[1].exists(x,\n  x.startsWith('a'))", 2, 4,
            "found no matching overload for 'startsWith' applied to 'int.(string)'" },
        ErrorCase { "(1).all(x, x)", 1, 2,
            "expression of type 'int' cannot be range of a comprehension (must be list, "
            "map, or dynamic)" },
        ErrorCase { "'abc'.name", 1, 6, "type 'string' does not support field selection" },
        ErrorCase { "true ? 1 : 'a'", 1, 6,
            "found no matching overload for '_?_:_' applied to '(bool, int, string)'" }));

TEST_P(SelectorCheckErrorTest, RejectsWithPosition)
{
    std::vector<Diagnostic> diagnostics;
    const auto selector = compileSelector(GetParam().expr, &diagnostics);
    ASSERT_TRUE(selector.has_value());
    EXPECT_FALSE(selector->isValid());
    ASSERT_FALSE(diagnostics.empty());
    EXPECT_EQ(diagnostics.front().severity, Diagnostic::Severity::Error);
    EXPECT_EQ(diagnostics.front().line, GetParam().line);
    EXPECT_EQ(diagnostics.front().column, GetParam().column);
    EXPECT_EQ(diagnostics.front().message, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(Dra, SelectorCheckErrorTest,
    testing::Values(ErrorCase { "device.driver", 1, 1,
                        "must evaluate to bool or the unknown type, not string" },
        ErrorCase {
            "size(device.attributes)", 1, 1, "must evaluate to bool or the unknown type, not int" },
        ErrorCase { "device.driver == 1", 1, 15,
            "found no matching overload for '_==_' applied to '(string, int)'" },
        ErrorCase { "device.drivers == 'x'", 1, 7, "undefined field 'drivers'" },
        ErrorCase { R"(device.capacity["gpu.nvidia.com"].memory >= "40Gi")", 1, 42,
            "found no matching overload for '_>=_' applied to '(kubernetes.Quantity, "
            "string)'; compare quantities with compareTo(), isGreaterThan() or "
            "isLessThan(), e.g. x.compareTo(quantity(\"40Gi\")) >= 0" },
        // cel-go checks each operand of && and || against bool.
        ErrorCase { "device.allowMultipleAllocations &&\n  device.driver.size()", 2, 16,
            "expected type 'bool' but found 'int'" }));

TEST(SelectorCheckTest, AttributesAreDynamicAndCapacitiesAreQuantities)
{
    std::vector<Diagnostic> diagnostics;
    const auto s = compileSelector(
        R"(device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA") &&
           device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0)",
        &diagnostics);
    ASSERT_TRUE(s.has_value());
    EXPECT_TRUE(s->isValid());
    EXPECT_TRUE(diagnostics.empty());
    EXPECT_EQ(s->outputType(), "bool");

    // An attribute alone is a value of unknown type: google.protobuf.Any, as Kubernetes
    // declares attributes without list types.
    const auto any
        = compileSelector(R"(device.attributes["gpu.nvidia.com"]["mig-capable"])", &diagnostics);
    ASSERT_TRUE(any.has_value());
    EXPECT_TRUE(any->isValid());
    EXPECT_EQ(any->outputType(), "google.protobuf.Any");
}

TEST(SelectorCheckTest, WarnsAboutQuantitiesComparedAsStrings)
{
    std::vector<Diagnostic> diagnostics;
    const auto s
        = compileSelector(R"(device.attributes["dra.example.com"].memory >= "40Gi")", &diagnostics);
    ASSERT_TRUE(s.has_value());
    EXPECT_TRUE(s->isValid());
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].severity, Diagnostic::Severity::Warning);
    EXPECT_EQ(diagnostics[0].column, 48);
    EXPECT_NE(diagnostics[0].message.find("compared as a string"), std::string::npos);

    diagnostics.clear();
    const auto reversed
        = compileSelector(R"("500m" < device.attributes["dra.example.com"].cpu)", &diagnostics);
    ASSERT_TRUE(reversed.has_value());
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].column, 1);

    diagnostics.clear();
    const auto fine
        = compileSelector(R"(device.attributes["dra.example.com"].model == "A100")", &diagnostics);
    EXPECT_TRUE(diagnostics.empty());
}

// The checker rejects calls it has no declaration for, as cel-go does: every overload the
// runtime offers must be declared, in every library set an environment is built from.
TEST(CheckerDeclarationsTest, EveryFunctionTheRuntimeOffersIsDeclared)
{
    LibrarySet selectors = LibrarySet::kubernetesSelectors();
    LibrarySet newest = selectors;
    newest.celLists = newest.semverNormalize = newest.twoVarComprehensions = true;
    for (const LibrarySet &libraries : { LibrarySet(), selectors, newest }) {
        const Environment env = Environment::standard(libraries);
        const Declarations decls = Declarations::forLibraries(libraries);
        for (std::string_view name : env.functions().names()) {
            for (const bool receiver : { false, true }) {
                for (size_t arity = 0; arity <= 16; ++arity) {
                    if (env.functions().candidates(name, receiver, arity).empty())
                        continue;
                    EXPECT_FALSE(decls.overloads(name, receiver, arity).empty())
                        << (receiver ? "." : "") << name << " with " << arity << " arguments";
                }
            }
        }
    }
}
