// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/parser.h"

#include <gtest/gtest.h>

using namespace dra::cel;

TEST(ParserTest, PrecedenceOfArithmeticAndLogic)
{
    std::vector<Diagnostic> diags;
    auto parsed = parse("a || b && c == 1 + 2 * 3", {}, &diags);
    ASSERT_TRUE(parsed) << diags.front().message;
    const Expr &root = *parsed->root;
    ASSERT_EQ(root.kind, ExprKind::Call);
    EXPECT_EQ(root.name, "_||_");
    const Expr &rhs = *root.args[1];
    EXPECT_EQ(rhs.name, "_&&_");
    const Expr &eq = *rhs.args[1];
    EXPECT_EQ(eq.name, "_==_");
    EXPECT_EQ(eq.args[1]->name, "_+_");
    EXPECT_EQ(eq.args[1]->args[1]->name, "_*_");
}

TEST(ParserTest, MacrosExpandToComprehensions)
{
    std::vector<Diagnostic> diags;
    auto parsed = parse("[1, 2].all(x, x > 0)", {}, &diags);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->root->kind, ExprKind::Comprehension);
    EXPECT_EQ(parsed->root->iterVar, "x");

    ParseOptions noMacros;
    noMacros.enableMacros = false;
    auto plain = parse("[1, 2].all(x, x > 0)", noMacros, &diags);
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->root->kind, ExprKind::Call);
}

TEST(ParserTest, HasNeedsAFieldSelection)
{
    std::vector<Diagnostic> diags;
    EXPECT_FALSE(parse("has(a)", {}, &diags));
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags[0].message, "invalid argument to has() macro");
    EXPECT_EQ(diags[0].column, 5);
}

TEST(ParserTest, ErrorsCarryLineAndColumn)
{
    std::vector<Diagnostic> diags;
    EXPECT_FALSE(parse("device.driver ==\n  'a' &&", {}, &diags));
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags[0].line, 2);
    EXPECT_EQ(diags[0].column, 9);
}

TEST(ParserTest, NegativeInt64MinimumIsALiteral)
{
    std::vector<Diagnostic> diags;
    auto parsed = parse("-9223372036854775808", {}, &diags);
    ASSERT_TRUE(parsed);
    ASSERT_EQ(parsed->root->kind, ExprKind::Constant);
    EXPECT_EQ(parsed->root->constant.asInt(), INT64_MIN);
    EXPECT_FALSE(parse("9223372036854775808", {}, &diags));
}

TEST(ParserTest, ReservedWordsAreFieldNamesButNotIdentifiers)
{
    std::vector<Diagnostic> diags;
    EXPECT_TRUE(parse("a.if && a.for()", {}, &diags));
    EXPECT_FALSE(parse("if", {}, &diags));
}

TEST(ParserTest, OptionalSyntax)
{
    std::vector<Diagnostic> diags;
    auto parsed = parse("a.?b[?'c']", {}, &diags);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->root->name, "_[?_]");
    EXPECT_EQ(parsed->root->args[0]->name, "_?._");
}

TEST(ParserTest, RecursionLimit)
{
    std::string deep(300, '(');
    deep += "1" + std::string(300, ')');
    std::vector<Diagnostic> diags;
    EXPECT_FALSE(parse(deep, {}, &diags));
}

TEST(ParserTest, LongLogicalChainsAreBalanced)
{
    std::string expr = "true";
    for (int i = 0; i < 5000; ++i)
        expr += " && true";
    std::vector<Diagnostic> diags;
    auto parsed = parse(expr, {}, &diags);
    ASSERT_TRUE(parsed);
    int depth = 0;
    for (const Expr *e = parsed->root.get(); e->kind == ExprKind::Call; e = e->args[0].get())
        ++depth;
    EXPECT_LT(depth, 20);
}

TEST(ParserTest, LongLeftAssociativeChainsHitTheRecursionLimit)
{
    std::vector<Diagnostic> diags;
    std::string plus = "1";
    for (int i = 0; i < 20000; ++i)
        plus += "+1";
    EXPECT_FALSE(parse(plus, {}, &diags));
    std::string select = "a";
    for (int i = 0; i < 20000; ++i)
        select += ".b";
    EXPECT_FALSE(parse(select, {}, &diags));
    EXPECT_TRUE(parse("1 + 2 + 3 + 4 + a.b.c.d[0][1]", {}, &diags));
}
