// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Kubernetes' quantity library: quantity(), isQuantity() and the Quantity methods, with the
// semantics of k8s.io/apiserver/pkg/cel/library (exact arithmetic, semantic equality).

#include "core/cel/env.h"
#include "core/cel/kubernetes_types.h"
#include "core/cel/program.h"

namespace dra::cel {

namespace {

using Args = std::span<const Value>;
using model::Quantity;

class QuantityType final : public HostType
{
public:
    std::string_view typeName() const override { return "kubernetes.Quantity"; }
    bool equals(const Value &self, const Value &other) const override
    {
        return get(self).compare(get(other)) == 0;
    }
    std::string debugString(const Value &self) const override
    {
        return "quantity(\"" + get(self).toString() + "\")";
    }
    static const Quantity &get(const Value &v)
    {
        return *static_cast<const Quantity *>(v.hostData());
    }
};

const QuantityType kQuantityType;

const Quantity &q(const Value &v)
{
    return QuantityType::get(v);
}

Value parseQuantity(Args a, EvalFrame &)
{
    Result<Quantity> parsed = Quantity::parse(a[0].asString());
    if (!parsed)
        return Value::error("quantities must match the regular expression "
                            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    return quantityValue(*parsed);
}

Value isQuantity(Args a, EvalFrame &)
{
    return Value::boolean(Quantity::parse(a[0].asString()).has_value());
}

Value sign(Args a, EvalFrame &)
{
    return Value::integer(q(a[0]).sign());
}
Value isInteger(Args a, EvalFrame &)
{
    return Value::boolean(q(a[0]).isInteger());
}

Value asInteger(Args a, EvalFrame &)
{
    const std::optional<int64_t> i = q(a[0]).asInt64();
    if (!i)
        return Value::error("cannot convert value to integer");
    return Value::integer(*i);
}

Value asApproximateFloat(Args a, EvalFrame &)
{
    return Value::floating(q(a[0]).asApproximateDouble());
}

Value quantityCompareTo(Args a, EvalFrame &)
{
    return Value::integer(q(a[0]).compare(q(a[1])));
}
Value quantityIsGreaterThan(Args a, EvalFrame &)
{
    return Value::boolean(q(a[0]).compare(q(a[1])) > 0);
}
Value quantityIsLessThan(Args a, EvalFrame &)
{
    return Value::boolean(q(a[0]).compare(q(a[1])) < 0);
}

Quantity operand(const Value &v)
{
    return v.kind() == Kind::Int ? Quantity::fromInt64(v.asInt()) : q(v);
}

Value add(Args a, EvalFrame &)
{
    Result<Quantity> r = q(a[0]).add(operand(a[1]));
    if (!r)
        return Value::error("quantity addition overflows: " + r.error().message.toStdString());
    return quantityValue(*r);
}

Value sub(Args a, EvalFrame &)
{
    Result<Quantity> r = q(a[0]).sub(operand(a[1]));
    if (!r)
        return Value::error("quantity subtraction overflows: " + r.error().message.toStdString());
    return quantityValue(*r);
}

} // namespace

const HostType *quantityType()
{
    return &kQuantityType;
}

Value borrowedQuantityValue(const Quantity &quantity)
{
    return Value::host(&kQuantityType, &quantity);
}

Value quantityValue(Quantity quantity)
{
    auto owned = std::make_shared<const Quantity>(std::move(quantity));
    const Quantity *raw = owned.get();
    return Value::host(&kQuantityType, raw, {}, std::move(owned));
}

void registerQuantityLibrary(FunctionRegistry &r)
{
    const ParamSpec Q(&kQuantityType);
    const Kind S = Kind::String, I = Kind::Int;
    r.global("quantity", { S }, parseQuantity);
    r.global("isQuantity", { S }, isQuantity);
    r.member("sign", { Q }, sign);
    r.member("isInteger", { Q }, isInteger);
    r.member("asInteger", { Q }, asInteger);
    r.member("asApproximateFloat", { Q }, asApproximateFloat);
    r.member("compareTo", { Q, Q }, quantityCompareTo);
    r.member("isGreaterThan", { Q, Q }, quantityIsGreaterThan);
    r.member("isLessThan", { Q, Q }, quantityIsLessThan);
    r.member("add", { Q, Q }, add);
    r.member("add", { Q, I }, add);
    r.member("sub", { Q, Q }, sub);
    r.member("sub", { Q, I }, sub);
}

} // namespace dra::cel
