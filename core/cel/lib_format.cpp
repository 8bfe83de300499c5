// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `"...".format([args])` from the strings extension: %s %d %f %e %b %o %x %X and %%.

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/cel/lib_common.h"
#include "core/cel/time_util.h"

namespace dra::cel {

namespace {

std::optional<std::string> nonFinite(double d)
{
    if (std::isnan(d))
        return "NaN";
    if (std::isinf(d))
        return d > 0 ? "Infinity" : "-Infinity";
    return std::nullopt;
}

Value formattingError(const std::string &what, const Value &v)
{
    return Value::error(
        "error during formatting: " + what + ", was given " + std::string(v.typeName()));
}

// The %s rendering of a value; nullopt when the value's kind cannot be rendered.
std::optional<std::string> stringify(const Value &v)
{
    switch (v.kind()) {
    case Kind::String:
    case Kind::Bytes:
        return std::string(v.asString());
    case Kind::Int:
        return std::to_string(v.asInt());
    case Kind::Uint:
        return std::to_string(v.asUint());
    case Kind::Double:
        if (auto s = nonFinite(v.asDouble()))
            return s;
        return formatDouble(v.asDouble());
    case Kind::Bool:
        return v.asBool() ? "true" : "false";
    case Kind::Null:
        return "null";
    case Kind::Type:
        return std::string(v.asString());
    case Kind::Timestamp:
        return formatTimestamp(v.asTimestamp());
    case Kind::Duration:
        return formatDuration(v.asDuration());
    case Kind::List: {
        std::string out = "[";
        bool first = true;
        for (const Value &e : v.asList()) {
            auto s = stringify(e);
            if (!s)
                return std::nullopt;
            if (!first)
                out += ", ";
            first = false;
            out += *s;
        }
        return out + "]";
    }
    case Kind::Map: {
        std::vector<std::pair<std::string, std::string>> entries;
        const MapData &m = v.asMap();
        for (size_t i = 0; i < m.size(); ++i) {
            auto k = stringify(m.keys()[i]);
            auto val = stringify(m.values()[i]);
            if (!k || !val)
                return std::nullopt;
            entries.emplace_back(std::move(*k), std::move(*val));
        }
        std::sort(entries.begin(), entries.end());
        std::string out = "{";
        for (size_t i = 0; i < entries.size(); ++i) {
            if (i)
                out += ", ";
            out += entries[i].first + ": " + entries[i].second;
        }
        return out + "}";
    }
    default:
        return std::nullopt;
    }
}

std::string toBase(uint64_t u, int base, bool upper)
{
    if (u == 0)
        return "0";
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    std::string out;
    while (u) {
        out += digits[u % static_cast<uint64_t>(base)];
        u /= static_cast<uint64_t>(base);
    }
    std::reverse(out.begin(), out.end());
    return out;
}

std::optional<std::string> integerInBase(const Value &v, int base, bool upper)
{
    if (v.kind() == Kind::Int) {
        const int64_t i = v.asInt();
        const uint64_t mag = i < 0 ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i);
        return (i < 0 ? "-" : "") + toBase(mag, base, upper);
    }
    if (v.kind() == Kind::Uint)
        return toBase(v.asUint(), base, upper);
    return std::nullopt;
}

std::optional<double> asDouble(const Value &v)
{
    switch (v.kind()) {
    case Kind::Double:
        return v.asDouble();
    case Kind::Int:
        return static_cast<double>(v.asInt());
    case Kind::Uint:
        return static_cast<double>(v.asUint());
    default:
        return std::nullopt;
    }
}

} // namespace

Value formatString(std::string_view format, const ListData &args)
{
    std::string out;
    size_t next = 0;
    for (size_t i = 0; i < format.size(); ++i) {
        const char c = format[i];
        if (c != '%') {
            out += c;
            continue;
        }
        if (++i >= format.size())
            return Value::error("could not parse formatting clause: unexpected end of string");
        if (format[i] == '%') {
            out += '%';
            continue;
        }
        int precision = -1;
        if (format[i] == '.') {
            precision = 0;
            while (++i < format.size() && format[i] >= '0' && format[i] <= '9')
                precision = precision * 10 + (format[i] - '0');
            if (i >= format.size())
                return Value::error("could not parse formatting clause: unexpected end of string");
        }
        const char verb = format[i];
        if (std::string_view("sdfeboxX").find(verb) == std::string_view::npos)
            return Value::error(
                std::string("could not parse formatting clause: unrecognized formatting clause \"")
                + verb + "\"");
        if (next >= args.size())
            return Value::error("index " + std::to_string(next) + " out of range");
        const Value &arg = args[next++];
        switch (verb) {
        case 's': {
            auto s = stringify(arg);
            if (!s)
                return formattingError(
                    "string clause can only be used on strings, bools, bytes, "
                    "ints, doubles, maps, lists, types, durations, and timestamps",
                    arg);
            out += *s;
            break;
        }
        case 'd': {
            if (arg.kind() == Kind::Double) {
                if (auto s = nonFinite(arg.asDouble())) {
                    out += *s;
                    break;
                }
            }
            auto s = integerInBase(arg, 10, false);
            if (!s)
                return formattingError("decimal clause can only be used on integers", arg);
            out += *s;
            break;
        }
        case 'f':
        case 'e': {
            const auto d = asDouble(arg);
            if (!d)
                return formattingError(verb == 'f'
                        ? "fixed-point clause can only be used on doubles"
                        : "scientific clause can only be used on doubles",
                    arg);
            if (auto s = nonFinite(*d)) {
                out += *s;
                break;
            }
            char buf[512];
            const char spec[] = { '%', '.', '*', verb, '\0' };
            std::snprintf(buf, sizeof buf, spec, precision < 0 ? 6 : std::min(precision, 300), *d);
            out += buf;
            break;
        }
        case 'b': {
            if (arg.kind() == Kind::Bool) {
                out += arg.asBool() ? "1" : "0";
                break;
            }
            auto s = integerInBase(arg, 2, false);
            if (!s)
                return formattingError("only integers and bools can be formatted as binary", arg);
            out += *s;
            break;
        }
        case 'o': {
            auto s = integerInBase(arg, 8, false);
            if (!s)
                return formattingError("octal clause can only be used on integers", arg);
            out += *s;
            break;
        }
        case 'x':
        case 'X': {
            const bool upper = verb == 'X';
            if (arg.kind() == Kind::String || arg.kind() == Kind::Bytes) {
                for (unsigned char b : arg.asString())
                    out += (b < 16 ? "0" : "") + toBase(b, 16, upper);
                break;
            }
            auto s = integerInBase(arg, 16, upper);
            if (!s)
                return formattingError(
                    "only integers, byte buffers, and strings can be formatted as hex", arg);
            out += *s;
            break;
        }
        default:
            break;
        }
    }
    return Value::string(std::move(out));
}

} // namespace dra::cel
