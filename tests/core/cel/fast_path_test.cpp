// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Orderings and list membership with a constant operand are planned apart from the generic
// call (they read the other operand in place). Each must answer exactly as the call does: the
// same expression with the constant bound to a variable instead, which keeps the generic path.
#include "core/cel/program.h"

#include <cmath>

#include <gtest/gtest.h>

using namespace dra::cel;

namespace fast_path_test {

struct Bound
{
    std::string name;
    Value value;
};

// `expr` evaluated with `x` and `y` bound.
std::string evalBound(std::string_view expr, const Value &x, const Value &y)
{
    Environment env = Environment::standard();
    env.addVariable("x");
    env.addVariable("y");
    std::vector<Diagnostic> diagnostics;
    dra::Result<Program> program = compile(env, expr, {}, &diagnostics);
    if (!program || !program->isValid())
        return "compile error: "
            + (diagnostics.empty() ? std::string() : diagnostics.front().message);
    const std::array<Value, 2> variables { x, y };
    const Value v = program->evaluate(variables);
    return v.isError() ? "error: " + std::string(v.asString()) : v.debugString();
}

std::vector<Bound> operands()
{
    return {
        { "int", Value::integer(3) },
        { "negative int", Value::integer(-7) },
        { "uint", Value::unsignedInteger(3) },
        { "double", Value::floating(2.5) },
        { "NaN", Value::floating(std::nan("")) },
        { "string", Value::string("550.0.0") },
        { "long string", Value::string("NVIDIA H200 141GB HBM3e with a longer name") },
        { "bool", Value::boolean(true) },
        { "null", Value::null() },
        { "list", Value::list(std::make_shared<ListData>(ListData { Value::integer(3) })) },
    };
}

TEST(FastPathTest, OrderingsWithAConstantAnswerAsTheCall)
{
    const std::vector<std::pair<std::string, Value>> constants {
        { "3", Value::integer(3) },
        { "3u", Value::unsignedInteger(3) },
        { "2.5", Value::floating(2.5) },
        { "'550.0.0'", Value::string("550.0.0") },
        { "true", Value::boolean(true) },
    };
    for (const std::string op : { "<", "<=", ">", ">=" }) {
        for (const auto &[literal, constant] : constants) {
            for (const Bound &x : operands()) {
                SCOPED_TRACE(x.name + " " + op + " " + literal);
                const std::string call = evalBound("x " + op + " y", x.value, constant);
                EXPECT_EQ(evalBound("x " + op + " " + literal, x.value, constant), call);
                const std::string flipped = evalBound("y " + op + " x", x.value, constant);
                EXPECT_EQ(evalBound(literal + " " + op + " x", x.value, constant), flipped);
            }
        }
    }
}

TEST(FastPathTest, AnOrderingKeepsItsOperandsErrorAndReadsPathsInPlace)
{
    const Value none = Value::null();
    EXPECT_EQ(evalBound("x / 0 >= 1", Value::integer(1), none), "error: division by zero");
    EXPECT_EQ(evalBound("1 < x / 0", Value::integer(1), none), "error: division by zero");
    const std::string orderingError = evalBound("x < y", Value::string("a"), Value::integer(1));
    EXPECT_NE(orderingError.find("relational operator on string and int"), std::string::npos)
        << orderingError;
    EXPECT_EQ(evalBound("x < 1", Value::string("a"), none), orderingError);

    auto inner = std::make_shared<MapData>();
    inner->insert(Value::string("memory"), Value::integer(85520809984));
    auto outer = std::make_shared<MapData>();
    outer->insert(Value::string("gpu.nvidia.com"), Value::map(std::move(inner)));
    const Value capacity = Value::map(std::move(outer));
    EXPECT_EQ(evalBound("x['gpu.nvidia.com'].memory >= 42949672960", capacity, none), "true");
    EXPECT_EQ(evalBound("42949672960 > x['gpu.nvidia.com'].memory", capacity, none), "false");
    EXPECT_EQ(
        evalBound("x['gpu.nvidia.com'].absent >= 1", capacity, none), "error: no such key: absent");
}

TEST(FastPathTest, MembershipInAConstantListAnswersAsTheCall)
{
    const std::vector<std::pair<std::string, Value>> lists {
        { "[]", Value::list(std::make_shared<ListData>()) },
        { "[3, 'NVIDIA H100 80GB HBM3', 2.5]",
            Value::list(std::make_shared<ListData>(ListData { Value::integer(3),
                Value::string("NVIDIA H100 80GB HBM3"), Value::floating(2.5) })) },
        { "[[3], null, true]",
            Value::list(std::make_shared<ListData>(
                ListData { Value::list(std::make_shared<ListData>(ListData { Value::integer(3) })),
                    Value::null(), Value::boolean(true) })) },
    };
    std::vector<Bound> xs = operands();
    xs.push_back({ "listed string", Value::string("NVIDIA H100 80GB HBM3") });
    for (const auto &[literal, list] : lists) {
        for (const Bound &x : xs) {
            SCOPED_TRACE(x.name + " in " + literal);
            EXPECT_EQ(
                evalBound("x in " + literal, x.value, list), evalBound("x in y", x.value, list));
        }
    }
    EXPECT_EQ(evalBound("3u in [3]", Value::null(), Value::null()), "true");
    EXPECT_EQ(
        evalBound("x / 0 in [1]", Value::integer(1), Value::null()), "error: division by zero");
}

} // namespace fast_path_test
