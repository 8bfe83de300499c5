// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/cel/ast.h"

namespace dra::cel {

// What macro expansion needs from the parser: fresh node ids and error reporting.
class MacroContext
{
public:
    virtual ~MacroContext() = default;
    virtual ExprPtr newExpr(ExprKind kind, int32_t offset) = 0;
    virtual void reportError(int32_t offset, std::string message) = 0;
};

// Expands a call to a macro (has, all, exists, exists_one, map, filter, cel.bind, optMap,
// optFlatMap, and the two-variable comprehensions when `twoVarComprehensions`). Returns nullptr
// when the call is not a macro, leaving `target` and `args` untouched.
ExprPtr expandMacro(MacroContext &context, std::string_view function, ExprPtr &target,
    std::vector<ExprPtr> &args, int32_t offset, bool twoVarComprehensions = true);

} // namespace dra::cel
