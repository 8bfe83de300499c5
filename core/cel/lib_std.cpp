// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// CEL's standard definitions: operators, size, membership and type conversions.

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

std::optional<int64_t> checkedAdd(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return std::nullopt;
    return r;
}

std::optional<int64_t> checkedSub(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r))
        return std::nullopt;
    return r;
}

std::optional<int64_t> checkedMul(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return std::nullopt;
    return r;
}

Value conversionError(std::string_view target, const Value &from)
{
    return Value::error("type conversion error from '" + std::string(from.typeName()) + "' to '"
                        + std::string(target) + "'");
}

std::optional<int> compareValues(const Value &a, const Value &b)
{
    if (a.isNumber() && b.isNumber())
        return compareNumbers(a, b);
    if (a.kind() != b.kind())
        return std::nullopt;
    auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
    switch (a.kind()) {
    case Kind::Bool: return cmp(a.asBool(), b.asBool());
    case Kind::String:
    case Kind::Bytes: return cmp(a.asString().compare(b.asString()), 0);
    case Kind::Timestamp:
    case Kind::Duration: return cmp(toNanos(a.asTimestamp()), toNanos(b.asTimestamp()));
    default: return std::nullopt;
    }
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
        out = digits.substr(0, static_cast<size_t>(exp) + 1) + "." + digits.substr(static_cast<size_t>(exp) + 1);
    }
    return sign + out;
}

