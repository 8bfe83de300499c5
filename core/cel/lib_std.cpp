// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// CEL's standard definitions: operators, comparisons, size and membership.

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

Value timestampOrRange(Int128 nanos)
{
    const auto t = timestampFromNanos(nanos);
    return t ? Value::timestamp(*t) : Value::error("timestamp out of range");
}

std::optional<int> compareValues(const Value &a, const Value &b)
{
    if (a.isNumber() && b.isNumber())
        return compareNumbers(a, b);
    if (a.kind() != b.kind())
        return std::nullopt;
    auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
    switch (a.kind()) {
    case Kind::Bool:
        return cmp(a.asBool(), b.asBool());
    case Kind::String:
    case Kind::Bytes:
        return cmp(a.asString().compare(b.asString()), 0);
    case Kind::Timestamp:
    case Kind::Duration:
        return cmp(toNanos(a.asTimestamp()), toNanos(b.asTimestamp()));
    default:
        return std::nullopt;
    }
}

bool listContains(const ListData &list, const Value &v)
{
    return std::any_of(
        list.begin(), list.end(), [&](const Value &element) { return valuesEqual(element, v); });
}

Value orderValues(Ordering op, const Value &a, const Value &b)
{
    const std::optional<int> c = compareValues(a, b);
    if (!c)
        return noSuchOverload("relational operator on " + std::string(a.typeName()) + " and "
            + std::string(b.typeName()));
    switch (op) {
    case Ordering::Less:
        return Value::boolean(*c == -1);
    case Ordering::LessEqual:
        return Value::boolean(*c == -1 || *c == 0);
    case Ordering::Greater:
        return Value::boolean(*c == 1);
    case Ordering::GreaterEqual:
        return Value::boolean(*c == 1 || *c == 0);
    }
    return Value::boolean(false);
}

