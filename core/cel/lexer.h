// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dra::cel {

// Token kinds of the CEL lexical grammar.
enum class TokenKind : uint8_t {
    End,
    Error,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Ident, // identifiers and keywords (true, false, null, in, reserved words)
    QuotedIdent, // `a-b` (backtick-quoted field names)
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Dot,
    Comma,
    Colon,
    Question,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Not,
    EqualEqual,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    AndAnd,
    OrOr,
};

// One token. `text` points into the source; `value` holds decoded literal contents (string
// and bytes bodies, numeric digits without prefix or suffix).
struct Token
{
    TokenKind kind = TokenKind::End;
    int32_t offset = 0;
    std::string_view text;
    std::string value;
    bool hex = false; // integer literal written 0x...
};

// Splits CEL source text into tokens on demand.
class Lexer final
{
public:
    explicit Lexer(std::string_view source)
        : m_source(source)
    {
    }

    // The next token; after End or Error it keeps returning End.
    Token next();

private:
    Token lexNumber();
    Token lexString(size_t prefixLength, bool raw, bool bytes);
    Token make(TokenKind kind, size_t start, size_t end);
    Token error(size_t at, std::string message);

    std::string_view m_source;
    size_t m_pos = 0;
    bool m_done = false;
};

// True for words reserved by CEL that cannot be used as identifiers.
bool isReservedWord(std::string_view word);

} // namespace dra::cel
