// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// CEL's type conversions: int(), uint(), double(), string(), bytes(), bool(), timestamp(),
// duration(), type() and dyn().

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/cel/env.h"
#include "core/cel/lib_common.h"
#include "core/cel/program.h"
#include "core/cel/time_util.h"
#include "core/cel/utf8.h"

namespace dra::cel {

Value conversionError(std::string_view target, const Value &from)
{
    return Value::error("type conversion error from '" + std::string(from.typeName()) + "' to '"
        + std::string(target) + "'");
}

std::string formatDouble(double d)
{
    if (std::isnan(d))
        return "NaN";
    if (std::isinf(d))
        return d > 0 ? "+Inf" : "-Inf";
    if (d == 0)
        return std::signbit(d) ? "-0" : "0";
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    // sci is like "-1.2345e+06": split sign, digits and exponent.
    std::string sign;
    if (sci.front() == '-') {
        sign = "-";
        sci.erase(0, 1);
    }
    const size_t e = sci.find('e');
    std::string digits = sci.substr(0, e);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    const int exp = std::atoi(sci.c_str() + e + 1);
    if (exp < -4 || exp >= 6) { // Go's %g: shortest digits, exponent form from 1e+06
        std::string out = sign + digits.substr(0, 1);
        if (digits.size() > 1)
            out += "." + digits.substr(1);
        char ebuf[16];
        std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
        return out + ebuf;
    }
    std::string out;
    if (exp < 0) {
        out = "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
    } else if (static_cast<size_t>(exp) + 1 >= digits.size()) {
        out = digits + std::string(static_cast<size_t>(exp) + 1 - digits.size(), '0');
    } else {
        out = digits.substr(0, static_cast<size_t>(exp) + 1) + "."
            + digits.substr(static_cast<size_t>(exp) + 1);
    }
    return sign + out;
}

namespace {

using Args = std::span<const Value>;

// Conversions ------------------------------------------------------------------------------

Value identity(Args a, EvalFrame &)
{
    return a[0];
}

Value typeOf(Args a, EvalFrame &)
{
    return Value::type(a[0].typeName());
}

Value intFromUint(Args a, EvalFrame &)
{
    if (a[0].asUint() > static_cast<uint64_t>(INT64_MAX))
        return Value::error("range error converting uint to int");
    return Value::integer(static_cast<int64_t>(a[0].asUint()));
}
Value intFromDouble(Args a, EvalFrame &)
{
    const double d = a[0].asDouble();
    if (!(d > -9223372036854775809.0 && d < 9223372036854775808.0))
        return Value::error("range error converting double to int");
    return Value::integer(static_cast<int64_t>(d));
}
Value intFromString(Args a, EvalFrame &)
{
    const std::string_view s = a[0].asString();
    int64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty())
        return conversionError("int", a[0]);
    return Value::integer(v);
}
Value intFromTimestamp(Args a, EvalFrame &)
{
    return Value::integer(a[0].asTimestamp().seconds);
}

Value uintFromInt(Args a, EvalFrame &)
{
    if (a[0].asInt() < 0)
        return Value::error("range error converting int to uint");
    return Value::unsignedInteger(static_cast<uint64_t>(a[0].asInt()));
}
Value uintFromDouble(Args a, EvalFrame &)
{
    const double d = a[0].asDouble();
    if (!(d > -1.0 && d < 18446744073709551616.0))
        return Value::error("range error converting double to uint");
    return Value::unsignedInteger(static_cast<uint64_t>(d));
}
Value uintFromString(Args a, EvalFrame &)
{
    const std::string_view s = a[0].asString();
    uint64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty())
        return conversionError("uint", a[0]);
    return Value::unsignedInteger(v);
}

Value doubleFromInt(Args a, EvalFrame &)
{
    return Value::floating(static_cast<double>(a[0].asInt()));
}
Value doubleFromUint(Args a, EvalFrame &)
{
    return Value::floating(static_cast<double>(a[0].asUint()));
}
Value doubleFromString(Args a, EvalFrame &)
{
    const std::string s(a[0].asString());
    if (s.empty() || std::isspace(static_cast<unsigned char>(s.front())))
        return conversionError("double", a[0]);
    char *end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size())
        return conversionError("double", a[0]);
    return Value::floating(d);
}

