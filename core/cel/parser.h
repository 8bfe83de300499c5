// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cel/ast.h"
#include "core/cel/diagnostic.h"

namespace dra::cel {

// Parser settings; the defaults are cel-go's.
struct ParseOptions
{
    bool enableMacros = true;
    // all/exists/existsOne with two variables, transformList, transformMap, transformMapEntry.
    bool twoVarComprehensions = true;
    int maxRecursionDepth = 250;
    size_t maxExpressionBytes = 100 * 1024;
};

// A parsed expression: the tree and the source it came from.
struct ParsedExpr
{
    std::string source;
    ExprPtr root;
    int64_t maxId = 0;
};

// Parses CEL source text. On a syntax error returns nullopt and appends diagnostics with
// line and column.
std::optional<ParsedExpr> parse(
    std::string_view source, const ParseOptions &options, std::vector<Diagnostic> *diagnostics);

} // namespace dra::cel
