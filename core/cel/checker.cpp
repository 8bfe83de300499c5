// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A gradual type checker in the manner of cel-go's: every node gets a static type, calls are
// matched against typed overload declarations with type parameters, and dyn (what Kubernetes
// gives attribute values) matches anything, so only expressions that can never work are
// rejected.

#include "core/cel/checker.h"

#include <algorithm>

namespace dra::cel {

const CelType &CheckedExpr::typeOf(int64_t id) const
{
    static const CelType dyn = CelType::dyn();
    const auto it = types.find(id);
    return it == types.end() ? dyn : it->second;
}

namespace {

using K = CelType::Kind;

CelType constantType(const Value &v)
{
    switch (v.kind()) {
    case Kind::Null:
        return CelType::simple(K::Null);
    case Kind::Bool:
        return CelType::simple(K::Bool);
    case Kind::Int:
        return CelType::simple(K::Int);
    case Kind::Uint:
        return CelType::simple(K::Uint);
    case Kind::Double:
        return CelType::simple(K::Double);
    case Kind::String:
        return CelType::simple(K::String);
    case Kind::Bytes:
        return CelType::simple(K::Bytes);
    case Kind::Timestamp:
        return CelType::simple(K::Timestamp);
    case Kind::Duration:
        return CelType::simple(K::Duration);
    default:
        return CelType::dyn();
    }
}

// The type an identifier naming a type denotes: `int` is a value of type type(int).
std::optional<CelType> typeIdentifier(std::string_view name)
{
    static const std::pair<std::string_view, K> simple[]
        = { { "int", K::Int }, { "uint", K::Uint }, { "double", K::Double }, { "bool", K::Bool },
              { "string", K::String }, { "bytes", K::Bytes }, { "null_type", K::Null },
              { "google.protobuf.Timestamp", K::Timestamp },
              { "google.protobuf.Duration", K::Duration } };
    for (const auto &[n, k] : simple) {
        if (n == name)
            return CelType::typeOf(CelType::simple(k));
    }
    if (name == "list")
        return CelType::typeOf(CelType::list(CelType::dyn()));
    if (name == "map")
        return CelType::typeOf(CelType::map(CelType::dyn(), CelType::dyn()));
    if (name == "type" || name == "optional_type" || name == "net.IP" || name == "net.CIDR"
        || name == "kubernetes.Quantity" || name == "kubernetes.Semver" || name == "kubernetes.URL")
        return CelType::typeOf(CelType::dyn());
    return std::nullopt;
}

std::string signature(const std::vector<CelType> &args, bool receiver)
{
    std::string out;
    size_t first = 0;
    if (receiver && !args.empty()) {
        out = args[0].toString() + ".";
        first = 1;
    }
    out += "(";
    for (size_t i = first; i < args.size(); ++i) {
        if (i > first)
            out += ", ";
        out += args[i].toString();
    }
    return out + ")";
}

// Why a call that did not match might have been meant, for the commonest DRA mistakes.
std::string overloadHint(const std::string &fn, const std::vector<CelType> &args)
{
    const bool comparison = fn == "_<_" || fn == "_<=_" || fn == "_>_" || fn == "_>=_"
        || fn == "_==_" || fn == "_!=_";
    if (!comparison || args.size() != 2)
        return {};
    const bool quantity
        = args[0].isOpaque(kQuantityTypeName) || args[1].isOpaque(kQuantityTypeName);
    const bool semver = args[0].isOpaque(kSemverTypeName) || args[1].isOpaque(kSemverTypeName);
    if (quantity)
        return "; compare quantities with compareTo(), isGreaterThan() or isLessThan(), e.g. "
               "x.compareTo(quantity(\"40Gi\")) >= 0";
    if (semver)
        return "; compare versions with compareTo(), isGreaterThan() or isLessThan(), e.g. "
               "x.isGreaterThan(semver(\"1.2.3\"))";
    return {};
}

class Checker final
{
public:
    Checker(const ParsedExpr &parsed, const Declarations &decls, const Environment &env,
        std::vector<Diagnostic> *diagnostics)
        : m_decls(decls)
        , m_env(env)
        , m_source(parsed.source)
        , m_diagnostics(diagnostics)
    {
    }

    CheckedExpr run(const Expr &root)
    {
        m_out.resultType = check(root);
        return std::move(m_out);
    }

private:
    void error(int32_t offset, std::string message)
    {
        m_out.ok = false;
        addError(m_diagnostics, m_source, offset, std::move(message));
    }