Value stringFromInt(Args a, EvalFrame &)
{
    return Value::string(std::to_string(a[0].asInt()));
}
Value stringFromUint(Args a, EvalFrame &)
{
    return Value::string(std::to_string(a[0].asUint()));
}
Value stringFromDouble(Args a, EvalFrame &)
{
    return Value::string(formatDouble(a[0].asDouble()));
}
Value stringFromBool(Args a, EvalFrame &)
{
    return Value::string(a[0].asBool() ? "true" : "false");
}
Value stringFromBytes(Args a, EvalFrame &)
{
    if (!utf8::isValid(a[0].asString()))
        return Value::error("invalid UTF-8 in bytes, cannot convert to string");
    return Value::string(std::string(a[0].asString()));
}
Value stringFromTimestamp(Args a, EvalFrame &)
{
    return Value::string(formatTimestamp(a[0].asTimestamp()));
}
Value stringFromDuration(Args a, EvalFrame &)
{
    return Value::string(formatDuration(a[0].asDuration()));
}

Value bytesFromString(Args a, EvalFrame &)
{
    return Value::bytes(std::string(a[0].asString()));
}

Value boolFromString(Args a, EvalFrame &)
{
    const std::string_view s = a[0].asString();
    if (s == "1" || s == "t" || s == "T" || s == "true" || s == "TRUE" || s == "True")
        return Value::boolean(true);
    if (s == "0" || s == "f" || s == "F" || s == "false" || s == "FALSE" || s == "False")
        return Value::boolean(false);
    return conversionError("bool", a[0]);
}

Value timestampFromString(Args a, EvalFrame &)
{
    const auto t = parseTimestamp(a[0].asString());
    if (!t)
        return Value::error("timestamp('" + std::string(a[0].asString())
            + "') is not a valid RFC 3339 timestamp in range");
    return Value::timestamp(*t);
}
Value timestampFromInt(Args a, EvalFrame &)
{
    return timestampOrRange(Int128(a[0].asInt()) * 1000000000);
}
Value durationFromString(Args a, EvalFrame &)
{
    const auto d = parseDuration(a[0].asString());
    if (!d)
        return Value::error(
            "duration('" + std::string(a[0].asString()) + "') is not a valid duration in range");
    return Value::duration(*d);
}

} // namespace

void registerConversions(FunctionRegistry &r)
{
    const Kind I = Kind::Int, U = Kind::Uint, D = Kind::Double, S = Kind::String, B = Kind::Bytes,
               T = Kind::Timestamp, Du = Kind::Duration, Bo = Kind::Bool, Y = Kind::Dyn;
    r.global("type", { Y }, typeOf);
    r.global("dyn", { Y }, identity);
    r.global("int", { I }, identity);
    r.global("int", { U }, intFromUint);
    r.global("int", { D }, intFromDouble);
    r.global("int", { S }, intFromString);
    r.global("int", { T }, intFromTimestamp);
    r.global("uint", { U }, identity);
    r.global("uint", { I }, uintFromInt);
    r.global("uint", { D }, uintFromDouble);
    r.global("uint", { S }, uintFromString);
    r.global("double", { D }, identity);
    r.global("double", { I }, doubleFromInt);
    r.global("double", { U }, doubleFromUint);
    r.global("double", { S }, doubleFromString);
    r.global("string", { S }, identity);
    r.global("string", { I }, stringFromInt);
    r.global("string", { U }, stringFromUint);
    r.global("string", { D }, stringFromDouble);
    r.global("string", { Bo }, stringFromBool);
    r.global("string", { B }, stringFromBytes);
    r.global("string", { T }, stringFromTimestamp);
    r.global("string", { Du }, stringFromDuration);
    r.global("bytes", { B }, identity);
    r.global("bytes", { S }, bytesFromString);
    r.global("bool", { Bo }, identity);
    r.global("bool", { S }, boolFromString);
    r.global("timestamp", { T }, identity);
    r.global("timestamp", { S }, timestampFromString);
    r.global("timestamp", { I }, timestampFromInt);
    r.global("duration", { Du }, identity);
    r.global("duration", { S }, durationFromString);
}

} // namespace dra::cel
