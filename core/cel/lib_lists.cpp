// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The lists extension (lists.range, distinct, flatten, reverse, slice, sort, first, last) and
// Kubernetes'
// list functions (isSorted, sum, min, max, indexOf, lastIndexOf).

#include <algorithm>

#include "core/cel/env.h"
#include "core/cel/lib_common.h"
#include "core/cel/program.h"

namespace dra::cel {

namespace {

using Args = std::span<const Value>;

Value range(Args a, EvalFrame &frame)
{
    // Each element costs one unit, checked before anything is allocated.
    const int64_t n = std::max<int64_t>(a[0].asInt(), 0);
    if (static_cast<uint64_t>(n) > frame.costLimit - std::min(frame.cost, frame.costLimit)
        || n > 100000000)
        return Value::error("operation cancelled: actual cost limit exceeded");
    frame.cost += static_cast<uint64_t>(n);
    std::vector<Value> out;
    out.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < a[0].asInt(); ++i)
        out.push_back(Value::integer(i));
    return Value::list(std::move(out));
}

Value distinct(Args a, EvalFrame &)
{
    std::vector<Value> out;
    for (const Value &e : a[0].asList()) {
        if (std::none_of(out.begin(), out.end(), [&](const Value &o) { return valuesEqual(o, e); }))
            out.push_back(e);
    }
    return Value::list(std::move(out));
}

void flattenInto(const ListData &list, int64_t depth, std::vector<Value> &out)
{
    for (const Value &e : list) {
        if (e.kind() == Kind::List && depth > 0)
            flattenInto(e.asList(), depth - 1, out);
        else
            out.push_back(e);
    }
}

Value flatten(Args a, EvalFrame &)
{
    const int64_t depth = a.size() > 1 ? a[1].asInt() : 1;
    if (depth < 0)
        return Value::error("level must be non-negative");
    std::vector<Value> out;
    flattenInto(a[0].asList(), depth, out);
    return Value::list(std::move(out));
}

Value listReverse(Args a, EvalFrame &)
{
    std::vector<Value> out(a[0].asList().rbegin(), a[0].asList().rend());
    return Value::list(std::move(out));
}

Value slice(Args a, EvalFrame &)
{
    const ListData &l = a[0].asList();
    const int64_t start = a[1].asInt();
    const int64_t end = a[2].asInt();
    if (start < 0 || end < 0)
        return Value::error("cannot slice(" + std::to_string(start) + ", " + std::to_string(end)
            + "), negative indexes not supported");
    if (start > end)
        return Value::error("cannot slice(" + std::to_string(start) + ", " + std::to_string(end)
            + "), start index must be less than or equal to end index");
    if (static_cast<size_t>(end) > l.size())
        return Value::error("cannot slice(" + std::to_string(start) + ", " + std::to_string(end)
            + "), list is length " + std::to_string(l.size()));
    return Value::list(std::vector<Value>(l.begin() + start, l.begin() + end));
}

// Checks that every element is comparable with the first; returns the error otherwise.
std::optional<Value> checkComparable(const ListData &l, std::string_view fn)
{
    for (const Value &e : l) {
        if (!compareValues(l.front(), e))
            return noSuchOverload(std::string(fn) + " on mixed element types");
    }
    return std::nullopt;
}

Value sort(Args a, EvalFrame &)
{
    const ListData &l = a[0].asList();
    if (l.empty())
        return a[0];
    if (auto err = checkComparable(l, "sort"))
        return *err;
    std::vector<Value> out = l;
    std::stable_sort(out.begin(), out.end(),
        [](const Value &x, const Value &y) { return compareValues(x, y) == -1; });
    return Value::list(std::move(out));
}

Value isSorted(Args a, EvalFrame &)
{
    const ListData &l = a[0].asList();
    if (l.empty())
        return Value::boolean(true);
    if (auto err = checkComparable(l, "isSorted"))
        return *err;
    for (size_t i = 1; i < l.size(); ++i) {
        if (compareValues(l[i - 1], l[i]) == 1)
            return Value::boolean(false);
    }
    return Value::boolean(true);
}

Value sum(Args a, EvalFrame &frame)
{
    const ListData &l = a[0].asList();
    if (l.empty())
        return Value::integer(0);
    Value acc = l.front();
    for (size_t i = 1; i < l.size(); ++i) {
        const Value &e = l[i];
        if (e.kind() != acc.kind())
            return noSuchOverload("sum on mixed element types");
        switch (e.kind()) {
        case Kind::Int: {
            const auto r = checkedAdd(acc.asInt(), e.asInt());
            if (!r)
                return overflowError();
            acc = Value::integer(*r);
            break;
        }
        case Kind::Uint: {
            uint64_t r;
            if (__builtin_add_overflow(acc.asUint(), e.asUint(), &r))
                return overflowError();
            acc = Value::unsignedInteger(r);
            break;
        }
        case Kind::Double:
            acc = Value::floating(acc.asDouble() + e.asDouble());
            break;
        default:
            return noSuchOverload("sum on " + std::string(e.typeName()));
        }
    }
    (void)frame;
    return acc;
}

template <bool Max> Value listExtremum(Args a, EvalFrame &)
{
    const ListData &l = a[0].asList();
    if (l.empty())
        return Value::error(std::string(Max ? "max" : "min") + " called on an empty list");
    if (auto err = checkComparable(l, Max ? "max" : "min"))
        return *err;
    const Value *best = &l.front();
    for (const Value &e : l) {
        if (compareValues(e, *best) == (Max ? 1 : -1))
            best = &e;
    }
    return *best;
}

Value listIndexOf(Args a, EvalFrame &)
{
    const ListData &l = a[0].asList();
    for (size_t i = 0; i < l.size(); ++i) {
        if (valuesEqual(l[i], a[1]))
            return Value::integer(static_cast<int64_t>(i));
    }
    return Value::integer(-1);
}

Value listLastIndexOf(Args a, EvalFrame &)
{
    const ListData &l = a[0].asList();
    for (size_t i = l.size(); i-- > 0;) {
        if (valuesEqual(l[i], a[1]))
            return Value::integer(static_cast<int64_t>(i));
    }
    return Value::integer(-1);
}

Value first(Args a, EvalFrame &)
{
    const ListData &l = a[0].asList();
    return l.empty() ? Value::optionalNone() : Value::optionalOf(l.front());
}

Value last(Args a, EvalFrame &)
{
    const ListData &l = a[0].asList();
    return l.empty() ? Value::optionalNone() : Value::optionalOf(l.back());
}

// cel.@mapInsert(map, key, value) and cel.@mapInsert(map, entries): used by transformMap and
// transformMapEntry; a repeated key is an error.
Value mapInsert(Args a, EvalFrame &)
{
    auto map = std::make_shared<MapData>(a[0].asMap());
    if (a.size() == 3) {
        if (!isValidMapKey(a[1]))
            return Value::error("unsupported key type: " + std::string(a[1].typeName()));
        if (!map->insert(a[1], a[2]))
            return Value::error("insert failed: key " + a[1].debugString() + " already exists");
    } else {
        if (a[1].kind() != Kind::Map)
            return noSuchOverload("transformMapEntry expects a map result");
        const MapData &entries = a[1].asMap();
        for (size_t i = 0; i < entries.size(); ++i) {
            if (!map->insert(entries.keys()[i], entries.values()[i]))
                return Value::error(
                    "insert failed: key " + entries.keys()[i].debugString() + " already exists");
        }
    }
    return Value::map(std::shared_ptr<const MapData>(std::move(map)));
}

} // namespace

