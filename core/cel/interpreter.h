// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

// The node types of compiled programs. Internal to the module: built by the planner.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cel/env.h"
#include "core/cel/lib_common.h"
#include "core/cel/program.h"

namespace dra::cel {

using NodePtr = std::unique_ptr<Node>;

// A literal or a folded constant.
class ConstNode final : public Node
{
public:
    explicit ConstNode(Value v)
        : m_value(std::move(v))
    {
    }
    Value eval(EvalFrame &) const override { return m_value; }
    const Value *evalRef(EvalFrame &, Value &) const override { return &m_value; }
    const Value *constant() const override { return &m_value; }

private:
    Value m_value;
};

// A declared variable, by index into the evaluation's variables.
class VariableNode final : public Node
{
public:
    explicit VariableNode(size_t index)
        : m_index(index)
    {
    }
    Value eval(EvalFrame &frame) const override;
    const Value *evalRef(EvalFrame &frame, Value &scratch) const override;
    size_t index() const { return m_index; }

private:
    size_t m_index;
};

// A comprehension variable, accumulator or block slot.
class LocalNode final : public Node
{
public:
    explicit LocalNode(int slot)
        : m_slot(slot)
    {
    }
    Value eval(EvalFrame &frame) const override { return frame.locals[m_slot]; }
    const Value *evalRef(EvalFrame &frame, Value &) const override { return &frame.locals[m_slot]; }

private:
    int m_slot;
};

// Always the same error value (e.g. constructing a message type we do not know).
class ErrorNode final : public Node
{
public:
    explicit ErrorNode(std::string message)
        : m_message(std::move(message))
    {
    }
    Value eval(EvalFrame &) const override { return Value::error(m_message); }

private:
    std::string m_message;
};

// A protobuf wrapper message (google.protobuf.Int32Value{value: 1}), which CEL sees as the
// primitive it wraps; an absent value is the zero value.
class WrapperNode final : public Node
{
public:
    WrapperNode(Kind kind, bool is32Bit, bool isFloat, NodePtr value)
        : m_kind(kind)
        , m_is32Bit(is32Bit)
        , m_isFloat(isFloat)
        , m_value(std::move(value))
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    Kind m_kind;
    bool m_is32Bit;
    bool m_isFloat;
    NodePtr m_value;
};

// `a.f` and `has(a.f)`.
class SelectNode final : public Node
{
public:
    SelectNode(NodePtr operand, std::string field, bool testOnly)
        : m_operand(std::move(operand))
        , m_field(std::move(field))
        , m_fieldHash(hashKey(Value::borrowedString(m_field)))
        , m_testOnly(testOnly)
    {
    }
    Value eval(EvalFrame &frame) const override;
    const Value *evalRef(EvalFrame &frame, Value &scratch) const override;
    const Node &operand() const { return *m_operand; }
    std::string_view field() const { return m_field; }
    bool testOnly() const { return m_testOnly; }

private:
    // The field of an operand that is not a map.
    Value selectOther(const Value &operand) const;

    NodePtr m_operand;
    std::string m_field;
    uint64_t m_fieldHash; // of m_field as a map key
    bool m_testOnly;
};

// `a[i]`, and with `optional` the `a[?i]` / `a.?f` forms returning optionals.
class IndexNode final : public Node
{
public:
    IndexNode(NodePtr operand, NodePtr index, bool optional)
        : m_operand(std::move(operand))
        , m_index(std::move(index))
        , m_optional(optional)
    {
        if (const Value *key = m_index->constant(); key && isValidMapKey(*key))
            m_indexHash = hashKey(*key);
    }
    Value eval(EvalFrame &frame) const override;
    const Value *evalRef(EvalFrame &frame, Value &scratch) const override;
    const Node &operand() const { return *m_operand; }
    // The index when it is a constant map key, with its hash.
    const Value *constantKey() const { return m_indexHash ? m_index->constant() : nullptr; }
    uint64_t constantKeyHash() const { return m_indexHash.value_or(0); }
    bool optional() const { return m_optional; }

private:
    // `operand[index]` once both are evaluated without error.
    Value indexInto(Value operand, const Value &index) const;

    NodePtr m_operand;
    NodePtr m_index;
    std::optional<uint64_t> m_indexHash; // of a constant index, as a map key
    bool m_optional;
};

// `a && b` and `a || b` with CEL's commutative error absorption.
class LogicNode final : public Node
{
public:
    LogicNode(NodePtr a, NodePtr b, bool isAnd)
        : m_a(std::move(a))
        , m_b(std::move(b))
        , m_isAnd(isAnd)
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    NodePtr m_a;
    NodePtr m_b;
    bool m_isAnd;
};

// `@not_strictly_false(x)`: true unless x is false; used by the all/exists loop conditions.
class NotStrictlyFalseNode final : public Node
{
public:
    explicit NotStrictlyFalseNode(NodePtr a)
        : m_a(std::move(a))
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    NodePtr m_a;
};

// `c ? a : b`.
class TernaryNode final : public Node
{
public:
    TernaryNode(NodePtr c, NodePtr a, NodePtr b)
        : m_c(std::move(c))
        , m_a(std::move(a))
        , m_b(std::move(b))
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    NodePtr m_c;
    NodePtr m_a;
    NodePtr m_b;
};

// `opt.or(alt)` and `opt.orValue(alt)`: the alternative is evaluated only when `opt` is none,
// as in cel-go, so `x.?a.orValue(1 / 0)` is fine when `a` is present.
class OptionalOrNode final : public Node
{
public:
    OptionalOrNode(NodePtr optional, NodePtr alternative, bool orValue)
        : m_optional(std::move(optional))
        , m_alternative(std::move(alternative))
        , m_orValue(orValue)
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    NodePtr m_optional;
    NodePtr m_alternative;
    bool m_orValue;
};

// A strict function call dispatched on the runtime kinds of its arguments.
class CallNode final : public Node
{
public:
    CallNode(std::string name, std::vector<const Overload *> candidates, std::vector<NodePtr> args)
        : m_name(std::move(name))
        , m_candidates(std::move(candidates))
        , m_args(std::move(args))
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    Value dispatch(std::span<const Value> args, EvalFrame &frame) const;

