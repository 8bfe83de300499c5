// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dra::alloc {

// The top-level `&&` operands of a CEL expression, trimmed, in order: the clauses an
// explanation can blame one at a time. Operators inside parentheses, brackets, braces, string
// literals and comments are not split; an expression without a top-level `&&` is one clause.
std::vector<std::string> splitClauses(std::string_view expression);

} // namespace dra::alloc
