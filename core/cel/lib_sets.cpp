// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The sets extension over lists: sets.contains, sets.equivalent, sets.intersects.

#include "core/cel/env.h"
#include "core/cel/program.h"

namespace dra::cel {

namespace {

using Args = std::span<const Value>;

bool listHas(const ListData &list, const Value &v)
{
    for (const Value &e : list) {
        if (valuesEqual(e, v))
            return true;
    }
    return false;
}

bool containsAll(const ListData &a, const ListData &b)
{
    for (const Value &e : b) {
        if (!listHas(a, e))
            return false;
    }
    return true;
}

Value setsContains(Args a, EvalFrame &)
{
    return Value::boolean(containsAll(a[0].asList(), a[1].asList()));
}
Value equivalent(Args a, EvalFrame &)
{
    return Value::boolean(
        containsAll(a[0].asList(), a[1].asList()) && containsAll(a[1].asList(), a[0].asList()));
}
Value intersects(Args a, EvalFrame &)
{
    for (const Value &e : a[1].asList()) {
        if (listHas(a[0].asList(), e))
            return Value::boolean(true);
    }
    return Value::boolean(false);
}

} // namespace

void registerSetsLibrary(FunctionRegistry &r)
{
    const Kind L = Kind::List;
    r.global("sets.contains", { L, L }, setsContains);
    r.global("sets.equivalent", { L, L }, equivalent);
    r.global("sets.intersects", { L, L }, intersects);
}

} // namespace dra::cel
