// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A type checker that follows cel-go's (checker/checker.go): every node gets a static type,
// calls are matched against typed overload declarations whose type parameters become fresh
// variables, empty literals get free element types, and the variables are bound as arguments
// unify. Dyn (what Kubernetes gives attribute values) matches anything, so only expressions
// that can never work are rejected, with cel-go's words.

#include "core/cel/checker.h"

#include <algorithm>

#include "core/cel/type_inference.h"

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
    if (name == "type")
        return CelType::typeOf(CelType::typeOf(CelType::dyn()));
    if (name == "optional_type")
        return CelType::typeOf(CelType::optional(CelType::dyn()));
    if (name == "net.IP" || name == "net.CIDR" || name == kQuantityTypeName
        || name == kSemverTypeName || name == "kubernetes.URL")
        return CelType::typeOf(CelType::opaque(std::string(name)));
    return std::nullopt;
}

// The names `name` may refer to from `container`, most qualified first, as cel-go resolves
// them: in container "a.b", "x" is "a.b.x", "a.x" or "x"; ".x" is only "x".
std::vector<std::string> candidateNames(std::string_view container, std::string_view name)
{
    if (name.starts_with('.'))
        return { std::string(name.substr(1)) };
    std::vector<std::string> out;
    while (!container.empty()) {
        out.push_back(std::string(container) + "." + std::string(name));
        const size_t dot = container.rfind('.');
        container = dot == std::string_view::npos ? std::string_view() : container.substr(0, dot);
    }
    out.emplace_back(name);
    return out;
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

// Renames the type parameters of a declaration so that each use gets variables of its own.
class Instantiation final
{
public:
    explicit Instantiation(int &counter)
        : m_counter(counter)
    {
    }
    CelType operator()(const CelType &t)
    {
        if (t.kind == K::Param) {
            auto it = m_fresh.find(t.name);
            if (it == m_fresh.end())
                it = m_fresh.emplace(t.name, CelType::param("_var" + std::to_string(m_counter++)))
                         .first;
            return it->second;
        }
        if (t.params.empty())
            return t;
        CelType out = t;
        for (CelType &p : out.params)
            p = (*this)(p);
        return out;
    }

private:
    int &m_counter;
    std::map<std::string, CelType, std::less<>> m_fresh;
};

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
        check(root);
        // Variables still free at the end are dyn, as in cel-go.
        for (auto &[id, t] : m_out.types)
            t = m_mapping.substitute(t, true);
        m_out.resultType = m_out.typeOf(root.id);
        return std::move(m_out);
    }

