// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/json_skim.h"

#include <charconv>

#include "core/common/ascii.h"

namespace dra::inventory {

namespace {

constexpr int kMaxDepth = 64; // bits in JsonSkim::m_started

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

bool readHex4(std::string_view text, size_t at, uint32_t *out)
{
    if (at + 4 > text.size())
        return false;
    uint32_t value = 0;
    for (size_t i = at; i < at + 4; ++i) {
        const int digit = common::hexValue(text[i]);
        if (digit < 0)
            return false;
        value = value * 16 + uint32_t(digit);
    }
    *out = value;
    return true;
}

void appendUtf8(std::string *out, uint32_t cp)
{
    if (cp < 0x80) {
        *out += char(cp);
    } else if (cp < 0x800) {
        *out += char(0xC0 | (cp >> 6));
        *out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *out += char(0xE0 | (cp >> 12));
        *out += char(0x80 | ((cp >> 6) & 0x3F));
        *out += char(0x80 | (cp & 0x3F));
    } else {
        *out += char(0xF0 | (cp >> 18));
        *out += char(0x80 | ((cp >> 12) & 0x3F));
        *out += char(0x80 | ((cp >> 6) & 0x3F));
        *out += char(0x80 | (cp & 0x3F));
    }
}

} // namespace

bool unescapeJsonString(std::string_view body, std::string *out)
{
    out->clear();
    out->reserve(body.size());
    for (size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (c != '\\') {
            *out += c;
            continue;
        }
        if (++i >= body.size())
            return false;
        switch (body[i]) {
        case '"':
            *out += '"';
            break;
        case '\\':
            *out += '\\';
            break;
        case '/':
            *out += '/';
            break;
        case 'b':
            *out += '\b';
            break;
        case 'f':
            *out += '\f';
            break;
        case 'n':
            *out += '\n';
            break;
        case 'r':
            *out += '\r';
            break;
        case 't':
            *out += '\t';
            break;
        case 'u': {
            uint32_t cp = 0;
            if (!readHex4(body, i + 1, &cp))
                return false;
            i += 4;
            // A high surrogate must be followed by an escaped low one.
            if (cp >= 0xD800 && cp < 0xDC00) {
                uint32_t low = 0;
                if (i + 2 >= body.size() || body[i + 1] != '\\' || body[i + 2] != 'u'
                    || !readHex4(body, i + 3, &low) || low < 0xDC00 || low >= 0xE000)
                    return false;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                i += 6;
            } else if (cp >= 0xDC00 && cp < 0xE000) {
                return false;
            }
            appendUtf8(out, cp);
            break;
        }
        default:
            return false;
        }
    }
    return true;
}

bool JsonSkim::fail()
{
    m_ok = false;
    m_pos = m_text.size();
    return false;
}

void JsonSkim::skipSpace()
{
    while (m_pos < m_text.size() && isSpace(m_text[m_pos]))
        ++m_pos;
}

char JsonSkim::peek()
{
    skipSpace();
    return m_ok && m_pos < m_text.size() ? m_text[m_pos] : '\0';
}

bool JsonSkim::expect(char c)
{
    skipSpace();
    if (m_pos >= m_text.size() || m_text[m_pos] != c)
        return fail();
    ++m_pos;
    return true;
}

bool JsonSkim::enterObject()
{
    if (!m_ok || !expect('{') || m_depth >= kMaxDepth)
        return fail();
    m_started &= ~(uint64_t(1) << m_depth);
    ++m_depth;
    return true;
}

bool JsonSkim::enterArray()
{
    if (!m_ok || !expect('[') || m_depth >= kMaxDepth)
        return fail();
    m_started &= ~(uint64_t(1) << m_depth);
    ++m_depth;
    return true;
}

bool JsonSkim::nextMember(std::string_view *key)
{
    if (!m_ok || m_depth == 0)
        return fail();
    const uint64_t bit = uint64_t(1) << (m_depth - 1);
    skipSpace();
    if (m_pos < m_text.size() && m_text[m_pos] == '}') {
        ++m_pos;
        --m_depth;
        return false;
    }
    if ((m_started & bit) && !expect(','))
        return false;
    m_started |= bit;
    skipSpace();
    const size_t start = m_pos;
    if (!skipString())
        return false;
    *key = m_text.substr(start + 1, m_pos - start - 2);
    return expect(':');
}

bool JsonSkim::nextElement()
{
    if (!m_ok || m_depth == 0)
        return fail();
    const uint64_t bit = uint64_t(1) << (m_depth - 1);
    skipSpace();
    if (m_pos < m_text.size() && m_text[m_pos] == ']') {
        ++m_pos;
        --m_depth;
        return false;
    }
    if ((m_started & bit) && !expect(','))
        return false;
    m_started |= bit;
    return true;
}

bool JsonSkim::skipString()
{
    if (m_pos >= m_text.size() || m_text[m_pos] != '"')
        return fail();
    const char *const data = m_text.data();
    const size_t size = m_text.size();
    size_t i = m_pos + 1;
    while (i < size) {
        const char c = data[i];
        if (c == '"') {
            m_pos = i + 1;
            return true;
        }
        i += c == '\\' ? 2 : 1;
    }
    return fail();
}

bool JsonSkim::skipScalar()
{
    const size_t start = m_pos;
    while (m_pos < m_text.size()) {
        const char c = m_text[m_pos];
        if (c == ',' || c == '}' || c == ']' || isSpace(c))
            break;
        ++m_pos;
    }
    return m_pos > start || fail();
}

std::string_view JsonSkim::skipValue()
{
    if (!m_ok)
        return {};
    skipSpace();
    const size_t start = m_pos;
    if (m_pos >= m_text.size()) {
        fail();
        return {};
    }
    const char first = m_text[m_pos];
    if (first == '"') {
        if (!skipString())
            return {};
    } else if (first == '{' || first == '[') {
        const char *const data = m_text.data();
        const size_t size = m_text.size();
        int depth = 0;
        size_t i = m_pos;
        while (i < size) {
            const char c = data[i];
            if (c == '"') {
                m_pos = i;
                if (!skipString())
                    return {};
                i = m_pos;
                continue;
            }
            if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (--depth == 0) {
                    m_pos = i + 1;
                    return m_text.substr(start, m_pos - start);
                }
            }
            ++i;
        }
        fail();
        return {};
    } else if (!skipScalar()) {
        return {};
    }
    return m_text.substr(start, m_pos - start);
}

bool JsonSkim::readString(std::string *out)
{
    if (peek() != '"') {
        skipValue();
        return false;
    }
    const size_t start = m_pos;
    if (!skipString())
        return false;
    const std::string_view body = m_text.substr(start + 1, m_pos - start - 2);
    if (body.find('\\') == std::string_view::npos) {
        out->assign(body);
        return true;
    }
    return unescapeJsonString(body, out) || fail();
}

bool JsonSkim::readInt(int64_t *out)
{
    const char c = peek();
    if (c != '-' && (c < '0' || c > '9')) {
        skipValue();
        return false;
    }
    const std::string_view number = skipValue();
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), *out);
    return error == std::errc() && end == number.data() + number.size();
}

bool JsonSkim::readBool(bool *out)
{
    const std::string_view value = skipValue();
    if (value == "true" || value == "false") {
        *out = value == "true";
        return true;
    }
    return false;
}

} // namespace dra::inventory