namespace {

using Args = std::span<const Value>;

Value overflow()
{
    return Value::error("integer overflow");
}

Value fromOpt(std::optional<int64_t> v)
{
    return v ? Value::integer(*v) : overflow();
}

// Arithmetic -------------------------------------------------------------------------------

Value addInt(Args a, EvalFrame &) { return fromOpt(checkedAdd(a[0].asInt(), a[1].asInt())); }
Value subInt(Args a, EvalFrame &) { return fromOpt(checkedSub(a[0].asInt(), a[1].asInt())); }
Value mulInt(Args a, EvalFrame &) { return fromOpt(checkedMul(a[0].asInt(), a[1].asInt())); }
Value divInt(Args a, EvalFrame &)
{
    if (a[1].asInt() == 0)
        return divisionByZero();
    if (a[0].asInt() == INT64_MIN && a[1].asInt() == -1)
        return overflow();
    return Value::integer(a[0].asInt() / a[1].asInt());
}
Value modInt(Args a, EvalFrame &)
{
    if (a[1].asInt() == 0)
        return moduloByZero();
    if (a[0].asInt() == INT64_MIN && a[1].asInt() == -1)
        return overflow();
    return Value::integer(a[0].asInt() % a[1].asInt());
}
Value negInt(Args a, EvalFrame &)
{
    if (a[0].asInt() == INT64_MIN)
        return overflow();
    return Value::integer(-a[0].asInt());
}

Value addUint(Args a, EvalFrame &)
{
    uint64_t r;
    if (__builtin_add_overflow(a[0].asUint(), a[1].asUint(), &r))
        return overflow();
    return Value::unsignedInteger(r);
}
Value subUint(Args a, EvalFrame &)
{
    uint64_t r;
    if (__builtin_sub_overflow(a[0].asUint(), a[1].asUint(), &r))
        return overflow();
    return Value::unsignedInteger(r);
}
Value mulUint(Args a, EvalFrame &)
{
    uint64_t r;
    if (__builtin_mul_overflow(a[0].asUint(), a[1].asUint(), &r))
        return overflow();
    return Value::unsignedInteger(r);
}
Value divUint(Args a, EvalFrame &)
{
    if (a[1].asUint() == 0)
        return divisionByZero();
    return Value::unsignedInteger(a[0].asUint() / a[1].asUint());
}
Value modUint(Args a, EvalFrame &)
{
    if (a[1].asUint() == 0)
        return moduloByZero();
    return Value::unsignedInteger(a[0].asUint() % a[1].asUint());
}

Value addDouble(Args a, EvalFrame &) { return Value::floating(a[0].asDouble() + a[1].asDouble()); }
Value subDouble(Args a, EvalFrame &) { return Value::floating(a[0].asDouble() - a[1].asDouble()); }
Value mulDouble(Args a, EvalFrame &) { return Value::floating(a[0].asDouble() * a[1].asDouble()); }
Value divDouble(Args a, EvalFrame &) { return Value::floating(a[0].asDouble() / a[1].asDouble()); }
Value negDouble(Args a, EvalFrame &) { return Value::floating(-a[0].asDouble()); }

Value addString(Args a, EvalFrame &)
{
    std::string s;
    s.reserve(a[0].asString().size() + a[1].asString().size());
    s.append(a[0].asString()).append(a[1].asString());
    return a[0].kind() == Kind::Bytes ? Value::bytes(std::move(s)) : Value::string(std::move(s));
}

Value addList(Args a, EvalFrame &)
{
    if (a[0].asList().empty())
        return a[1];
    if (a[1].asList().empty())
        return a[0];
    auto list = std::make_shared<ListData>();
    list->reserve(a[0].asList().size() + a[1].asList().size());
    list->insert(list->end(), a[0].asList().begin(), a[0].asList().end());
    list->insert(list->end(), a[1].asList().begin(), a[1].asList().end());
    return Value::list(std::shared_ptr<const ListData>(std::move(list)));
}

Value timestampOrRange(Int128 nanos)
{
    const auto t = timestampFromNanos(nanos);
    return t ? Value::timestamp(*t) : Value::error("timestamp out of range");
}

Value durationOrRange(Int128 nanos)
{
    const auto d = durationFromNanos(nanos);
    return d ? Value::duration(*d) : Value::error("duration out of range");
}

Value addTsDur(Args a, EvalFrame &)
{
    return timestampOrRange(toNanos(a[0].asTimestamp()) + toNanos(a[1].asDuration()));
}
Value addDurTs(Args a, EvalFrame &)
{
    return timestampOrRange(toNanos(a[1].asTimestamp()) + toNanos(a[0].asDuration()));
}
Value addDurDur(Args a, EvalFrame &)
{
    return durationOrRange(toNanos(a[0].asDuration()) + toNanos(a[1].asDuration()));
}
Value subTsTs(Args a, EvalFrame &)
{
    return durationOrRange(toNanos(a[0].asTimestamp()) - toNanos(a[1].asTimestamp()));
}
Value subTsDur(Args a, EvalFrame &)
{
    return timestampOrRange(toNanos(a[0].asTimestamp()) - toNanos(a[1].asDuration()));
}
Value subDurDur(Args a, EvalFrame &)
{
    return durationOrRange(toNanos(a[0].asDuration()) - toNanos(a[1].asDuration()));
}

// Comparison -------------------------------------------------------------------------------

Value eq(Args a, EvalFrame &) { return Value::boolean(valuesEqual(a[0], a[1])); }
Value ne(Args a, EvalFrame &) { return Value::boolean(!valuesEqual(a[0], a[1])); }

template <bool (*Pred)(int)>
Value relational(Args a, EvalFrame &)
{
    const std::optional<int> c = compareValues(a[0], a[1]);
    if (!c)
        return noSuchOverload("relational operator on " + std::string(a[0].typeName()) + " and "
                              + std::string(a[1].typeName()));
    if (*c == 2)
        return Value::boolean(false);
    return Value::boolean(Pred(*c));
}
bool isLess(int c) { return c < 0; }
bool isLessEqual(int c) { return c <= 0; }
bool isGreater(int c) { return c > 0; }
bool isGreaterEqual(int c) { return c >= 0; }

Value logicalNot(Args a, EvalFrame &) { return Value::boolean(!a[0].asBool()); }

Value inList(Args a, EvalFrame &)
{
    for (const Value &e : a[1].asList()) {
        if (valuesEqual(e, a[0]))
            return Value::boolean(true);
    }
    return Value::boolean(false);
}

Value inMap(Args a, EvalFrame &)
{
    return Value::boolean(a[1].asMap().find(a[0]) != nullptr);
}

// Size -------------------------------------------------------------------------------------

Value sizeString(Args a, EvalFrame &)
{
    return Value::integer(static_cast<int64_t>(utf8::length(a[0].asString())));
}
Value sizeBytes(Args a, EvalFrame &) { return Value::integer(static_cast<int64_t>(a[0].asString().size())); }
Value sizeList(Args a, EvalFrame &) { return Value::integer(static_cast<int64_t>(a[0].asList().size())); }
Value sizeMap(Args a, EvalFrame &) { return Value::integer(static_cast<int64_t>(a[0].asMap().size())); }
Value sizeHost(Args a, EvalFrame &) { return a[0].hostType()->size(a[0]); }

Value inHost(Args a, EvalFrame &)
{
    if (a[0].kind() != Kind::String)
        return Value::boolean(false);
    return a[1].hostType()->hasField(a[1], a[0].asString());
}

// Conversions ------------------------------------------------------------------------------

Value identity(Args a, EvalFrame &) { return a[0]; }

Value typeOf(Args a, EvalFrame &) { return Value::type(a[0].typeName()); }

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
Value intFromTimestamp(Args a, EvalFrame &) { return Value::integer(a[0].asTimestamp().seconds); }

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

Value doubleFromInt(Args a, EvalFrame &) { return Value::floating(static_cast<double>(a[0].asInt())); }
Value doubleFromUint(Args a, EvalFrame &) { return Value::floating(static_cast<double>(a[0].asUint())); }
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

Value stringFromInt(Args a, EvalFrame &) { return Value::string(std::to_string(a[0].asInt())); }
Value stringFromUint(Args a, EvalFrame &) { return Value::string(std::to_string(a[0].asUint())); }
Value stringFromDouble(Args a, EvalFrame &) { return Value::string(formatDouble(a[0].asDouble())); }
Value stringFromBool(Args a, EvalFrame &) { return Value::string(a[0].asBool() ? "true" : "false"); }
Value stringFromBytes(Args a, EvalFrame &)
{
    if (!utf8::isValid(a[0].asString()))
        return Value::error("invalid UTF-8 in bytes, cannot convert to string");
    return Value::string(std::string(a[0].asString()));
}
Value stringFromTimestamp(Args a, EvalFrame &) { return Value::string(formatTimestamp(a[0].asTimestamp())); }
Value stringFromDuration(Args a, EvalFrame &) { return Value::string(formatDuration(a[0].asDuration())); }

Value bytesFromString(Args a, EvalFrame &) { return Value::bytes(std::string(a[0].asString())); }

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
        return Value::error("duration('" + std::string(a[0].asString())
                            + "') is not a valid duration in range");
    return Value::duration(*d);
}

} // namespace

