// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/cost_estimator.h"

#include <gtest/gtest.h>

#include "core/cel/dra_environment.h"
#include "core/cel/dra_selector.h"

using namespace dra::cel;

namespace {

struct CostCase
{
    std::string expr;
    uint64_t min;
    uint64_t max;
};

class SelectorCostTest : public testing::TestWithParam<CostCase>
{
};

// The estimate of `expr` in the standard environment, cel-go's defaults (has() costs 1).
CostEstimate standardCost(const std::string &expr)
{
    std::vector<Diagnostic> diagnostics;
    const auto parsed = parse(expr, {}, &diagnostics);
    EXPECT_TRUE(parsed.has_value());
    static const Environment env = Environment::standard();
    const CheckedExpr checked = check(*parsed, Declarations::standard(), env, &diagnostics);
    EXPECT_TRUE(diagnostics.empty());
    return estimateCost(*parsed, checked, {});
}

} // namespace

// Figures follow cel-go's rules with Kubernetes' DRA size bounds: selecting from an object or
// map costs 1, comparing a string costs a tenth of the shorter side, and a comprehension over
// one domain runs at most 32 times.
TEST_P(SelectorCostTest, MatchesKubernetesEstimate)
{
    std::vector<Diagnostic> diagnostics;
    const auto s = compileSelector(GetParam().expr, &diagnostics);
    ASSERT_TRUE(s.has_value());
    ASSERT_TRUE(s->isValid()) << diagnostics.front().message;
    EXPECT_EQ(s->cost().min, GetParam().min);
    EXPECT_EQ(s->cost().max, GetParam().max);
}

INSTANTIATE_TEST_SUITE_P(Dra, SelectorCostTest,
    testing::Values(CostCase { R"(device.driver == "a")", 3, 3 },
        CostCase { R"(device.attributes["d"].model == "x")", 5, 5 },
        // has() is free in Kubernetes.
        CostCase { R"(has(device.attributes["d"].model))", 3, 3 },
        CostCase { R"(device.attributes["d"].exists(k, k.startsWith("a")))", 4, 196 },
        CostCase { R"(device.driver == "a" || device.driver == "b")", 3, 6 },
        // A regex over an attribute value: ceil((64 + 1) * 0.1) * ceil(5 * 0.25), plus 4 to read
        // it.
        CostCase { R"(device.attributes["d"].model.matches("^A100"))", 6, 18 }));

TEST(CostEstimatorTest, ComprehensionOverListLiteral)
{
    // list creation 10, result 1, and three iterations of condition (2) and step (1 to 3).
    const CostEstimate c = standardCost("[1, 2, 3].all(x, x > 0)");
    EXPECT_EQ(c.min, 20u);
    EXPECT_EQ(c.max, 26u);
}

TEST(CostEstimatorTest, HasCostsOneOutsideKubernetes)
{
    const CostEstimate c = standardCost("has({'a': 1}.a)");
    EXPECT_EQ(c.min, 31u); // map creation 30, presence test 1
    EXPECT_EQ(c.max, 31u);
}

TEST(SelectorCostLimitTest, RejectsAboveOneMillion)
{
    std::vector<Diagnostic> diagnostics;
    const auto s = compileSelector(
        R"(device.attributes.all(d, device.attributes[d].all(n,
             device.attributes.all(d2, device.attributes[d2].all(n2, n == n2)))))",
        &diagnostics);
    ASSERT_TRUE(s.has_value());
    EXPECT_FALSE(s->isValid());
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].line, 1);
    EXPECT_EQ(diagnostics[0].column, 1);
    // kube-apiserver's words first, then the estimate.
    EXPECT_TRUE(diagnostics[0].message.starts_with(
        "too complex, exceeds cost limit: the estimated worst-case cost is "))
        << diagnostics[0].message;
    EXPECT_NE(
        diagnostics[0].message.find("more than Kubernetes' limit of 1000000"), std::string::npos);
}

// cel-go prices == by the size of the smaller operand, and a capacity (like the result of
// quantity()) has no declared size, so Kubernetes' estimate is unbounded: compareTo() is the way.
TEST(SelectorCostLimitTest, QuantityEqualityIsUnbounded)
{
    std::vector<Diagnostic> diagnostics;
    const auto s = compileSelector(
        R"(device.capacity["gpu.nvidia.com"].memory == quantity("40960Mi"))", &diagnostics);
    ASSERT_TRUE(s.has_value());
    EXPECT_FALSE(s->isValid());
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("unbounded"), std::string::npos)
        << diagnostics[0].message;
}

TEST(SelectorCostLimitTest, RejectsMoreThanTenKiB)
{
    std::string expr = "device.driver == \"" + std::string(10 * 1024, 'a') + "\"";
    std::vector<Diagnostic> diagnostics;
    const auto s = compileSelector(expr, &diagnostics);
    ASSERT_TRUE(s.has_value());
    EXPECT_FALSE(s->isValid());
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("exceeds the limit of 10240 bytes"), std::string::npos);
}
