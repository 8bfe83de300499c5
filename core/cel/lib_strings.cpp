// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The strings extension (charAt, indexOf, split, format, ...) and the standard string
// predicates. Indexes count code points, as CEL strings are sequences of code points.

#include <algorithm>

#include "core/cel/env.h"
#include "core/cel/lib_common.h"
#include "core/cel/program.h"
#include "core/cel/utf8.h"

namespace dra::cel {

Value formatString(std::string_view format, const ListData &args); // lib_format.cpp

namespace {

using Args = std::span<const Value>;
using CodePoints = std::vector<uint32_t>;

Value outOfRange(int64_t i)
{
    return Value::error("index out of range: " + std::to_string(i));
}

Value stringContains(Args a, EvalFrame &)
{
    return Value::boolean(a[0].asString().find(a[1].asString()) != std::string_view::npos);
}
Value startsWith(Args a, EvalFrame &)
{
    return Value::boolean(a[0].asString().starts_with(a[1].asString()));
}
Value endsWith(Args a, EvalFrame &)
{
    return Value::boolean(a[0].asString().ends_with(a[1].asString()));
}

Value charAt(Args a, EvalFrame &)
{
    const CodePoints s = utf8::decode(a[0].asString());
    const int64_t i = a[1].asInt();
    if (i < 0 || static_cast<size_t>(i) > s.size())
        return outOfRange(i);
    return Value::string(utf8::encode(s, static_cast<size_t>(i), static_cast<size_t>(i) + 1));
}

int64_t find(const CodePoints &s, const CodePoints &sub, size_t from)
{
    if (sub.size() > s.size())
        return -1;
    for (size_t i = from; i + sub.size() <= s.size(); ++i) {
        if (std::equal(sub.begin(), sub.end(), s.begin() + static_cast<std::ptrdiff_t>(i)))
            return static_cast<int64_t>(i);
    }
    return -1;
}

Value stringIndexOf(Args a, EvalFrame &)
{
    const CodePoints s = utf8::decode(a[0].asString());
    const CodePoints sub = utf8::decode(a[1].asString());
    const int64_t offset = a.size() > 2 ? a[2].asInt() : 0;
    if (offset < 0 || static_cast<size_t>(offset) > s.size())
        return outOfRange(offset);
    return Value::integer(find(s, sub, static_cast<size_t>(offset)));
}

Value stringLastIndexOf(Args a, EvalFrame &)
{
    const CodePoints s = utf8::decode(a[0].asString());
    const CodePoints sub = utf8::decode(a[1].asString());
    int64_t offset = a.size() > 2 ? a[2].asInt() : static_cast<int64_t>(s.size());
    if (offset < 0 || static_cast<size_t>(offset) > s.size())
        return outOfRange(offset);
    if (sub.size() > s.size())
        return Value::integer(-1);
    offset = std::min<int64_t>(offset, static_cast<int64_t>(s.size() - sub.size()));
    for (int64_t i = offset; i >= 0; --i) {
        if (std::equal(sub.begin(), sub.end(), s.begin() + i))
            return Value::integer(i);
    }
    return Value::integer(-1);
}

Value lowerAscii(Args a, EvalFrame &)
{
    std::string s(a[0].asString());
    for (char &c : s) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    return Value::string(std::move(s));
}

Value upperAscii(Args a, EvalFrame &)
{
    std::string s(a[0].asString());
    for (char &c : s) {
        if (c >= 'a' && c <= 'z')
            c = static_cast<char>(c - 'a' + 'A');
    }
    return Value::string(std::move(s));
}

Value replace(Args a, EvalFrame &)
{
    const std::string_view s = a[0].asString();
    const std::string_view from = a[1].asString();
    const std::string_view to = a[2].asString();
    int64_t n = a.size() > 3 ? a[3].asInt() : -1;
    std::string out;
    if (from.empty()) {
        // Go inserts the replacement before every code point and at the end.
        const CodePoints cps = utf8::decode(s);
        for (size_t i = 0; i <= cps.size(); ++i) {
            if (n != 0) {
                out += to;
                if (n > 0)
                    --n;
            }
            if (i < cps.size())
                utf8::append(out, cps[i]);
        }
        return Value::string(std::move(out));
    }
    size_t pos = 0;
    while (n != 0) {
        const size_t hit = s.find(from, pos);
        if (hit == std::string_view::npos)
            break;
        out.append(s.substr(pos, hit - pos)).append(to);
        pos = hit + from.size();
        if (n > 0)
            --n;
    }
    out.append(s.substr(pos));
    return Value::string(std::move(out));
}

Value split(Args a, EvalFrame &)
{
    const std::string_view s = a[0].asString();
    const std::string_view sep = a[1].asString();
    const int64_t n = a.size() > 2 ? a[2].asInt() : -1;
    std::vector<Value> out;
    if (n == 0)
        return Value::list(std::move(out));
    if (sep.empty()) {
        const CodePoints cps = utf8::decode(s);
        for (size_t i = 0; i < cps.size(); ++i) {
            if (n > 0 && static_cast<int64_t>(out.size()) == n - 1) {
                out.push_back(Value::string(utf8::encode(cps, i, cps.size())));
                break;
            }
            out.push_back(Value::string(utf8::encode(cps, i, i + 1)));
        }
        return Value::list(std::move(out));
    }
    size_t pos = 0;
    while (n < 0 || static_cast<int64_t>(out.size()) < n - 1) {
        const size_t hit = s.find(sep, pos);
        if (hit == std::string_view::npos)
            break;
        out.push_back(Value::string(std::string(s.substr(pos, hit - pos))));
        pos = hit + sep.size();
    }
    out.push_back(Value::string(std::string(s.substr(pos))));
    return Value::list(std::move(out));
}

Value substring(Args a, EvalFrame &)
{
    const CodePoints s = utf8::decode(a[0].asString());
    const int64_t start = a[1].asInt();
    const int64_t end = a.size() > 2 ? a[2].asInt() : static_cast<int64_t>(s.size());
    if (start < 0 || static_cast<size_t>(start) > s.size())
        return outOfRange(start);
    if (end < 0 || static_cast<size_t>(end) > s.size())
        return outOfRange(end);
    if (start > end)
        return Value::error("invalid substring range. start: " + std::to_string(start)
            + ", end: " + std::to_string(end));
    return Value::string(utf8::encode(s, static_cast<size_t>(start), static_cast<size_t>(end)));
}

bool isUnicodeSpace(uint32_t c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || c == 0x85 || c == 0xA0 || c == 0x1680
        || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F
        || c == 0x3000;
}

Value trim(Args a, EvalFrame &)
{
    const CodePoints s = utf8::decode(a[0].asString());
    size_t b = 0;
    size_t e = s.size();
    while (b < e && isUnicodeSpace(s[b]))
        ++b;
    while (e > b && isUnicodeSpace(s[e - 1]))
        --e;
    return Value::string(utf8::encode(s, b, e));
}

Value join(Args a, EvalFrame &)
{
    const std::string_view sep = a.size() > 1 ? a[1].asString() : std::string_view();
    std::string out;
    bool first = true;
    for (const Value &e : a[0].asList()) {
        if (e.kind() != Kind::String)
            return noSuchOverload("join on a list containing " + std::string(e.typeName()));
        if (!first)
            out += sep;
        first = false;
        out += e.asString();
    }
    return Value::string(std::move(out));
}

Value stringReverse(Args a, EvalFrame &)
{
    CodePoints s = utf8::decode(a[0].asString());
    std::reverse(s.begin(), s.end());
    return Value::string(utf8::encode(s, 0, s.size()));
}

Value quote(Args a, EvalFrame &)
{
    const CodePoints s = utf8::decode(a[0].asString());
    std::string out = "\"";
    for (uint32_t c : s) {
        switch (c) {
        case '\a':
            out += "\\a";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\v':
            out += "\\v";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '"':
            out += "\\\"";
            break;
        default:
            utf8::append(out, c);
        }
    }
    out += '"';
    return Value::string(std::move(out));
}

Value format(Args a, EvalFrame &)
{
    return formatString(a[0].asString(), a[1].asList());
}

} // namespace

// The string predicates every CEL environment has.
void registerStringPredicates(FunctionRegistry &r)
{
    r.member("contains", { Kind::String, Kind::String }, stringContains);
    r.member("startsWith", { Kind::String, Kind::String }, startsWith);
    r.member("endsWith", { Kind::String, Kind::String }, endsWith);
}

void registerStringsLibrary(FunctionRegistry &r)
{
    const Kind S = Kind::String, I = Kind::Int, L = Kind::List;
    r.member("charAt", { S, I }, charAt);
    r.member("indexOf", { S, S }, stringIndexOf);
    r.member("indexOf", { S, S, I }, stringIndexOf);
    r.member("lastIndexOf", { S, S }, stringLastIndexOf);
    r.member("lastIndexOf", { S, S, I }, stringLastIndexOf);
    r.member("lowerAscii", { S }, lowerAscii);
    r.member("upperAscii", { S }, upperAscii);
    r.member("replace", { S, S, S }, replace);
    r.member("replace", { S, S, S, I }, replace);
    r.member("split", { S, S }, split);
    r.member("split", { S, S, I }, split);
    r.member("substring", { S, I }, substring);
    r.member("substring", { S, I, I }, substring);
    r.member("trim", { S }, trim);
    r.member("join", { L }, join);
    r.member("join", { L, S }, join);
    r.global("strings.quote", { S }, quote);
    r.member("format", { S, L }, format);
}

void registerStringsV3Library(FunctionRegistry &r)
{
    r.member("reverse", { Kind::String }, stringReverse);
}

} // namespace dra::cel
