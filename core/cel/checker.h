// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/cel/declarations.h"
#include "core/cel/diagnostic.h"
#include "core/cel/env.h"
#include "core/cel/parser.h"
#include "core/cel/types.h"

namespace dra::cel {

// What the checker learnt about an expression: the type of every node and, for calls, the
// declared overloads that may be chosen at runtime (several when an argument is dyn).
struct CheckedExpr
{
    std::unordered_map<int64_t, CelType> types;
    std::unordered_map<int64_t, std::vector<const FunctionDecl *>> overloads;
    CelType resultType;
    bool ok = true;

    const CelType &typeOf(int64_t id) const;
};

// Type-checks `parsed` against `declarations` (variables, object types, typed overloads) in the
// container of `env`, as cel-go's checker does: unknown names, undefined fields and calls no
// overload accepts are appended to `diagnostics` with positions and cel-go's wording. Types
// left undetermined (an element of an empty list) are dyn in the result. Any thread.
CheckedExpr check(const ParsedExpr &parsed, const Declarations &declarations,
    const Environment &env, std::vector<Diagnostic> *diagnostics);

} // namespace dra::cel
