// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/lexer.h"

#include <array>

#include "core/cel/utf8.h"
#include "core/common/ascii.h"

namespace dra::cel {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHexDigit(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool isIdentStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

} // namespace

bool isReservedWord(std::string_view word)
{
    static constexpr std::array<std::string_view, 17> kReserved
        = { "as", "break", "const", "continue", "else", "for", "function", "if", "import", "let",
              "loop", "package", "namespace", "return", "var", "void", "while" };
    for (std::string_view r : kReserved) {
        if (r == word)
            return true;
    }
    return false;
}

Token Lexer::make(TokenKind kind, size_t start, size_t end)
{
    Token t;
    t.kind = kind;
    t.offset = static_cast<int32_t>(start);
    t.text = m_source.substr(start, end - start);
    m_pos = end;
    return t;
}

Token Lexer::error(size_t at, std::string message)
{
    Token t;
    t.kind = TokenKind::Error;
    t.offset = static_cast<int32_t>(at);
    t.value = std::move(message);
    m_done = true;
    return t;
}

Token Lexer::next()
{
    if (m_done)
        return make(TokenKind::End, m_source.size(), m_source.size());
    // Whitespace and // comments.
    while (m_pos < m_source.size()) {
        const char c = m_source[m_pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
            ++m_pos;
        } else if (c == '/' && m_pos + 1 < m_source.size() && m_source[m_pos + 1] == '/') {
            while (m_pos < m_source.size() && m_source[m_pos] != '\n')
                ++m_pos;
        } else {
            break;
        }
    }
    const size_t start = m_pos;
    if (m_pos >= m_source.size()) {
        m_done = true;
        return make(TokenKind::End, start, start);
    }
    const char c = m_source[m_pos];
    const char n = m_pos + 1 < m_source.size() ? m_source[m_pos + 1] : '\0';
    if (isDigit(c) || (c == '.' && isDigit(n)))
        return lexNumber();
    if (isIdentStart(c)) {
        // String prefixes: r, b and their combinations, directly followed by a quote.
        size_t p = m_pos;
        bool raw = false;
        bool bytes = false;
        while (p < m_source.size() && p - m_pos < 2) {
            const char q = m_source[p];
            if ((q == 'r' || q == 'R') && !raw)
                raw = true;
            else if ((q == 'b' || q == 'B') && !bytes)
                bytes = true;
            else
                break;
            ++p;
        }
        if (p > m_pos && p < m_source.size() && (m_source[p] == '"' || m_source[p] == '\''))
            return lexString(p - m_pos, raw, bytes);
        size_t end = m_pos;
        while (end < m_source.size() && (isIdentStart(m_source[end]) || isDigit(m_source[end])))
            ++end;
        return make(TokenKind::Ident, start, end);
    }
    switch (c) {
    case '"':
    case '\'':
        return lexString(0, false, false);
    case '`': {
        size_t end = m_pos + 1;
        while (end < m_source.size() && m_source[end] != '`' && m_source[end] != '\n')
            ++end;
        if (end >= m_source.size() || m_source[end] != '`')
            return error(start, "unterminated quoted identifier");
        Token t = make(TokenKind::QuotedIdent, start, end + 1);
        t.value = std::string(m_source.substr(start + 1, end - start - 1));
        return t;
    }
    case '(':
        return make(TokenKind::LParen, start, start + 1);
    case ')':
        return make(TokenKind::RParen, start, start + 1);
    case '[':
        return make(TokenKind::LBracket, start, start + 1);
    case ']':
        return make(TokenKind::RBracket, start, start + 1);
    case '{':
        return make(TokenKind::LBrace, start, start + 1);
    case '}':
        return make(TokenKind::RBrace, start, start + 1);
    case '.':
        return make(TokenKind::Dot, start, start + 1);
    case ',':
        return make(TokenKind::Comma, start, start + 1);
    case ':':
        return make(TokenKind::Colon, start, start + 1);
    case '?':
        return make(TokenKind::Question, start, start + 1);
    case '+':
        return make(TokenKind::Plus, start, start + 1);
    case '-':
        return make(TokenKind::Minus, start, start + 1);
    case '*':
        return make(TokenKind::Star, start, start + 1);
    case '/':
        return make(TokenKind::Slash, start, start + 1);
    case '%':
        return make(TokenKind::Percent, start, start + 1);
    case '!':
        if (n == '=')
            return make(TokenKind::NotEqual, start, start + 2);
        return make(TokenKind::Not, start, start + 1);
    case '=':
        if (n == '=')
            return make(TokenKind::EqualEqual, start, start + 2);
        break;
    case '<':
        if (n == '=')
            return make(TokenKind::LessEqual, start, start + 2);
        return make(TokenKind::Less, start, start + 1);
    case '>':
        if (n == '=')
            return make(TokenKind::GreaterEqual, start, start + 2);
        return make(TokenKind::Greater, start, start + 1);
    case '&':
        if (n == '&')
            return make(TokenKind::AndAnd, start, start + 2);
        break;
    case '|':
        if (n == '|')
            return make(TokenKind::OrOr, start, start + 2);
        break;
    default:
        break;
    }
    return error(start, "token recognition error at: '" + std::string(1, c) + "'");
}

Token Lexer::lexNumber()
{
    const size_t start = m_pos;
    size_t p = m_pos;
    const auto &s = m_source;
    if (s[p] == '0' && p + 1 < s.size() && (s[p + 1] == 'x' || s[p + 1] == 'X')) {
        p += 2;
        const size_t digitsStart = p;
        while (p < s.size() && isHexDigit(s[p]))
            ++p;
        if (p == digitsStart)
            return error(start, "invalid hex literal");
        std::string digits(s.substr(digitsStart, p - digitsStart));
        TokenKind kind = TokenKind::Int;
        if (p < s.size() && (s[p] == 'u' || s[p] == 'U')) {
            kind = TokenKind::Uint;
            ++p;
        }
        Token t = make(kind, start, p);
        t.value = std::move(digits);
        t.hex = true;
        return t;
    }
    while (p < s.size() && isDigit(s[p]))
        ++p;
    bool isDouble = false;
    if (p + 1 < s.size() && s[p] == '.' && isDigit(s[p + 1])) {
        isDouble = true;
        ++p;
        while (p < s.size() && isDigit(s[p]))
            ++p;
    }
    if (p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
        size_t q = p + 1;
        if (q < s.size() && (s[q] == '+' || s[q] == '-'))
            ++q;
        if (q < s.size() && isDigit(s[q])) {
            isDouble = true;
            p = q;
            while (p < s.size() && isDigit(s[p]))
                ++p;
        }
    }
    std::string digits(s.substr(start, p - start));
    TokenKind kind = isDouble ? TokenKind::Double : TokenKind::Int;
    if (!isDouble && p < s.size() && (s[p] == 'u' || s[p] == 'U')) {
        kind = TokenKind::Uint;
        ++p;
    }
    Token t = make(kind, start, p);
    t.value = std::move(digits);
    return t;
}

Token Lexer::lexString(size_t prefixLength, bool raw, bool bytes)
{
    const size_t start = m_pos;
    size_t p = m_pos + prefixLength;
    const auto &s = m_source;
    const char quote = s[p];
    const bool triple = p + 2 < s.size() && s[p + 1] == quote && s[p + 2] == quote;
    p += triple ? 3 : 1;
    std::string out;
    // \x and octal escapes give a byte in bytes literals and a code point in strings.
    auto appendEscaped = [&](uint32_t v) {
        if (bytes)
            out += static_cast<char>(v);
        else
            utf8::append(out, v);
    };
    while (true) {
        if (p >= s.size())
            return error(start, "unterminated string literal");
        const char c = s[p];
        if (triple) {
            if (c == quote && p + 2 < s.size() && s[p + 1] == quote && s[p + 2] == quote) {
                p += 3;
                break;
            }
        } else {
            if (c == quote) {
                ++p;
                break;
            }
            if (c == '\n' || c == '\r')
                return error(start, "unterminated string literal");
        }
        if (c != '\\' || raw) {
            out += c;
            ++p;
            continue;
        }
        // Escape sequences.
        if (p + 1 >= s.size())
            return error(start, "unterminated string literal");
        const char e = s[p + 1];
        p += 2;
        switch (e) {
        case 'a':
            out += '\a';
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'v':
            out += '\v';
            break;
        case '\\':
            out += '\\';
            break;
        case '\'':
            out += '\'';
            break;
        case '"':
            out += '"';
            break;
        case '`':
            out += '`';
            break;
        case '?':
            out += '?';
            break;
        case 'x':
        case 'X': {
            if (p + 2 > s.size() || !isHexDigit(s[p]) || !isHexDigit(s[p + 1]))
                return error(p - 2, "invalid escape sequence");
            const uint32_t v = common::hexValue(s[p]) * 16 + common::hexValue(s[p + 1]);
            p += 2;
            appendEscaped(v);
            break;
        }
        case 'u':
        case 'U': {
            const size_t len = e == 'u' ? 4 : 8;
            if (bytes)
                return error(p - 2, "unicode escape sequences are not allowed in bytes literals");
            uint32_t v = 0;
            for (size_t i = 0; i < len; ++i) {
                if (p + i >= s.size() || !isHexDigit(s[p + i]))
                    return error(p - 2, "invalid escape sequence");
                v = v * 16 + common::hexValue(s[p + i]);
            }
            p += len;
            if ((v >= 0xD800 && v < 0xE000) || v > 0x10FFFF)
                return error(p - len - 2, "invalid unicode code point");
            utf8::append(out, v);
            break;
        }
        default:
            if (e >= '0' && e <= '3') {
                if (p + 2 > s.size() || s[p] < '0' || s[p] > '7' || s[p + 1] < '0'
                    || s[p + 1] > '7')
                    return error(p - 2, "invalid escape sequence");
                const uint32_t v = (e - '0') * 64 + (s[p] - '0') * 8 + (s[p + 1] - '0');
                p += 2;
                appendEscaped(v);
                break;
            }
            return error(p - 2, "invalid escape sequence");
        }
    }
    Token t = make(bytes ? TokenKind::Bytes : TokenKind::String, start, p);
    t.value = std::move(out);
    return t;
}

} // namespace dra::cel
