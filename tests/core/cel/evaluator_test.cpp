// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/program.h"

#include <gtest/gtest.h>

using namespace dra::cel;

namespace {

Value eval(std::string_view expr)
{
    std::vector<Diagnostic> diags;
    const Environment env = Environment::standard();
    auto program = compile(env, expr, {}, &diags);
    EXPECT_TRUE(program.has_value());
    if (!program->isValid())
        return Value::error("compile: " + (diags.empty() ? std::string() : diags.front().message));
    return program->evaluate({});
}

struct EvalCase
{
    std::string expr;
    std::string want; // debugString of the expected value, or "error"
};

class EvaluatorTest : public testing::TestWithParam<EvalCase>
{
};

} // namespace

TEST_P(EvaluatorTest, MatchesCelSemantics)
{
    const Value v = eval(GetParam().expr);
    if (GetParam().want == "error")
        EXPECT_TRUE(v.isError()) << v.debugString();
    else
        EXPECT_EQ(v.debugString(), GetParam().want);
}

INSTANTIATE_TEST_SUITE_P(Semantics, EvaluatorTest,
    testing::Values(EvalCase { "1 + 2 * 3", "7" }, EvalCase { "9223372036854775807 + 1", "error" },
        EvalCase { "0u - 1u", "error" }, EvalCase { "1 / 0", "error" },
        EvalCase { "1 == 1.0 && 1u == 1", "true" }, EvalCase { "false && (1 / 0 == 1)", "false" },
        EvalCase { "(1 / 0 == 1) || true", "true" }, EvalCase { "(1 / 0 == 1) && true", "error" },
        EvalCase { "size('héllo')", "5" }, EvalCase { "[1, 2, 3].exists(x, x == 2)", "true" },
        EvalCase { "[1, 2, 3].map(x, x * 2)", "[2, 4, 6]" },
        EvalCase { "[1, 2, 3].filter(x, x > 1)", "[2, 3]" },
        EvalCase { "[1, 2, 3].exists_one(x, x > 2)", "true" },
        EvalCase { "[0, 1].all(x, 1 / x > 0)", "error" },
        EvalCase { "[0, 1].exists(x, 1 / x > 0)", "true" }, EvalCase { "{'a': 1}.a", "1" },
        EvalCase { "{'a': 1}.b", "error" }, EvalCase { "has({'a': 1}.a)", "true" },
        EvalCase { "{1: 'x'}[1u]", "\"x\"" }, EvalCase { "{'a': 1, 'a': 2}", "error" },
        EvalCase { "[{'a': {'b': 1}}].map(m, m.a.b)", "[1]" },
        EvalCase { "[1].map(x, {'a': {'b': x}}.a.b)", "[1]" },
        EvalCase { "[1].map(x, {'a': {'b': [x, 3]}}['a']['b'][1])", "[3]" },
        EvalCase { "[1].map(x, {'a': x}['c'])", "error" },
        EvalCase { "[1].map(x, {'a': {'b': x}}.a).map(m, m.b)", "[1]" },
        EvalCase { "type(1) == int && type(type(1)) == type", "true" },
        EvalCase { "int('12') + int(2.9)", "14" },
        EvalCase { "string(timestamp('2009-02-13T23:31:30Z'))", "\"2009-02-13T23:31:30Z\"" },
        EvalCase { "timestamp('2009-02-13T23:31:30Z').getHours('+01:00')", "0" },
        EvalCase { "duration('1h30m') == duration('5400s')", "true" },
        EvalCase { "cel.bind(x, 2, x * x)", "4" }, EvalCase { "[1, 2] + [3]", "[1, 2, 3]" },
        EvalCase { "2 in [1, 2]", "true" }, EvalCase { "'a' < 'b' && b'a' < b'b'", "true" },
        EvalCase { "1 < 'a'", "error" }, EvalCase { "{'a': 1}.?a.orValue(1 / 0)", "1" },
        EvalCase { "{'a': 1}.?b.orValue(2)", "2" },
        EvalCase { "{'a': 1}.?b.or(optional.of(3)).value()", "3" },
        EvalCase { "{'a': 1}.?a.or(1 / 0).value()", "1" },
        EvalCase { "ip('10.0.0.1') == ip('10.0.0.1') && cidr('10.0.0.0/8').containsIP('10.1.2.3')",
            "true" },
        EvalCase { "quantity('1Gi').isGreaterThan(quantity('1000Mi'))", "true" },
        EvalCase { "semver('1.2.3').isLessThan(semver('1.10.0'))", "true" },
        EvalCase { "url('https://user@example.com:8443/a%20b?x=1&x=2&y').getPort()", "\"8443\"" },
        EvalCase { "url('https://[::1]:80/p').getHostname()", "\"::1\"" },
        EvalCase { "url('https://example.com/p?x=1&x=2').getQuery()['x']", "[\"1\", \"2\"]" },
        EvalCase { "url('/just/a/path').getEscapedPath()", "\"/just/a/path\"" },
        EvalCase { "isURL('mailto:someone') || isURL('not a url')", "false" }));