void registerStringPredicates(FunctionRegistry &r); // lib_strings.cpp
void registerMatches(FunctionRegistry &r);          // lib_regex.cpp
void registerMacroHelpers(FunctionRegistry &r);     // lib_lists.cpp

void registerStandardLibrary(FunctionRegistry &r)
{
    registerStringPredicates(r);
    registerMatches(r);
    registerMacroHelpers(r);
    const Kind I = Kind::Int, U = Kind::Uint, D = Kind::Double, S = Kind::String,
               B = Kind::Bytes, L = Kind::List, M = Kind::Map, T = Kind::Timestamp,
               Du = Kind::Duration, Bo = Kind::Bool, Y = Kind::Dyn;
    r.global("_+_", {I, I}, addInt);
    r.global("_+_", {U, U}, addUint);
    r.global("_+_", {D, D}, addDouble);
    r.global("_+_", {S, S}, addString);
    r.global("_+_", {B, B}, addString);
    r.global("_+_", {L, L}, addList);
    r.global("_+_", {T, Du}, addTsDur);
    r.global("_+_", {Du, T}, addDurTs);
    r.global("_+_", {Du, Du}, addDurDur);
    r.global("_-_", {I, I}, subInt);
    r.global("_-_", {U, U}, subUint);
    r.global("_-_", {D, D}, subDouble);
    r.global("_-_", {T, T}, subTsTs);
    r.global("_-_", {T, Du}, subTsDur);
    r.global("_-_", {Du, Du}, subDurDur);
    r.global("_*_", {I, I}, mulInt);
    r.global("_*_", {U, U}, mulUint);
    r.global("_*_", {D, D}, mulDouble);
    r.global("_/_", {I, I}, divInt);
    r.global("_/_", {U, U}, divUint);
    r.global("_/_", {D, D}, divDouble);
    r.global("_%_", {I, I}, modInt);
    r.global("_%_", {U, U}, modUint);
    r.global("-_", {I}, negInt);
    r.global("-_", {D}, negDouble);
    r.global("!_", {Bo}, logicalNot);

    r.global("_==_", {Y, Y}, eq);
    r.global("_!=_", {Y, Y}, ne);
    r.global("_<_", {Y, Y}, relational<isLess>);
    r.global("_<=_", {Y, Y}, relational<isLessEqual>);
    r.global("_>_", {Y, Y}, relational<isGreater>);
    r.global("_>=_", {Y, Y}, relational<isGreaterEqual>);
    r.global("@in", {Y, L}, inList);
    r.global("@in", {Y, M}, inMap);
    r.global("@in", {Y, Kind::Host}, inHost);

    for (bool receiver : {false, true}) {
        r.add("size", "size", receiver, {S}, sizeString);
        r.add("size", "size", receiver, {B}, sizeBytes);
        r.add("size", "size", receiver, {L}, sizeList);
        r.add("size", "size", receiver, {M}, sizeMap);
        r.add("size", "size", receiver, {Kind::Host}, sizeHost);
    }

    r.global("type", {Y}, typeOf);
    r.global("dyn", {Y}, identity);
    r.global("int", {I}, identity);
    r.global("int", {U}, intFromUint);
    r.global("int", {D}, intFromDouble);
    r.global("int", {S}, intFromString);
    r.global("int", {T}, intFromTimestamp);
    r.global("uint", {U}, identity);
    r.global("uint", {I}, uintFromInt);
    r.global("uint", {D}, uintFromDouble);
    r.global("uint", {S}, uintFromString);
    r.global("double", {D}, identity);
    r.global("double", {I}, doubleFromInt);
    r.global("double", {U}, doubleFromUint);
    r.global("double", {S}, doubleFromString);
    r.global("string", {S}, identity);
    r.global("string", {I}, stringFromInt);
    r.global("string", {U}, stringFromUint);
    r.global("string", {D}, stringFromDouble);
    r.global("string", {Bo}, stringFromBool);
    r.global("string", {B}, stringFromBytes);
    r.global("string", {T}, stringFromTimestamp);
    r.global("string", {Du}, stringFromDuration);
    r.global("bytes", {B}, identity);
    r.global("bytes", {S}, bytesFromString);
    r.global("bool", {Bo}, identity);
    r.global("bool", {S}, boolFromString);
    r.global("timestamp", {T}, identity);
    r.global("timestamp", {S}, timestampFromString);
    r.global("timestamp", {I}, timestampFromInt);
    r.global("duration", {Du}, identity);
    r.global("duration", {S}, durationFromString);
}

} // namespace dra::cel