void registerMacroHelpers(FunctionRegistry &r)
{
    r.global("cel.@mapInsert", { Kind::Map, Kind::Dyn, Kind::Dyn }, mapInsert);
    r.global("cel.@mapInsert", { Kind::Map, Kind::Dyn }, mapInsert);
}

void registerCelListsLibrary(FunctionRegistry &r)
{
    const Kind L = Kind::List, I = Kind::Int;
    r.global("lists.range", { I }, range);
    r.member("distinct", { L }, distinct);
    r.member("flatten", { L }, flatten);
    r.member("flatten", { L, I }, flatten);
    r.member("reverse", { L }, listReverse);
    r.member("slice", { L, I, I }, slice);
    r.member("sort", { L }, sort);
    r.member("first", { L }, first);
    r.member("last", { L }, last);
}

void registerKubernetesListsLibrary(FunctionRegistry &r)
{
    const Kind L = Kind::List, Y = Kind::Dyn;
    r.member("isSorted", { L }, isSorted);
    r.member("sum", { L }, sum);
    r.member("min", { L }, listExtremum<false>);
    r.member("max", { L }, listExtremum<true>);
    r.member("indexOf", { L, Y }, listIndexOf);
    r.member("lastIndexOf", { L, Y }, listLastIndexOf);
}

} // namespace dra::cel
