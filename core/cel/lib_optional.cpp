// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Optional values: optional.of/none/ofNonZeroValue, hasValue, value, or, orValue, unwrap.

#include "core/cel/env.h"
#include "core/cel/program.h"

namespace dra::cel {

namespace {

using Args = std::span<const Value>;

bool isZeroValue(const Value &v)
{
    switch (v.kind()) {
    case Kind::Null:
        return true;
    case Kind::Bool:
        return !v.asBool();
    case Kind::Int:
        return v.asInt() == 0;
    case Kind::Uint:
        return v.asUint() == 0;
    case Kind::Double:
        return v.asDouble() == 0;
    case Kind::String:
    case Kind::Bytes:
        return v.asString().empty();
    case Kind::List:
        return v.asList().empty();
    case Kind::Map:
        return v.asMap().size() == 0;
    case Kind::Duration:
    case Kind::Timestamp:
        return v.asTimestamp().seconds == 0 && v.asTimestamp().nanos == 0;
    case Kind::Optional:
        return !v.hasOptionalValue();
    default:
        return false;
    }
}

Value of(Args a, EvalFrame &)
{
    return Value::optionalOf(a[0]);
}
Value none(Args, EvalFrame &)
{
    return Value::optionalNone();
}
Value ofNonZero(Args a, EvalFrame &)
{
    return isZeroValue(a[0]) ? Value::optionalNone() : Value::optionalOf(a[0]);
}
Value hasValue(Args a, EvalFrame &)
{
    return Value::boolean(a[0].hasOptionalValue());
}
Value value(Args a, EvalFrame &)
{
    if (!a[0].hasOptionalValue())
        return Value::error("optional.none() dereference");
    return a[0].optionalValue();
}
Value orOptional(Args a, EvalFrame &)
{
    return a[0].hasOptionalValue() ? a[0] : a[1];
}
Value orValue(Args a, EvalFrame &)
{
    return a[0].hasOptionalValue() ? a[0].optionalValue() : a[1];
}

Value unwrap(Args a, EvalFrame &)
{
    std::vector<Value> out;
    for (const Value &e : a[0].asList()) {
        if (e.kind() != Kind::Optional)
            return noSuchOverload(
                "optional.unwrap on a list containing " + std::string(e.typeName()));
        if (e.hasOptionalValue())
            out.push_back(e.optionalValue());
    }
    return Value::list(std::move(out));
}

} // namespace

void registerOptionalLibrary(FunctionRegistry &r)
{
    const Kind O = Kind::Optional, Y = Kind::Dyn, L = Kind::List;
    r.global("optional.of", { Y }, of);
    r.global("optional.none", {}, none);
    r.global("optional.ofNonZeroValue", { Y }, ofNonZero);
    r.member("hasValue", { O }, hasValue);
    r.member("value", { O }, value);
    r.member("or", { O, O }, orOptional);
    r.member("orValue", { O, Y }, orValue);
    r.global("optional.unwrap", { L }, unwrap);
    r.member("unwrapOpt", { L }, unwrap);
}

} // namespace dra::cel
