// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "core/cel/diagnostic.h"
#include "core/cel/env.h"
#include "core/cel/parser.h"
#include "core/cel/value.h"
#include "core/common/result.h"

namespace dra::cel {

// Per-evaluation state handed to every node and function. Lives on the caller's stack.
struct EvalFrame
{
    std::span<const Value> variables;
    Value *locals = nullptr;
    uint64_t cost = 0;
    uint64_t costLimit = UINT64_MAX;
    const void *host = nullptr; // the object a host environment evaluates against
};

// A node of a compiled program: names resolved to slots, overloads resolved to candidates.
class Node
{
public:
    virtual ~Node() = default;
    virtual Value eval(EvalFrame &frame) const = 0;
    // The same value without copying it where it already lives: a variable, a constant, or an
    // entry of a map or list reached from one, all of which outlive the evaluation; otherwise
    // the value is put in `scratch`. Paths such as `device.attributes["d"].name` then read
    // through their maps without copying each one (and touching its reference count). The
    // pointer is valid until the caller evaluates another node, which may reassign a local.
    virtual const Value *evalRef(EvalFrame &frame, Value &scratch) const
    {
        scratch = eval(frame);
        return &scratch;
    }
    // The value of a node that is a constant, for folding at compile time.
    virtual const Value *constant() const { return nullptr; }
};

struct Expr;

// Compiles field paths with constant keys rooted at a variable (`device.attributes["d"].n`)
// into direct accessors. A host environment provides one; the planner offers it every select
// and index whose root is not a local.
class PathCompiler
{
public:
    virtual ~PathCompiler() = default;
    // The node to evaluate `e` with: an accessor that falls back to `generic` (the node
    // planned the generic way) when there is no host object, or `generic` itself.
    virtual std::unique_ptr<Node> compilePath(
        const Expr &e, std::unique_ptr<Node> generic) const = 0;
    // The same for `"key" in map` (`e` is the call): a presence test of the path.
    virtual std::unique_ptr<Node> compileKeyTest(const Expr &, std::unique_ptr<Node> generic) const
    {
        return generic;
    }
};

// Compilation settings.
struct CompileOptions
{
    ParseOptions parse;
    bool validateLiterals = false; // see PlanOptions
};

// A compiled expression, immutable and safe to evaluate from several threads at once.
class Program final
{
public:
    Program() = default;
    Program(
        std::shared_ptr<const Node> root, int localCount, std::shared_ptr<const void> keepAlive);

    // False when compilation reported errors; evaluating then yields an error value.
    bool isValid() const { return m_root != nullptr; }
    // Evaluates with the environment's variables in declaration order; an evaluation whose
    // runtime cost passes `costLimit` ends with an error.
    Value evaluate(std::span<const Value> variables, const void *host = nullptr,
        uint64_t costLimit = UINT64_MAX) const;

private:
    std::shared_ptr<const Node> m_root;
    int m_localCount = 0;
    std::shared_ptr<const void> m_keepAlive;
};

// Parses and plans `source` against `env`. Mistakes in the expression are appended to
// `diagnostics` and give an invalid Program; the Result fails only on engine faults.
[[nodiscard]] Result<Program> compile(const Environment &env, std::string_view source,
    const CompileOptions &options, std::vector<Diagnostic> *diagnostics);

// Planning settings.
struct PlanOptions
{
    // Unknown variables and functions are diagnostics; when false they become runtime errors,
    // as in an unchecked (dynamic) evaluation.
    bool reportUnresolved = true;
    // Kubernetes' validators: unparsable duration, timestamp and regex literals and
    // mixed-type list literals are compile errors.
    bool validateLiterals = false;
    // Direct accessors for the host environment's paths; none when null.
    const PathCompiler *paths = nullptr;
};

// Plans an already parsed expression (see compile()).
[[nodiscard]] Result<Program> plan(const Environment &env, const ParsedExpr &parsed,
    std::vector<Diagnostic> *diagnostics, const PlanOptions &options = {});

} // namespace dra::cel