private:
    void error(int32_t offset, std::string message)
    {
        m_out.ok = false;
        addError(m_diagnostics, m_source, offset, std::move(message));
    }

    void setType(const Expr &e, CelType t) { m_out.types[e.id] = std::move(t); }
    const CelType &typeOf(const Expr &e) const { return m_out.typeOf(e.id); }

    CelType newTypeVar() { return CelType::param("_var" + std::to_string(m_typeVars++)); }

    const CelType *local(std::string_view name) const
    {
        for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
            if (it->first == name)
                return &it->second;
        }
        return nullptr;
    }

    // A global variable or type name `name` resolves to from the container, or nullopt.
    std::optional<CelType> global(std::string_view name) const
    {
        for (const std::string &candidate : candidateNames(m_env.container(), name)) {
            if (const CelType *t = m_decls.variable(candidate))
                return *t;
            if (auto t = typeIdentifier(candidate))
                return t;
        }
        return std::nullopt;
    }

    // The function declared as `name` from the container (its qualified name), or empty.
    std::string function(std::string_view name) const
    {
        for (const std::string &candidate : candidateNames(m_env.container(), name)) {
            if (m_decls.declaresFunction(candidate))
                return candidate;
        }
        return {};
    }

    void check(const Expr &e)
    {
        switch (e.kind) {
        case ExprKind::Constant:
            setType(e, constantType(e.constant));
            return;
        case ExprKind::Ident:
            checkIdent(e);
            return;
        case ExprKind::Select:
            checkSelect(e);
            return;
        case ExprKind::Call:
            checkCall(e);
            return;
        case ExprKind::List:
            checkList(e);
            return;
        case ExprKind::Map:
            checkMap(e);
            return;
        case ExprKind::Struct:
            // No message types are declared: the planner reports the name.
            for (const ExprEntry &entry : e.entries)
                check(*entry.value);
            setType(e, CelType::dyn());
            return;
        case ExprKind::Comprehension:
            checkComprehension(e);
            return;
        }
        setType(e, CelType::dyn());
    }

    void checkIdent(const Expr &e)
    {
        if (!e.name.starts_with('.')) {
            if (const CelType *t = local(e.name)) {
                setType(e, *t);
                return;
            }
        }
        if (auto t = global(e.name)) {
            setType(e, std::move(*t));
            return;
        }
        setType(e, CelType::simple(K::Error));
        error(e.offset,
            "undeclared reference to '" + e.name + "' (in container '" + m_env.container() + "')");
    }

    // `a.b.c` as the parts of a qualified name, when it is one (no has(), rooted at an ident).
    static bool qualifiers(const Expr &e, std::vector<std::string_view> &out)
    {
        const Expr *at = &e;
        while (at->kind == ExprKind::Select) {
            if (at->testOnly)
                return false;
            out.push_back(at->name);
            at = at->target.get();
            if (at->kind == ExprKind::Ident) {
                out.push_back(at->name);
                std::reverse(out.begin(), out.end());
                return true;
            }
        }
        return false;
    }

    static std::string joined(const std::vector<std::string_view> &parts)
    {
        std::string out;
        for (std::string_view p : parts)
            out += (out.empty() ? "" : ".") + std::string(p);
        return out;
    }

    void checkSelect(const Expr &e)
    {
        // A qualified variable name (`a.b` declared as one variable) is an identifier.
        std::vector<std::string_view> parts;
        if (qualifiers(e, parts) && (parts[0].starts_with('.') || !local(parts[0]))) {
            if (auto t = global(joined(parts))) {
                setType(e, std::move(*t));
                return;
            }
        }
        CelType result = selectField(e, *e.target, e.name, false);
        if (e.testOnly)
            result = CelType::simple(K::Bool);
        setType(e, m_mapping.substitute(result, false));
    }

    // The type of `operand.field` (optional when `optional` or the operand is), reporting
    // what cannot be selected at `e`.
    CelType selectField(const Expr &e, const Expr &operand, const std::string &field, bool optional)
    {
        check(operand);
        CelType target = m_mapping.substitute(typeOf(operand), false);
        const bool wasOptional = target.is(K::Optional);
        if (wasOptional)
            target = CelType(target.params[0]);
        CelType result = CelType::simple(K::Error);
        switch (target.kind) {
        case K::Map:
            result = target.params[1];
            break;
        case K::Object:
            if (const CelType *t = m_decls.field(target.name, field))
                result = *t;
            else
                error(e.offset, "undefined field '" + field + "'");
            break;
        case K::Param:
            m_mapping.isAssignable(CelType::dyn(), target);
            result = CelType::dyn();
            break;
        default:
            if (!target.isDyn())
                error(
                    e.offset, "type '" + target.toString() + "' does not support field selection");
            result = CelType::dyn();
        }
        return wasOptional || optional ? CelType::optional(std::move(result)) : result;
    }

    void checkCall(const Expr &e)
    {
        if (e.name == "_?._" && e.args.size() == 2 && !e.target) {
            const Expr &field = *e.args[1];
            if (field.kind != ExprKind::Constant || field.constant.kind() != Kind::String) {
                error(field.offset, "unsupported optional field selection");
                setType(e, CelType::simple(K::Error));
                return;
            }
            const CelType result
                = selectField(e, *e.args[0], std::string(field.constant.asString()), true);
            setType(*e.args[1], CelType::simple(K::String));
            setType(e, m_mapping.substitute(result, false));
            return;
        }
        if (checkBlock(e))
            return;
        for (const ExprPtr &a : e.args)
            check(*a);
        if (!e.target) {
            const std::string fn = function(e.name);
            if (fn.empty())
                return undeclaredFunction(e);
            return resolve(e, fn, nullptr);
        }
        // `a.b.f(x)` may be the global function "a.b.f" (optional.of, sets.contains, ...).
        std::vector<std::string_view> parts;
        if (e.target->kind == ExprKind::Ident)
            parts.push_back(e.target->name);
        if (!parts.empty() || qualifiers(*e.target, parts)) {
            const std::string fn = function(joined(parts) + "." + e.name);
            if (!fn.empty())
                return resolve(e, fn, nullptr);
        }
        check(*e.target);
        const std::string fn = function(e.name);
        if (fn.empty())
            return undeclaredFunction(e);
        resolve(e, fn, e.target.get());
    }

    // cel.block([inits], body), cel.index(n), cel.iterVar(i, j) and cel.accuVar(i, j): the
    // common-subexpression form optimizers write, which the planner binds to slots. The slots
    // are dyn, as cel-go's conformance declares them.
    bool checkBlock(const Expr &e)
    {
        if (!e.target || e.target->kind != ExprKind::Ident || e.target->name != "cel"
            || local("cel") || m_decls.variable("cel"))
            return false;
        const size_t n = e.args.size();
        if ((e.name == "block" || e.name == "@block") && n == 2
            && e.args[0]->kind == ExprKind::List) {
            check(*e.args[0]);
            check(*e.args[1]);
            setType(e, typeOf(*e.args[1]));
            return true;
        }
        if (e.name == "index" && n == 1 && e.args[0]->kind == ExprKind::Constant) {
            setType(*e.args[0], constantType(e.args[0]->constant));
            setType(e, CelType::dyn());
            return true;
        }
        if ((e.name == "iterVar" || e.name == "accuVar") && n == 2
            && e.args[0]->kind == ExprKind::Constant && e.args[1]->kind == ExprKind::Constant) {
            const std::string name = std::string(e.name == "iterVar" ? "@it:" : "@ac:")
                + e.args[0]->constant.debugString() + ":" + e.args[1]->constant.debugString();
            const CelType *t = local(name);
            setType(e, t ? *t : CelType::dyn());
            return true;
        }
        return false;
    }

    void undeclaredFunction(const Expr &e)
    {
        setType(e, CelType::simple(K::Error));
        error(e.offset,
            "undeclared reference to '" + e.name + "' (in container '" + m_env.container() + "')");
    }

    void resolve(const Expr &e, const std::string &fn, const Expr *target)
    {
        std::vector<CelType> args;
        if (target)
            args.push_back(typeOf(*target));
        for (const ExprPtr &a : e.args)
            args.push_back(typeOf(*a));
        // The logical operators check each operand against bool, as cel-go does.
        if (!target && (fn == "_&&_" || fn == "_||_")) {
            bool ok = true;
            for (size_t i = 0; i < args.size(); ++i) {
                if (!m_mapping.isAssignable(args[i], CelType::simple(K::Bool))) {
                    error(e.args[i]->offset,
                        "expected type 'bool' but found '" + args[i].toString() + "'");
                    ok = false;
                }
            }
            m_out.overloads[e.id] = m_decls.overloads(fn, false, args.size());
            setType(e, ok ? CelType::simple(K::Bool) : CelType::simple(K::Error));
            return;
        }
        std::optional<CelType> result;
        std::vector<const FunctionDecl *> matched;
        for (const FunctionDecl *d : m_decls.overloads(fn, target != nullptr, args.size())) {
            Instantiation fresh(m_typeVars);
            std::vector<CelType> params;
            for (const CelType &p : d->params)
                params.push_back(fresh(p));
            const CelType declaredResult = fresh(d->result);
            if (!m_mapping.isAssignableList(args, params))
                continue;
            matched.push_back(d);
            CelType r = m_mapping.substitute(declaredResult, false);
            if (!result)
                result = std::move(r);
            else if (!result->is(K::Dyn) && !result->is(K::Any) && r != *result)
                result = CelType::dyn();
        }
        if (!result) {
            for (CelType &a : args)
                a = m_mapping.substitute(a, true);
            error(e.offset,
                "found no matching overload for '" + fn + "' applied to '"
                    + signature(args, target != nullptr) + "'" + overloadHint(fn, args));
            setType(e, CelType::simple(K::Error));
            return;
        }
        m_out.overloads[e.id] = std::move(matched);
        setType(e, std::move(*result));
    }

    // The type of the elements of a literal so far, joined with one more element.
    CelType joinTypes(std::optional<CelType> previous, const CelType &current)
    {
        if (!previous)
            return current;
        if (m_mapping.isAssignable(*previous, current))
            return mostGeneral(*previous, current);
        // Mixed literals are dyn; Kubernetes' validator rejects them separately.
        return CelType::dyn();
    }

    // The element of an optional entry (`?x`), which must be an optional value.
    CelType optionalEntry(const Expr &value, CelType t)
    {
        if (t.is(K::Optional))
            return CelType(t.params[0]);
        if (!t.isDyn())
            error(value.offset,
                "expected type '" + CelType::optional(t).toString() + "' but found '" + t.toString()
                    + "'");
        return t;
    }

    void checkList(const Expr &e)
    {
        std::optional<CelType> element;
        for (size_t i = 0; i < e.args.size(); ++i) {
            check(*e.args[i]);
            CelType t = typeOf(*e.args[i]);
            if (std::find(
                    e.optionalIndices.begin(), e.optionalIndices.end(), static_cast<int32_t>(i))
                != e.optionalIndices.end())
                t = optionalEntry(*e.args[i], std::move(t));
            element = joinTypes(std::move(element), t);
        }
        setType(e, CelType::list(element ? std::move(*element) : newTypeVar()));
    }

    void checkMap(const Expr &e)
    {
        std::optional<CelType> key, value;
        for (const ExprEntry &entry : e.entries) {
            check(*entry.key);
            key = joinTypes(std::move(key), typeOf(*entry.key));
            check(*entry.value);
            CelType v = typeOf(*entry.value);
            if (entry.optional)
                v = optionalEntry(*entry.value, std::move(v));
            value = joinTypes(std::move(value), v);
        }
        if (!key) {
            key = newTypeVar();
            value = newTypeVar();
        }
        setType(e, CelType::map(std::move(*key), std::move(*value)));
    }

    // Reports `e` unless its type may be used where `expected` is.
    void assertType(const Expr &e, const CelType &expected)
    {
        if (!m_mapping.isAssignable(expected, typeOf(e)))
            error(e.offset,
                "expected type '" + expected.toString() + "' but found '" + typeOf(e).toString()
                    + "'");
    }

    void checkComprehension(const Expr &e)
    {
        check(*e.iterRange);
        check(*e.accuInit);
        const CelType range = m_mapping.substitute(typeOf(*e.iterRange), false);
        const CelType accu = typeOf(*e.accuInit);
        m_scopes.emplace_back(e.accuVar, accu);
        const bool twoVars = !e.iterVar2.empty();
        CelType first, second;
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
            m_mapping.isAssignable(CelType::dyn(), range);
            first = second = CelType::dyn();
            break;
        default:
            error(e.iterRange->offset,
                "expression of type '" + range.toString()
                    + "' cannot be range of a comprehension (must be list, map, or dynamic)");
            first = second = CelType::simple(K::Error);
        }
        m_scopes.emplace_back(e.iterVar, first);
        if (twoVars)
            m_scopes.emplace_back(e.iterVar2, second);
        check(*e.loopCondition);
        assertType(*e.loopCondition, CelType::simple(K::Bool));
        check(*e.loopStep);
        assertType(*e.loopStep, accu);
        m_scopes.pop_back();
        if (twoVars)
            m_scopes.pop_back();
        check(*e.result);
        m_scopes.pop_back();
        setType(e, m_mapping.substitute(typeOf(*e.result), false));
    }

    const Declarations &m_decls;
    const Environment &m_env;
    SourceInfo m_source;
    std::vector<Diagnostic> *m_diagnostics;
    std::vector<std::pair<std::string, CelType>> m_scopes;
    TypeMapping m_mapping;
    int m_typeVars = 0;
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
