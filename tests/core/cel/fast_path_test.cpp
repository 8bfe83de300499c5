// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Orderings and list membership with a constant operand, and paths of constant keys through
// maps, are planned apart from the generic nodes (they read their operands in place). Each must
// answer exactly as the generic plan does: the same expression with the constant bound to a
// variable, or the path read from a comprehension's variable, which keep the generic nodes.
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

TEST(FastPathTest, AnOrderingKeepsItsOperandsErrorAndReadsPathsThroughMaps)
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

// `m` read from the variable `x` (a fused path) and from a comprehension's variable (node by
// node) must agree, whatever the path meets.
TEST(FastPathTest, PathsThroughMapsAnswerAsNodeByNode)
{
    auto domain = std::make_shared<MapData>();
    domain->insert(Value::string("type"), Value::string("gpu"));
    domain->insert(Value::string("cores"), Value::list(std::vector<Value> { Value::integer(7) }));
    auto numbered = std::make_shared<MapData>();
    numbered->insert(Value::integer(1), Value::string("one"));
    numbered->insert(Value::boolean(true), Value::string("yes"));
    auto attributes = std::make_shared<MapData>();
    attributes->insert(Value::string("gpu.nvidia.com"), Value::map(std::move(domain)));
    attributes->insert(Value::string("numbered"), Value::map(std::move(numbered)));
    attributes->insert(Value::string("text"), Value::string("not a map"));
    auto device = std::make_shared<MapData>();
    device->insert(Value::string("attributes"), Value::map(std::move(attributes)));
    const Value x = Value::map(std::move(device));

    for (const std::string path : {
             "x.attributes['gpu.nvidia.com'].type",
             "x.attributes['gpu.nvidia.com'].cores[0]",
             "x.attributes['gpu.nvidia.com'].cores[1]",
             "x.attributes['gpu.nvidia.com'].absent",
             "x.attributes.numbered[1]",
             "x.attributes.numbered[1u]",
             "x.attributes.numbered[true]",
             "x.attributes.numbered[2]",
             "x.attributes.text.field",
             "x.attributes.text['field']",
             "x.missing.type",
             "x.attributes['gpu.nvidia.com']",
         }) {
        SCOPED_TRACE(path);
        const std::string fused = evalBound(path, x, Value::null());
        std::string byNode = path;
        byNode.replace(0, 1, "v");
        EXPECT_EQ(fused, evalBound("[x].map(v, " + byNode + ")[0]", x, Value::null()));
        if (path.back() != ']') { // has() takes a field selection only
            EXPECT_EQ(evalBound("has(" + path + ")", x, Value::null()),
                evalBound("[x].map(v, has(" + byNode + "))[0]", x, Value::null()));
        }
    }
    EXPECT_EQ(evalBound("x.attributes['gpu.nvidia.com'].type", x, Value::null()), "\"gpu\"");
    EXPECT_EQ(evalBound("x.attributes.numbered[1u]", x, Value::null()), "\"one\"");
    EXPECT_EQ(evalBound("x.attributes.text.field.more", Value::integer(1), Value::null()),
        evalBound("[1].map(v, v.attributes.text.field.more)[0]", Value::null(), Value::null()));
}

} // namespace fast_path_test
