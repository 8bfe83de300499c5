// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/lexer.h"

#include <gtest/gtest.h>

using namespace dra::cel;

namespace {

std::vector<Token> lexAll(std::string_view source)
{
    Lexer lexer(source);
    std::vector<Token> out;
    for (;;) {
        Token t = lexer.next();
        if (t.kind == TokenKind::End)
            break;
        out.push_back(t);
        if (t.kind == TokenKind::Error)
            break;
    }
    return out;
}

} // namespace

TEST(LexerTest, NumbersKeepTheirKindAndOffset)
{
    const auto tokens = lexAll("1 0x1F 2u 3.5 1e3 .5");
    ASSERT_EQ(tokens.size(), 6u);
    EXPECT_EQ(tokens[0].kind, TokenKind::Int);
    EXPECT_EQ(tokens[1].kind, TokenKind::Int);
    EXPECT_TRUE(tokens[1].hex);
    EXPECT_EQ(tokens[1].value, "1F");
    EXPECT_EQ(tokens[2].kind, TokenKind::Uint);
    EXPECT_EQ(tokens[3].kind, TokenKind::Double);
    EXPECT_EQ(tokens[4].kind, TokenKind::Double);
    EXPECT_EQ(tokens[5].kind, TokenKind::Double);
    EXPECT_EQ(tokens[5].offset, 18);
}

TEST(LexerTest, DecodesStringEscapesRawAndTripleQuotes)
{
    auto tokens = lexAll(R"('a\tb\u00e9\x41\101' r'\n' """x"y""" b'\xff')");
    ASSERT_EQ(tokens.size(), 4u);
    EXPECT_EQ(tokens[0].value,
        "a\tb\xc3\xa9"
        "AA");
    EXPECT_EQ(tokens[1].value, "\\n");
    EXPECT_EQ(tokens[2].value, "x\"y");
    EXPECT_EQ(tokens[3].kind, TokenKind::Bytes);
    EXPECT_EQ(tokens[3].value, "\xff");
}

TEST(LexerTest, ReportsUnterminatedStrings)
{
    const auto tokens = lexAll("'abc");
    ASSERT_EQ(tokens.size(), 1u);
    EXPECT_EQ(tokens[0].kind, TokenKind::Error);
}

TEST(LexerTest, SkipsComments)
{
    const auto tokens = lexAll("a // comment\n&& b");
    ASSERT_EQ(tokens.size(), 3u);
    EXPECT_EQ(tokens[1].kind, TokenKind::AndAnd);
}