    CelType record(const Expr &e, CelType t)
    {
        m_out.types[e.id] = t;
        return t;
    }

    const CelType *local(std::string_view name) const
    {
        for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
            if (it->first == name)
                return &it->second;
        }
        return nullptr;
    }

    static std::string dottedName(const Expr &e)
    {
        if (e.kind == ExprKind::Ident)
            return e.name;
        if (e.kind == ExprKind::Select && !e.testOnly && e.target) {
            const std::string prefix = dottedName(*e.target);
            return prefix.empty() ? std::string() : prefix + "." + e.name;
        }
        return {};
    }
    static const Expr &chainRoot(const Expr &e)
    {
        return e.kind == ExprKind::Select ? chainRoot(*e.target) : e;
    }

    CelType check(const Expr &e)
    {
        switch (e.kind) {
        case ExprKind::Constant:
            return record(e, constantType(e.constant));
        case ExprKind::Ident:
            return record(e, checkIdent(e.name));
        case ExprKind::Select:
            return record(e, checkSelect(e));
        case ExprKind::Call:
            return record(e, checkCall(e));
        case ExprKind::List: {
            CelType element;
            bool first = true;
            for (size_t i = 0; i < e.args.size(); ++i) {
                CelType t = check(*e.args[i]);
                const bool optional = std::find(e.optionalIndices.begin(), e.optionalIndices.end(),
                                          static_cast<int32_t>(i))
                    != e.optionalIndices.end();
                if (optional && t.is(K::Optional))
                    t = t.params[0];
                element = first ? t : join(element, t);
                first = false;
            }
            return record(e, CelType::list(first ? CelType::dyn() : element));
        }
        case ExprKind::Map: {
            CelType key, value;
            bool first = true;
            for (const ExprEntry &entry : e.entries) {
                const CelType k = check(*entry.key);
                CelType v = check(*entry.value);
                if (entry.optional && v.is(K::Optional))
                    v = v.params[0];
                key = first ? k : join(key, k);
                value = first ? v : join(value, v);
                first = false;
            }
            return record(
                e, first ? CelType::map(CelType::dyn(), CelType::dyn()) : CelType::map(key, value));
        }
        case ExprKind::Struct:
            for (const ExprEntry &entry : e.entries)
                check(*entry.value);
            return record(e, CelType::dyn());
        case ExprKind::Comprehension:
            return record(e, checkComprehension(e));
        }
        return record(e, CelType::dyn());
    }

    CelType checkIdent(const std::string &name)
    {
        if (const CelType *t = local(name))
            return *t;
        std::string_view n = name;
        if (n.starts_with('.'))
            n.remove_prefix(1);
        if (const CelType *t = m_decls.variable(n))
            return *t;
        if (auto t = typeIdentifier(n))
            return *t;
        return CelType::dyn(); // undeclared: the planner reports it
    }

    // The type of `operand.field`, or an error at `offset`.
    CelType selectField(const CelType &operand, const std::string &field, int32_t offset)
    {
        switch (operand.kind) {
        case K::Dyn:
        case K::Error:
        case K::Param:
            return CelType::dyn();
        case K::Map:
            return operand.params[1];
        case K::Object:
            if (const CelType *t = m_decls.field(operand.name, field))
                return *t;
            error(offset, "undefined field '" + field + "'");
            return CelType::simple(K::Error);
        default:
            error(offset, "type '" + operand.toString() + "' does not support field selection");
            return CelType::simple(K::Error);
        }
    }

    CelType checkSelect(const Expr &e)
    {
        // A qualified variable name (`a.b` declared as one variable) is an identifier.
        const std::string full = dottedName(e);
        if (!full.empty() && !local(chainRoot(e).name)) {
            if (const CelType *t = m_decls.variable(full))
                return *t;
        }
        const CelType operand = check(*e.target);
        const CelType field = selectField(operand, e.name, e.offset);
        return e.testOnly ? CelType::simple(K::Bool) : field;
    }

