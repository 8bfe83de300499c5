// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The math extension: greatest/least, rounding, abs/sign, NaN tests and bit operations.

#include <cmath>

#include "core/cel/env.h"
#include "core/cel/lib_common.h"
#include "core/cel/program.h"

namespace dra::cel {

namespace {

using Args = std::span<const Value>;

template <bool Greatest> Value mathExtremum(Args a, EvalFrame &)
{
    std::span<const Value> values = a;
    if (a.size() == 1 && a[0].kind() == Kind::List) {
        values = a[0].asList();
        if (values.empty())
            return Value::error(std::string(Greatest ? "math.greatest" : "math.least")
                + "(list) argument must not be empty");
    }
    const Value *best = nullptr;
    for (const Value &v : values) {
        if (!v.isNumber())
            return noSuchOverload(std::string(Greatest ? "math.greatest" : "math.least") + " on "
                + std::string(v.typeName()));
        if (!best) {
            best = &v;
            continue;
        }
        const int c = compareNumbers(v, *best);
        if (c == 2) {
            // NaN wins, as in cel-go, so that the result flags the bad input.
            if (v.kind() == Kind::Double && std::isnan(v.asDouble()))
                best = &v;
            continue;
        }
        if (Greatest ? c > 0 : c < 0)
            best = &v;
    }
    return *best;
}

Value ceilF(Args a, EvalFrame &)
{
    return Value::floating(std::ceil(a[0].asDouble()));
}
Value floorF(Args a, EvalFrame &)
{
    return Value::floating(std::floor(a[0].asDouble()));
}
Value roundF(Args a, EvalFrame &)
{
    return Value::floating(std::round(a[0].asDouble()));
}
Value truncF(Args a, EvalFrame &)
{
    return Value::floating(std::trunc(a[0].asDouble()));
}
Value sqrtF(Args a, EvalFrame &)
{
    return Value::floating(std::sqrt(a[0].asDouble()));
}
Value sqrtI(Args a, EvalFrame &)
{
    return Value::floating(std::sqrt(static_cast<double>(a[0].asInt())));
}
Value sqrtU(Args a, EvalFrame &)
{
    return Value::floating(std::sqrt(static_cast<double>(a[0].asUint())));
}
Value isNaN(Args a, EvalFrame &)
{
    return Value::boolean(std::isnan(a[0].asDouble()));
}
Value isInf(Args a, EvalFrame &)
{
    return Value::boolean(std::isinf(a[0].asDouble()));
}
Value isFinite(Args a, EvalFrame &)
{
    return Value::boolean(std::isfinite(a[0].asDouble()));
}

Value absI(Args a, EvalFrame &)
{
    if (a[0].asInt() == INT64_MIN)
        return Value::error("integer overflow in math.abs");
    return Value::integer(a[0].asInt() < 0 ? -a[0].asInt() : a[0].asInt());
}
Value absU(Args a, EvalFrame &)
{
    return a[0];
}
Value absD(Args a, EvalFrame &)
{
    return Value::floating(std::fabs(a[0].asDouble()));
}

Value signI(Args a, EvalFrame &)
{
    return Value::integer((a[0].asInt() > 0) - (a[0].asInt() < 0));
}
Value signU(Args a, EvalFrame &)
{
    return Value::unsignedInteger(a[0].asUint() > 0 ? 1 : 0);
}
Value signD(Args a, EvalFrame &)
{
    const double d = a[0].asDouble();
    if (std::isnan(d) || d == 0)
        return a[0];
    return Value::floating(d > 0 ? 1.0 : -1.0);
}

Value bitAndI(Args a, EvalFrame &)
{
    return Value::integer(a[0].asInt() & a[1].asInt());
}
Value bitAndU(Args a, EvalFrame &)
{
    return Value::unsignedInteger(a[0].asUint() & a[1].asUint());
}
Value bitOrI(Args a, EvalFrame &)
{
    return Value::integer(a[0].asInt() | a[1].asInt());
}
Value bitOrU(Args a, EvalFrame &)
{
    return Value::unsignedInteger(a[0].asUint() | a[1].asUint());
}
Value bitXorI(Args a, EvalFrame &)
{
    return Value::integer(a[0].asInt() ^ a[1].asInt());
}
Value bitXorU(Args a, EvalFrame &)
{
    return Value::unsignedInteger(a[0].asUint() ^ a[1].asUint());
}
Value bitNotI(Args a, EvalFrame &)
{
    return Value::integer(~a[0].asInt());
}
Value bitNotU(Args a, EvalFrame &)
{
    return Value::unsignedInteger(~a[0].asUint());
}

template <bool Left> Value shift(Args a, EvalFrame &)
{
    const int64_t n = a[1].asInt();
    if (n < 0)
        return Value::error("math.bitShift" + std::string(Left ? "Left" : "Right")
            + "() negative offset: " + std::to_string(n));
    const uint64_t bits
        = a[0].kind() == Kind::Int ? static_cast<uint64_t>(a[0].asInt()) : a[0].asUint();
    // Shifts of 64 or more clear every bit; right shifts of ints are logical, as in cel-go.
    const uint64_t r = n >= 64 ? 0 : (Left ? bits << n : bits >> n);
    return a[0].kind() == Kind::Int ? Value::integer(static_cast<int64_t>(r))
                                    : Value::unsignedInteger(r);
}

} // namespace

void registerMathLibrary(FunctionRegistry &r)
{
    const Kind I = Kind::Int, U = Kind::Uint, D = Kind::Double, Y = Kind::Dyn;
    for (size_t n = 1; n <= 16; ++n) {
        r.global("math.greatest", std::vector<ParamSpec>(n, Y), mathExtremum<true>);
        r.global("math.least", std::vector<ParamSpec>(n, Y), mathExtremum<false>);
    }
    r.global("math.ceil", { D }, ceilF);
    r.global("math.floor", { D }, floorF);
    r.global("math.round", { D }, roundF);
    r.global("math.trunc", { D }, truncF);
    r.global("math.sqrt", { D }, sqrtF);
    r.global("math.sqrt", { I }, sqrtI);
    r.global("math.sqrt", { U }, sqrtU);
    r.global("math.isNaN", { D }, isNaN);
    r.global("math.isInf", { D }, isInf);
    r.global("math.isFinite", { D }, isFinite);
    r.global("math.abs", { I }, absI);
    r.global("math.abs", { U }, absU);
    r.global("math.abs", { D }, absD);
    r.global("math.sign", { I }, signI);
    r.global("math.sign", { U }, signU);
    r.global("math.sign", { D }, signD);
    r.global("math.bitAnd", { I, I }, bitAndI);
    r.global("math.bitAnd", { U, U }, bitAndU);
    r.global("math.bitOr", { I, I }, bitOrI);
    r.global("math.bitOr", { U, U }, bitOrU);
    r.global("math.bitXor", { I, I }, bitXorI);
    r.global("math.bitXor", { U, U }, bitXorU);
    r.global("math.bitNot", { I }, bitNotI);
    r.global("math.bitNot", { U }, bitNotU);
    r.global("math.bitShiftLeft", { I, I }, shift<true>);
    r.global("math.bitShiftLeft", { U, I }, shift<true>);
    r.global("math.bitShiftRight", { I, I }, shift<false>);
    r.global("math.bitShiftRight", { U, I }, shift<false>);
}

} // namespace dra::cel