namespace {

using Args = std::span<const Value>;

Value fromOpt(std::optional<int64_t> v)
{
    return v ? Value::integer(*v) : overflowError();
}

// Arithmetic -------------------------------------------------------------------------------

Value addInt(Args a, EvalFrame &)
{
    return fromOpt(checkedAdd(a[0].asInt(), a[1].asInt()));
}
Value subInt(Args a, EvalFrame &)
{
    return fromOpt(checkedSub(a[0].asInt(), a[1].asInt()));
}
Value mulInt(Args a, EvalFrame &)
{
    return fromOpt(checkedMul(a[0].asInt(), a[1].asInt()));
}
Value divInt(Args a, EvalFrame &)
{
    if (a[1].asInt() == 0)
        return divisionByZero();
    if (a[0].asInt() == INT64_MIN && a[1].asInt() == -1)
        return overflowError();
    return Value::integer(a[0].asInt() / a[1].asInt());
}
Value modInt(Args a, EvalFrame &)
{
    if (a[1].asInt() == 0)
        return moduloByZero();
    if (a[0].asInt() == INT64_MIN && a[1].asInt() == -1)
        return overflowError();
    return Value::integer(a[0].asInt() % a[1].asInt());
}
Value negInt(Args a, EvalFrame &)
{
    if (a[0].asInt() == INT64_MIN)
        return overflowError();
    return Value::integer(-a[0].asInt());
}

Value addUint(Args a, EvalFrame &)
{
    uint64_t r;
    if (__builtin_add_overflow(a[0].asUint(), a[1].asUint(), &r))
        return overflowError();
    return Value::unsignedInteger(r);
}
Value subUint(Args a, EvalFrame &)
{
    uint64_t r;
    if (__builtin_sub_overflow(a[0].asUint(), a[1].asUint(), &r))
        return overflowError();
    return Value::unsignedInteger(r);
}
Value mulUint(Args a, EvalFrame &)
{
    uint64_t r;
    if (__builtin_mul_overflow(a[0].asUint(), a[1].asUint(), &r))
        return overflowError();
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

Value addDouble(Args a, EvalFrame &)
{
    return Value::floating(a[0].asDouble() + a[1].asDouble());
}
Value subDouble(Args a, EvalFrame &)
{
    return Value::floating(a[0].asDouble() - a[1].asDouble());
}
Value mulDouble(Args a, EvalFrame &)
{
    return Value::floating(a[0].asDouble() * a[1].asDouble());
}
Value divDouble(Args a, EvalFrame &)
{
    return Value::floating(a[0].asDouble() / a[1].asDouble());
}
Value negDouble(Args a, EvalFrame &)
{
    return Value::floating(-a[0].asDouble());
}

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

Value eq(Args a, EvalFrame &)
{
    return Value::boolean(valuesEqual(a[0], a[1]));
}
Value ne(Args a, EvalFrame &)
{
    return Value::boolean(!valuesEqual(a[0], a[1]));
}

template <Ordering Op> Value relational(Args a, EvalFrame &)
{
    return orderValues(Op, a[0], a[1]);
}

Value logicalNot(Args a, EvalFrame &)
{
    return Value::boolean(!a[0].asBool());
}

Value inList(Args a, EvalFrame &)
{
    return Value::boolean(listContains(a[1].asList(), a[0]));
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
Value sizeBytes(Args a, EvalFrame &)
{
    return Value::integer(static_cast<int64_t>(a[0].asString().size()));
}
Value sizeList(Args a, EvalFrame &)
{
    return Value::integer(static_cast<int64_t>(a[0].asList().size()));
}
Value sizeMap(Args a, EvalFrame &)
{
    return Value::integer(static_cast<int64_t>(a[0].asMap().size()));
}
Value sizeHost(Args a, EvalFrame &)
{
    return a[0].hostType()->size(a[0]);
}

Value inHost(Args a, EvalFrame &)
{
    return a[1].hostType()->contains(a[1], a[0]);
}

} // namespace

void registerStringPredicates(FunctionRegistry &r); // lib_strings.cpp
void registerMatches(FunctionRegistry &r); // lib_regex.cpp
void registerMacroHelpers(FunctionRegistry &r); // lib_lists.cpp
void registerConversions(FunctionRegistry &r); // lib_conversions.cpp

void registerStandardLibrary(FunctionRegistry &r)
{
    registerStringPredicates(r);
    registerMatches(r);
    registerMacroHelpers(r);
    const Kind I = Kind::Int, U = Kind::Uint, D = Kind::Double, S = Kind::String, B = Kind::Bytes,
               L = Kind::List, M = Kind::Map, T = Kind::Timestamp, Du = Kind::Duration,
               Bo = Kind::Bool, Y = Kind::Dyn;
    r.global("_+_", { I, I }, addInt);
    r.global("_+_", { U, U }, addUint);
    r.global("_+_", { D, D }, addDouble);
    r.global("_+_", { S, S }, addString);
    r.global("_+_", { B, B }, addString);
    r.global("_+_", { L, L }, addList);
    r.global("_+_", { T, Du }, addTsDur);
    r.global("_+_", { Du, T }, addDurTs);
    r.global("_+_", { Du, Du }, addDurDur);
    r.global("_-_", { I, I }, subInt);
    r.global("_-_", { U, U }, subUint);
    r.global("_-_", { D, D }, subDouble);
    r.global("_-_", { T, T }, subTsTs);
    r.global("_-_", { T, Du }, subTsDur);
    r.global("_-_", { Du, Du }, subDurDur);
    r.global("_*_", { I, I }, mulInt);
    r.global("_*_", { U, U }, mulUint);
    r.global("_*_", { D, D }, mulDouble);
    r.global("_/_", { I, I }, divInt);
    r.global("_/_", { U, U }, divUint);
    r.global("_/_", { D, D }, divDouble);
    r.global("_%_", { I, I }, modInt);
    r.global("_%_", { U, U }, modUint);
    r.global("-_", { I }, negInt);
    r.global("-_", { D }, negDouble);
    r.global("!_", { Bo }, logicalNot);

    r.global("_==_", { Y, Y }, eq);
    r.global("_!=_", { Y, Y }, ne);
    r.global("_<_", { Y, Y }, relational<Ordering::Less>);
    r.global("_<=_", { Y, Y }, relational<Ordering::LessEqual>);
    r.global("_>_", { Y, Y }, relational<Ordering::Greater>);
    r.global("_>=_", { Y, Y }, relational<Ordering::GreaterEqual>);
    r.global("@in", { Y, L }, inList);
    r.global("@in", { Y, M }, inMap);
    r.global("@in", { Y, Kind::Host }, inHost);

    for (bool receiver : { false, true }) {
        r.add("size", "size", receiver, { S }, sizeString);
        r.add("size", "size", receiver, { B }, sizeBytes);
        r.add("size", "size", receiver, { L }, sizeList);
        r.add("size", "size", receiver, { M }, sizeMap);
        r.add("size", "size", receiver, { Kind::Host }, sizeHost);
    }

    registerConversions(r);
}

} // namespace dra::cel
