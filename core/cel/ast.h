// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/cel/value.h"

namespace dra::cel {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

// The shapes of parsed CEL expressions, as in cel-spec's syntax.proto.
enum class ExprKind : uint8_t {
    Constant,
    Ident,
    Select,
    Call,
    List,
    Map,
    Struct,
    Comprehension,
};

// One entry of a map literal or a message construction.
struct ExprEntry
{
    std::string field; // message field name (Struct only)
    ExprPtr key; // map key (Map only)
    ExprPtr value;
    bool optional = false; // `?key: value`
    int32_t offset = 0;
};

// A node of the parsed expression. Macro expansions appear as Comprehension nodes.
struct Expr
{
    ExprKind kind = ExprKind::Constant;
    int64_t id = 0;
    int32_t offset = 0; // byte offset into the source, for diagnostics

    Value constant; // Constant
    std::string name; // Ident name, Select field, Call function, Struct type name
    ExprPtr target; // Select operand, receiver of a Call
    bool testOnly = false; // Select produced by has()
    std::vector<ExprPtr> args; // Call arguments, List elements
    std::vector<int32_t> optionalIndices; // List elements written `?e`
    std::vector<ExprEntry> entries; // Map and Struct

    // Comprehension (cel-spec's fold): iterRange is walked with iterVar (and iterVar2).
    std::string iterVar;
    std::string iterVar2;
    std::string accuVar;
    ExprPtr iterRange;
    ExprPtr accuInit;
    ExprPtr loopCondition;
    ExprPtr loopStep;
    ExprPtr result;
};

// Calls `f` on `root` and every expression below it, parents first (null children skipped).
template <typename F> void forEachExpr(const Expr *root, F &&f)
{
    if (!root)
        return;
    f(*root);
    forEachExpr(root->target.get(), f);
    for (const ExprPtr &a : root->args)
        forEachExpr(a.get(), f);
    for (const ExprEntry &entry : root->entries) {
        forEachExpr(entry.key.get(), f);
        forEachExpr(entry.value.get(), f);
    }
    forEachExpr(root->iterRange.get(), f);
    forEachExpr(root->accuInit.get(), f);
    forEachExpr(root->loopCondition.get(), f);
    forEachExpr(root->loopStep.get(), f);
    forEachExpr(root->result.get(), f);
}

// The accumulator name macros use; not a valid identifier, so users cannot collide with it.
inline constexpr const char *kAccumulatorName = "@result";

} // namespace dra::cel
