// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/interpreter.h"

#include <array>
#include <cmath>
#include <utility>

namespace dra::cel {

namespace {

// Runtime cost is counted in the same units as cel-go: one per evaluated call and per
// iteration; exceeding the limit turns the evaluation into an error.
constexpr const char *kCostExceeded = "operation cancelled: actual cost limit exceeded";

Value selectFromMap(const MapData &map, std::string_view field, uint64_t hash, bool testOnly)
{
    const Value key = Value::borrowedString(field);
    const Value *found = map.find(key, hash);
    if (testOnly)
        return Value::boolean(found != nullptr);
    if (!found)
        return noSuchKey(key);
    return *found;
}

// `found`, an entry of `container`, as evalRef() answers it: in place, unless the container
// was built for this read (it is in `containerScratch`) and goes when the caller returns.
const Value *entryRef(
    const Value *found, const Value *container, const Value &containerScratch, Value &scratch)
{
    return container == &containerScratch ? &(scratch = *found) : found;
}

// Looks up `index` in a list or map; nullopt when absent (for the optional forms). `hash` is
// hashKey(index) when known ahead.
std::optional<Value> lookup(const Value &container, const Value &index, Value &error,
    std::optional<uint64_t> hash = std::nullopt)
{
    switch (container.kind()) {
    case Kind::List: {
        const ListData &list = container.asList();
        int64_t i = 0;
        if (index.kind() == Kind::Int) {
            i = index.asInt();
        } else if (index.kind() == Kind::Uint) {
            i = index.asUint() > static_cast<uint64_t>(INT64_MAX)
                ? -1
                : static_cast<int64_t>(index.asUint());
        } else if (index.kind() == Kind::Double) {
            const double d = index.asDouble();
            if (d != std::trunc(d) || !(std::fabs(d) < 9.2e18)) {
                error = Value::error("unsupported index value " + index.debugString());
                return std::nullopt;
            }
            i = static_cast<int64_t>(d);
        } else {
            error = noSuchOverload(
                "_[_] on list with index of type " + std::string(index.typeName()));
            return std::nullopt;
        }
        if (i < 0 || static_cast<uint64_t>(i) >= list.size()) {
            error = Value::error("index out of range: " + std::to_string(i));
            return std::nullopt;
        }
        return list[static_cast<size_t>(i)];
    }
    case Kind::Map: {
        if (!isValidMapKey(index) && index.kind() != Kind::Double) {
            error = Value::error("unsupported key type: " + std::string(index.typeName()));
            return std::nullopt;
        }
        const MapData &map = container.asMap();
        if (const Value *found = hash ? map.find(index, *hash) : map.find(index))
            return *found;
        error = noSuchKey(index);
        return std::nullopt;
    }
    case Kind::Host: {
        Value v = container.hostType()->index(container, index);
        if (v.isError()) {
            error = std::move(v);
            return std::nullopt;
        }
        return v;
    }
    default:
        error = noSuchOverload("_[_] applied to " + std::string(container.typeName()));
        return std::nullopt;
    }
}

} // namespace

std::string noMatchingOverloadMessage(std::string_view name, std::span<const Value> args)
{
    std::string msg = "found no matching overload for '" + std::string(name) + "' applied to '(";
    for (size_t i = 0; i < args.size(); ++i) {
        if (i)
            msg += ", ";
        msg += args[i].typeName();
    }
    return msg + ")'";
}

Value VariableNode::eval(EvalFrame &frame) const
{
    if (m_index >= frame.variables.size())
        return Value::error("no value bound for a declared variable");
    return frame.variables[m_index];
}

const Value *VariableNode::evalRef(EvalFrame &frame, Value &scratch) const
{
    if (m_index >= frame.variables.size())
        return &(scratch = Value::error("no value bound for a declared variable"));
    return &frame.variables[m_index];
}

Value WrapperNode::eval(EvalFrame &frame) const
{
    if (!m_value) {
        switch (m_kind) {
        case Kind::Bool:
            return Value::boolean(false);
        case Kind::Bytes:
            return Value::borrowedBytes({});
        case Kind::Double:
            return Value::floating(0);
        case Kind::Int:
            return Value::integer(0);
        case Kind::Uint:
            return Value::unsignedInteger(0);
        case Kind::String:
            return Value::borrowedString({});
        default:
            return Value();
        }
    }
    Value v = m_value->eval(frame);
    if (v.isError())
        return v;
    if (v.kind() != m_kind)
        return Value::error(
            "field 'value' of a wrapper message cannot hold " + std::string(v.typeName()));
    if (m_is32Bit) {
        if ((m_kind == Kind::Int && (v.asInt() < INT32_MIN || v.asInt() > INT32_MAX))
            || (m_kind == Kind::Uint && v.asUint() > UINT32_MAX))
            return Value::error("range error: value does not fit in 32 bits");
    }
    if (m_isFloat)
        return Value::floating(static_cast<float>(v.asDouble()));
    return v;
}

Value SelectNode::eval(EvalFrame &frame) const
{
    Value scratch;
    const Value *v = evalRef(frame, scratch);
    return v == &scratch ? std::move(scratch) : *v;
}

const Value *SelectNode::evalRef(EvalFrame &frame, Value &scratch) const
{
    Value operandScratch;
    const Value *operand = m_operand->evalRef(frame, operandScratch);
    if (operand->kind() == Kind::Map && !m_testOnly) {
        const Value *found = operand->asMap().find(Value::borrowedString(m_field), m_fieldHash);
        if (!found)
            return &(scratch = noSuchKey(Value::borrowedString(m_field)));
        return entryRef(found, operand, operandScratch, scratch);
    }
    return &(scratch = selectOther(*operand));
}

Value SelectNode::selectOther(const Value &operand) const
{
    switch (operand.kind()) {
    case Kind::Error:
        return operand;
    case Kind::Map:
        return selectFromMap(operand.asMap(), m_field, m_fieldHash, m_testOnly);
    case Kind::Host:
        return m_testOnly ? operand.hostType()->hasField(operand, m_field)
                          : operand.hostType()->select(operand, m_field);
    case Kind::Optional: {
        // Selection through an optional stays optional: none, or the field if present.
        if (!operand.hasOptionalValue())
            return m_testOnly ? Value::boolean(false) : operand;
        const Value &inner = operand.optionalValue();
        if (inner.kind() == Kind::Map) {
            const Value *found = inner.asMap().find(Value::borrowedString(m_field), m_fieldHash);
            if (m_testOnly)
                return Value::boolean(found != nullptr);
            return found ? Value::optionalOf(*found) : Value::optionalNone();
        }
        if (inner.kind() == Kind::Host) {
            if (m_testOnly)
                return inner.hostType()->hasField(inner, m_field);
            Value v = inner.hostType()->select(inner, m_field);
            return v.isError() ? Value::optionalNone() : Value::optionalOf(std::move(v));
        }
        return Value::error(
            "type '" + std::string(inner.typeName()) + "' does not support field selection");
    }
    default:
        return Value::error(
            "type '" + std::string(operand.typeName()) + "' does not support field selection");
    }
}

Value IndexNode::eval(EvalFrame &frame) const
{
    Value operand = m_operand->eval(frame);
    if (operand.isError())
        return operand;
    const Value index = m_index->eval(frame);
    if (index.isError())
        return index;
    return indexInto(std::move(operand), index);
}

const Value *IndexNode::evalRef(EvalFrame &frame, Value &scratch) const
{
    // Only a constant index: evaluating any other could reassign the local `operand` is in.
    const Value *index = m_index->constant();
    if (!index || m_optional)
        return &(scratch = eval(frame));
    Value operandScratch;
    const Value *operand = m_operand->evalRef(frame, operandScratch);
    if (operand->isError())
        return operand == &operandScratch ? &(scratch = std::move(operandScratch)) : operand;
    if (operand->kind() == Kind::Map && m_indexHash) {
        if (const Value *found = operand->asMap().find(*index, *m_indexHash))
            return entryRef(found, operand, operandScratch, scratch);
    }
    return &(scratch = indexInto(*operand, *index));
}

Value IndexNode::indexInto(Value operand, const Value &index) const
{
    bool optional = m_optional;
    if (operand.kind() == Kind::Optional) {
        if (!operand.hasOptionalValue())
            return operand;
        operand = Value(operand.optionalValue());
        optional = true;
    }
    Value error;
    std::optional<Value> found = lookup(operand, index, error, m_indexHash);
    if (!optional)
        return found ? std::move(*found) : std::move(error);
    if (found)
        return Value::optionalOf(std::move(*found));
    // Absent keys and indexes become none; a wrong container type stays an error.
    if (operand.kind() == Kind::List || operand.kind() == Kind::Map || operand.kind() == Kind::Host)
        return Value::optionalNone();
    return error;
}

Value LogicNode::eval(EvalFrame &frame) const
{
    const Value a = m_a->eval(frame);
    const bool absorbing = !m_isAnd; // false absorbs &&, true absorbs ||
    if (a.kind() == Kind::Bool && a.asBool() == absorbing)
        return a;
    const Value b = m_b->eval(frame);
    if (b.kind() == Kind::Bool && b.asBool() == absorbing)
        return b;
    if (a.kind() == Kind::Bool && b.kind() == Kind::Bool)
        return a; // both are the non-absorbing value
    if (a.isError())
        return a;
    if (b.isError())
        return b;
    const std::array<Value, 2> args { a, b };
    return Value::error(noMatchingOverloadMessage(m_isAnd ? "_&&_" : "_||_", args));
}

Value NotStrictlyFalseNode::eval(EvalFrame &frame) const
{
    const Value a = m_a->eval(frame);
    return Value::boolean(!(a.kind() == Kind::Bool && !a.asBool()));
}

Value TernaryNode::eval(EvalFrame &frame) const
{
    const Value c = m_c->eval(frame);
    if (c.kind() == Kind::Bool)
        return c.asBool() ? m_a->eval(frame) : m_b->eval(frame);
    if (c.isError())
        return c;
    const std::array<Value, 1> args { c };
    return Value::error(noMatchingOverloadMessage("_?_:_", args));
}

Value OptionalOrNode::eval(EvalFrame &frame) const
{
    if (++frame.cost > frame.costLimit)
        return Value::error(kCostExceeded);
    Value opt = m_optional->eval(frame);
    if (opt.isError())
        return opt;
    if (opt.kind() != Kind::Optional) {
        const std::array<Value, 1> args { opt };
        return Value::error(noMatchingOverloadMessage(m_orValue ? "orValue" : "or", args));
    }
    if (opt.hasOptionalValue())
        return m_orValue ? Value(opt.optionalValue()) : opt;
    Value alternative = m_alternative->eval(frame);
    if (!m_orValue && !alternative.isError() && alternative.kind() != Kind::Optional) {
        const std::array<Value, 2> args { opt, alternative };
        return Value::error(noMatchingOverloadMessage("or", args));
    }
    return alternative;
}

Value CallNode::eval(EvalFrame &frame) const
{
    if (++frame.cost > frame.costLimit)
        return Value::error(kCostExceeded);
    const size_t n = m_args.size();
    if (n <= 4) {
        std::array<Value, 4> args;
        for (size_t i = 0; i < n; ++i) {
            args[i] = m_args[i]->eval(frame);
            if (args[i].isError())
                return args[i];
        }
        return dispatch(std::span<const Value>(args.data(), n), frame);
    }
    std::vector<Value> args(n);
    for (size_t i = 0; i < n; ++i) {
        args[i] = m_args[i]->eval(frame);
        if (args[i].isError())
            return args[i];
    }
    return dispatch(args, frame);
}

Value CallNode::dispatch(std::span<const Value> args, EvalFrame &frame) const
{
    for (const Overload *o : m_candidates) {
        bool match = true;
        for (size_t i = 0; i < args.size(); ++i) {
            if (!o->params[i].accepts(args[i])) {
                match = false;
                break;
            }
        }
        if (match)
            return o->impl(args, frame);
    }
    return Value::error(noMatchingOverloadMessage(m_name, args));
}

namespace {

// The evaluation of an operator against a constant: one call's cost, the operand read in place,
// an operand that is an error returned as it is, else `apply` of the operand.
template <typename Apply>
Value applyToOperand(EvalFrame &frame, const Node &operand, const Apply &apply)
{
    if (++frame.cost > frame.costLimit)
        return Value::error(kCostExceeded);
    Value scratch;
    const Value *v = operand.evalRef(frame, scratch);
    return v->isError() ? *v : apply(*v);
}

} // namespace

Value EqualsConstantNode::eval(EvalFrame &frame) const
{
    return applyToOperand(frame, *m_operand,
        [&](const Value &v) { return Value::boolean(valuesEqual(v, m_constant) != m_negate); });
}

Value MapPathNode::eval(EvalFrame &frame) const
{
    Value scratch;
    const Value *v = evalRef(frame, scratch);
    return v == &scratch ? std::move(scratch) : *v;
}

namespace {

// One step of a path: the entry at `step`'s key of the map `v`, or null. Inlined in each
// unrolled step below, so that each step reads its maps with its own instructions.
[[gnu::always_inline]] inline const Value *pathStep(const Value *v, const MapPathNode::Step &step)
{
    return v->kind() == Kind::Map ? v->asMap().find(step.key, step.hash) : nullptr;
}

// The steps of a path of N steps, unrolled: over thousands of devices built alike, step k of
// every device reads memory at the same distance from the one before, a stride the processor
// prefetches once it sees it from one instruction. A loop would read every step with the same
// instructions and show it no stride at all. Several copies (`Copy`), kept apart from identical
// code folding, give the paths of one program instructions of their own.
template <size_t Copy, size_t... I>
[[gnu::noinline, gnu::no_icf]] const Value *walkUnrolled(
    const Value *v, const MapPathNode::Step *steps, std::index_sequence<I...>)
{
    ((v = pathStep(v, steps[I])) && ...);
    return v;
}

template <size_t Copy, size_t N> const Value *walk(const Value *v, const MapPathNode::Step *steps)
{
    return walkUnrolled<Copy>(v, steps, std::make_index_sequence<N>());
}

const Value *walkLoop(const Value *v, const MapPathNode::Step *steps, size_t count)
{
    for (size_t i = 0; i < count && v; ++i)
        v = pathStep(v, steps[i]);
    return v;
}

using Walk = const Value *(*)(const Value *, const MapPathNode::Step *);

template <size_t Copy>
constexpr std::array<Walk, 3> kWalksOf { walk<Copy, 2>, walk<Copy, 3>, walk<Copy, 4> };
constexpr std::array<std::array<Walk, 3>, MapPathNode::kCodeCopies> kWalks { kWalksOf<0>,
    kWalksOf<1>, kWalksOf<2>, kWalksOf<3> };

} // namespace

MapPathNode::MapPathNode(size_t variable, std::vector<Step> steps, size_t copy, NodePtr generic)
    : m_variable(variable)
    , m_steps(std::move(steps))
    , m_generic(std::move(generic))
{
    if (m_steps.size() >= 2 && m_steps.size() <= 4)
        m_walk = kWalks[copy % kCodeCopies][m_steps.size() - 2];
}

const Value *MapPathNode::evalRef(EvalFrame &frame, Value &scratch) const
{
    if (m_variable >= frame.variables.size())
        return m_generic->evalRef(frame, scratch);
    const Value *v = &frame.variables[m_variable];
    v = m_walk ? m_walk(v, m_steps.data()) : walkLoop(v, m_steps.data(), m_steps.size());
    return v ? v : m_generic->evalRef(frame, scratch);
}

Value CompareConstantNode::eval(EvalFrame &frame) const
{
    return applyToOperand(frame, *m_operand, [&](const Value &v) {
        return m_constantFirst ? orderValues(m_op, m_constant, v)
                               : orderValues(m_op, v, m_constant);
    });
}

Value InConstantListNode::eval(EvalFrame &frame) const
{
    return applyToOperand(frame, *m_operand,
        [&](const Value &v) { return Value::boolean(listContains(m_list.asList(), v)); });
}

Value ListNode::eval(EvalFrame &frame) const
{
    auto list = std::make_shared<ListData>();
    list->reserve(m_elements.size());
    for (size_t i = 0; i < m_elements.size(); ++i) {
        Value v = m_elements[i]->eval(frame);
        if (v.isError())
            return v;
        if (m_optional[i]) {
            if (v.kind() != Kind::Optional)
                return Value::error("optional list element must be an optional value, got "
                    + std::string(v.typeName()));
            if (!v.hasOptionalValue())
                continue;
            list->push_back(v.optionalValue());
            continue;
        }
        list->push_back(std::move(v));
    }
    return Value::list(std::shared_ptr<const ListData>(std::move(list)));
}

Value MapNode::eval(EvalFrame &frame) const
{
    auto map = std::make_shared<MapData>();
    for (size_t i = 0; i < m_keys.size(); ++i) {
        Value k = m_keys[i]->eval(frame);
        if (k.isError())
            return k;
        Value v = m_values[i]->eval(frame);
        if (v.isError())
            return v;
        if (!isValidMapKey(k))
            return Value::error("unsupported key type: " + std::string(k.typeName()));
        if (m_optional[i]) {
            if (v.kind() != Kind::Optional)
                return Value::error("optional map entry must be an optional value, got "
                    + std::string(v.typeName()));
            if (!v.hasOptionalValue())
                continue;
            v = Value(v.optionalValue());
        }
        if (!map->insert(std::move(k), std::move(v)))
            return Value::error(
                "Failed with repeated key: " + m_keys[i]->eval(frame).debugString());
    }
    return Value::map(std::shared_ptr<const MapData>(std::move(map)));
}

Value ComprehensionNode::eval(EvalFrame &frame) const
{
    const Value range = m.range->eval(frame);
    if (range.isError())
        return range;
    Value *locals = frame.locals;
    locals[m.accuSlot] = m.init->eval(frame);
    auto iterate = [&](const Value &first, const Value *second) -> bool {
        if (++frame.cost > frame.costLimit) {
            locals[m.accuSlot] = Value::error(kCostExceeded);
            return false;
        }
        locals[m.iterSlot] = first;
        if (m.iter2Slot >= 0)
            locals[m.iter2Slot] = *second;
        const Value cond = m.condition->eval(frame);
        if (cond.kind() == Kind::Bool && !cond.asBool())
            return false;
        locals[m.accuSlot] = m.step->eval(frame);
        return true;
    };
    if (range.kind() == Kind::List) {
        const ListData &list = range.asList();
        for (size_t i = 0; i < list.size(); ++i) {
            if (m.iter2Slot >= 0) {
                if (!iterate(Value::integer(static_cast<int64_t>(i)), &list[i]))
                    break;
            } else if (!iterate(list[i], nullptr)) {
                break;
            }
        }
    } else if (range.kind() == Kind::Map) {
        const MapData &map = range.asMap();
        for (size_t i = 0; i < map.size(); ++i) {
            if (!iterate(map.keys()[i], &map.values()[i]))
                break;
        }
    } else if (range.kind() == Kind::Host) {
        // Map-like host values (device attribute domains) iterate over their keys in place.
        struct Visitor final : EntryVisitor
        {
            decltype(iterate) &step;
            explicit Visitor(decltype(iterate) &s)
                : step(s)
            {
            }
            bool visit(const Value &key, const Value *value) override { return step(key, value); }
        } visitor(iterate);
        const Value visited = range.hostType()->visitEntries(range, m.iter2Slot >= 0, visitor);
        if (visited.isError())
            return visited;
    } else {
        return Value::error("expression of type '" + std::string(range.typeName())
            + "' cannot be range of a comprehension");
    }
    if (locals[m.accuSlot].isError() && locals[m.accuSlot].asString() == kCostExceeded)
        return locals[m.accuSlot];
    return m.result->eval(frame);
}

Value BlockNode::eval(EvalFrame &frame) const
{
    for (size_t i = 0; i < m_inits.size(); ++i)
        frame.locals[m_firstSlot + static_cast<int>(i)] = m_inits[i]->eval(frame);
    return m_body->eval(frame);
}

} // namespace dra::cel