    std::string m_name;
    std::vector<const Overload *> m_candidates;
    std::vector<NodePtr> m_args;
};

// `x == c` and `x != c` with a constant `c`: the standard equality without copying the
// constant into an argument list per evaluation. Same cost and error rules as the call.
class EqualsConstantNode final : public Node
{
public:
    EqualsConstantNode(NodePtr operand, Value constant, bool negate)
        : m_operand(std::move(operand))
        , m_constant(std::move(constant))
        , m_negate(negate)
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    NodePtr m_operand;
    Value m_constant;
    bool m_negate;
};

// A path of constant keys through maps from a variable, `device.attributes["d"].name`, read
// in one go: each step is a lookup in the shape of the map before it, with no node to call and
// no scratch value per step, and each step of a short path is read by instructions of its own
// (see walkUnrolled()). Anything else on the way (a missing key, a value that is not a map, an
// unbound variable) is left to `generic`, the same path planned node by node, which gives the
// answer and the error the language defines.
class MapPathNode final : public Node
{
public:
    struct Step
    {
        Value key; // a string, int, uint or bool
        uint64_t hash; // hashKey(key)
    };

    // Copies of the code that walks a path (see the .cpp): the paths of a program take them in
    // turn, `copy` being the path's number in its program.
    static constexpr size_t kCodeCopies = 4;

    MapPathNode(size_t variable, std::vector<Step> steps, size_t copy, NodePtr generic);
    Value eval(EvalFrame &frame) const override;
    const Value *evalRef(EvalFrame &frame, Value &scratch) const override;
    size_t variable() const { return m_variable; }
    const std::vector<Step> &steps() const { return m_steps; }

private:
    size_t m_variable;
    std::vector<Step> m_steps;
    NodePtr m_generic;
    // The unrolled walk for this many steps, or null for the loop.
    const Value *(*m_walk)(const Value *, const Step *) = nullptr;
};

// `x < c`, `c >= x` and the other orderings with a constant `c`: the standard library's
// relational operators without an argument list built and dispatched per evaluation, so a
// selector such as `device.capacity["d"].memory >= 42949672960` reads its path in place. Same
// cost and error rules as the call.
class CompareConstantNode final : public Node
{
public:
    CompareConstantNode(NodePtr operand, Value constant, Ordering op, bool constantFirst)
        : m_operand(std::move(operand))
        , m_constant(std::move(constant))
        , m_op(op)
        , m_constantFirst(constantFirst)
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    NodePtr m_operand;
    Value m_constant;
    Ordering m_op;
    bool m_constantFirst; // `c < x` rather than `x < c`
};

// `x in [a, b]` with a constant list: the standard list membership (CEL equality against each
// element) with `x` read in place. Same cost and error rules as the call.
class InConstantListNode final : public Node
{
public:
    InConstantListNode(NodePtr operand, Value list)
        : m_operand(std::move(operand))
        , m_list(std::move(list))
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    NodePtr m_operand;
    Value m_list;
};

// `[a, ?b, c]`.
class ListNode final : public Node
{
public:
    ListNode(std::vector<NodePtr> elements, std::vector<bool> optional)
        : m_elements(std::move(elements))
        , m_optional(std::move(optional))
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    std::vector<NodePtr> m_elements;
    std::vector<bool> m_optional;
};

// `{k: v, ?k2: v2}`.
class MapNode final : public Node
{
public:
    MapNode(std::vector<NodePtr> keys, std::vector<NodePtr> values, std::vector<bool> optional)
        : m_keys(std::move(keys))
        , m_values(std::move(values))
        , m_optional(std::move(optional))
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    std::vector<NodePtr> m_keys;
    std::vector<NodePtr> m_values;
    std::vector<bool> m_optional;
};

// The fold behind every comprehension macro.
class ComprehensionNode final : public Node
{
public:
    struct Parts
    {
        int iterSlot = -1;
        int iter2Slot = -1; // two-variable form
        int accuSlot = -1;
        NodePtr range;
        NodePtr init;
        NodePtr condition;
        NodePtr step;
        NodePtr result;
    };
    explicit ComprehensionNode(Parts parts)
        : m(std::move(parts))
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    Parts m;
};

// `cel.block([e0, e1, ...], body)`: slot i holds e_i, visible to later slots and the body.
class BlockNode final : public Node
{
public:
    BlockNode(int firstSlot, std::vector<NodePtr> inits, NodePtr body)
        : m_firstSlot(firstSlot)
        , m_inits(std::move(inits))
        , m_body(std::move(body))
    {
    }
    Value eval(EvalFrame &frame) const override;

private:
    int m_firstSlot;
    std::vector<NodePtr> m_inits;
    NodePtr m_body;
};

// The message of a "no matching overload" error for `name` applied to `args`.
std::string noMatchingOverloadMessage(std::string_view name, std::span<const Value> args);

} // namespace dra::cel