    CelType checkCall(const Expr &e)
    {
        // `a.b.f(x)` may be the global function "a.b.f" (optional.of, sets.contains, ...).
        if (e.target) {
            const std::string prefix = dottedName(*e.target);
            if (!prefix.empty() && !local(chainRoot(*e.target).name)
                && !m_decls.variable(chainRoot(*e.target).name)
                && m_env.functions().hasGlobal(prefix + "." + e.name))
                return checkOverloads(e, prefix + "." + e.name, false, checkArgs(e, false));
        }
        if (e.name == "_?._" && e.args.size() == 2 && !e.target) {
            CelType operand = check(*e.args[0]);
            check(*e.args[1]);
            if (operand.is(K::Optional))
                operand = operand.params[0];
            const std::string field = e.args[1]->kind == ExprKind::Constant
                ? std::string(e.args[1]->constant.asString())
                : std::string();
            return CelType::optional(selectField(operand, field, e.offset));
        }
        return checkOverloads(e, e.name, e.target != nullptr, checkArgs(e, e.target != nullptr));
    }

    std::vector<CelType> checkArgs(const Expr &e, bool withTarget)
    {
        std::vector<CelType> args;
        if (withTarget)
            args.push_back(check(*e.target));
        for (const ExprPtr &a : e.args)
            args.push_back(check(*a));
        return args;
    }

    CelType checkOverloads(
        const Expr &e, const std::string &fn, bool receiver, const std::vector<CelType> &args)
    {
        const auto candidates = m_decls.overloads(fn, receiver, args.size());
        if (candidates.empty())
            return CelType::dyn(); // no typed declaration: checked at runtime only
        // An argument that already failed to check would only repeat the error.
        if (std::any_of(args.begin(), args.end(), [](const CelType &t) { return t.is(K::Error); }))
            return CelType::simple(K::Error);
        std::vector<const FunctionDecl *> matched;
        CelType result;
        for (const FunctionDecl *d : candidates) {
            TypeBindings bindings;
            bool ok = true;
            for (size_t i = 0; i < args.size() && ok; ++i)
                ok = isAssignable(d->params[i], args[i], bindings);
            if (!ok)
                continue;
            const CelType r = substitute(d->result, bindings);
            result = matched.empty() ? r : join(result, r);
            matched.push_back(d);
        }
        if (matched.empty()) {
            error(e.offset,
                "found no matching overload for '" + fn + "' applied to '"
                    + signature(args, receiver) + "'" + overloadHint(fn, args));
            return CelType::simple(K::Error);
        }
        m_out.overloads[e.id] = std::move(matched);
        return result;
    }

    CelType checkComprehension(const Expr &e)
    {
        const CelType range = check(*e.iterRange);
        CelType first = CelType::dyn();
        CelType second = CelType::dyn();
        const bool twoVars = !e.iterVar2.empty();
        switch (range.kind) {
        case K::List:
            first = twoVars ? CelType::simple(K::Int) : range.params[0];
            second = range.params[0];
            break;
        case K::Map:
            first = range.params[0];
            second = range.params[1];
            break;
        case K::Dyn:
        case K::Error:
        case K::Param:
            break;
        default:
            error(e.iterRange->offset,
                "expression of type '" + range.toString()
                    + "' cannot be range of a comprehension (must be "
                      "list, map, or dynamic)");
        }
        CelType accu = check(*e.accuInit);
        m_scopes.emplace_back(e.accuVar, accu);
        m_scopes.emplace_back(e.iterVar, first);
        if (twoVars)
            m_scopes.emplace_back(e.iterVar2, second);
        check(*e.loopCondition);
        const CelType step = check(*e.loopStep);
        m_scopes.pop_back();
        if (twoVars)
            m_scopes.pop_back();
        // An accumulator started as an empty literal takes the element type the step builds,
        // so `[1, 2].map(x, x * 2)` is a list(int), as in cel-go.
        TypeBindings none;
        if (accu != step && isAssignable(accu, step, none) && !step.isDyn())
            m_scopes.back().second = step;
        const CelType result = check(*e.result);
        m_scopes.pop_back();
        return result;
    }

    const Declarations &m_decls;
    const Environment &m_env;
    SourceInfo m_source;
    std::vector<Diagnostic> *m_diagnostics;
    std::vector<std::pair<std::string, CelType>> m_scopes;
    CheckedExpr m_out;
};

} // namespace

CheckedExpr check(const ParsedExpr &parsed, const Declarations &declarations,
    const Environment &env, std::vector<Diagnostic> *diagnostics)
{
    if (!parsed.root)
        return {};
    return Checker(parsed, declarations, env, diagnostics).run(*parsed.root);
}

} // namespace dra::cel
