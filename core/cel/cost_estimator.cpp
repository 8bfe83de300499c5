// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Static cost estimation with cel-go's rules: identifiers and selections from maps or objects
// cost 1, constants 0, a call its arguments plus the function's own cost (1 unless the
// function walks a string, list or regex), a comprehension its range size times the cost of
// one iteration. Field paths ("device", "attributes", "@values", ...) are tracked so the
// environment's size estimator can bound strings and maps read from the device.

#include "core/cel/cost_estimator.h"

#include <cmath>
#include <map>
#include <unordered_map>

#include "core/cel/utf8.h"

namespace dra::cel {

namespace {

using K = CelType::Kind;
using Path = std::vector<std::string>;

constexpr double kStringTraversalCostFactor = 0.1;
constexpr double kRegexStringLengthCostFactor = 0.25;
constexpr uint64_t kListCreateBaseCost = 10;
constexpr uint64_t kMapCreateBaseCost = 30;
constexpr uint64_t kStructCreateBaseCost = 40;

uint64_t addSat(uint64_t a, uint64_t b)
{
    return b > 0 && a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
uint64_t mulSat(uint64_t a, uint64_t b)
{
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}
uint64_t mulFactor(uint64_t x, double factor)
{
    const double xf = static_cast<double>(x);
    if (xf > 0 && factor > 0 && xf > static_cast<double>(UINT64_MAX) / factor)
        return UINT64_MAX;
    const double c = std::ceil(xf * factor);
    return c >= std::ldexp(1.0, 64) ? UINT64_MAX : static_cast<uint64_t>(c);
}

CostEstimate fixed(uint64_t c)
{
    return { c, c };
}
CostEstimate operator+(CostEstimate a, CostEstimate b)
{
    return { addSat(a.min, b.min), addSat(a.max, b.max) };
}
CostEstimate times(CostEstimate a, CostEstimate b)
{
    return { mulSat(a.min, b.min), mulSat(a.max, b.max) };
}
CostEstimate unite(CostEstimate a, CostEstimate b)
{
    return { std::min(a.min, b.min), std::max(a.max, b.max) };
}
CostEstimate factor(SizeEstimate s, double f)
{
    return { mulFactor(s.min, f), mulFactor(s.max, f) };
}
CostEstimate sizeTimesCost(SizeEstimate s, CostEstimate c)
{
    return { mulSat(s.min, c.min), mulSat(s.max, c.max) };
}
SizeEstimate operator+(SizeEstimate a, SizeEstimate b)
{
    return { addSat(a.min, b.min), addSat(a.max, b.max) };
}
SizeEstimate times(SizeEstimate a, SizeEstimate b)
{
    return { mulSat(a.min, b.min), mulSat(a.max, b.max) };
}
SizeEstimate unite(SizeEstimate a, SizeEstimate b)
{
    return { std::min(a.min, b.min), std::max(a.max, b.max) };
}
SizeEstimate fixedSize(uint64_t s)
{
    return { s, s };
}
constexpr SizeEstimate kUnknownSize { 0, UINT64_MAX };

// The sizes of the keys (or indexes) and values of a container built in the expression.
struct EntrySize
{
    bool list = false;
    SizeEstimate key;
    SizeEstimate value;
};

std::optional<EntrySize> unite(const std::optional<EntrySize> &a, const std::optional<EntrySize> &b)
{
    if (!a || !b)
        return std::nullopt;
    return EntrySize { a->list, unite(a->key, b->key), unite(a->value, b->value) };
}

struct LocalVar
{
    Path path;
    std::optional<SizeEstimate> size;
    std::optional<EntrySize> entrySize;
};

// What a function costs beyond its arguments, by the overload the checker chose.
enum class CostClass {
    Other,
    AddString,
    AddBytes,
    AddList,
    InList,
    MatchesString,
    ContainsString,
    StartsEndsWith,
    CompareStrings,
    Equality,
    IndexList,
    IndexMap,
    StringToBytes,
    BytesToString,
    Quote,
    Format,
};

CostClass classify(const FunctionDecl &d)
{
    const std::string &n = d.name;
    const K first = d.params.empty() ? K::Dyn : d.params[0].kind;
    if (n == "_+_")
        return first == K::String ? CostClass::AddString
            : first == K::Bytes   ? CostClass::AddBytes
            : first == K::List    ? CostClass::AddList
                                  : CostClass::Other;
    if (n == "@in")
        return d.params[1].kind == K::List ? CostClass::InList : CostClass::Other;
    if (n == "matches" && d.receiver)
        return CostClass::MatchesString;
    if (n == "contains" && d.receiver && first == K::String)
        return CostClass::ContainsString;
    if ((n == "startsWith" || n == "endsWith") && d.receiver)
        return CostClass::StartsEndsWith;
    if (n == "_==_" || n == "_!=_")
        return CostClass::Equality;
    if ((n == "_<_" || n == "_<=_" || n == "_>_" || n == "_>=_")
        && (first == K::String || first == K::Bytes))
        return CostClass::CompareStrings;
    if (n == "_[_]")
        return first == K::List ? CostClass::IndexList
            : first == K::Map   ? CostClass::IndexMap
                                : CostClass::Other;
    if (n == "bytes" && first == K::String)
        return CostClass::StringToBytes;
    if (n == "string" && first == K::Bytes)
        return CostClass::BytesToString;
    if (n == "strings.quote")
        return CostClass::Quote;
    if (n == "format" && d.receiver)
        return CostClass::Format;
    return CostClass::Other;
}

struct CallEstimate
{
    CostEstimate cost;
    std::optional<SizeEstimate> resultSize;
};

class Coster final
{
public:
    Coster(const CheckedExpr &checked, const CostOptions &options)
        : m_checked(checked)
        , m_options(options)
    {
    }

    CostEstimate cost(const Expr *e)
    {
        if (!e)
            return {};
        switch (e->kind) {
        case ExprKind::Constant:
            return {};
        case ExprKind::Ident:
            return costIdent(*e);
        case ExprKind::Select:
            return costSelect(*e);
        case ExprKind::Call:
            return costCall(*e);
        case ExprKind::List:
            return costList(*e);
        case ExprKind::Map:
            return costMap(*e);
        case ExprKind::Struct: {
            CostEstimate sum;
            for (const ExprEntry &entry : e->entries)
                sum = sum + cost(entry.value.get());
            return sum + fixed(kStructCreateBaseCost);
        }
        case ExprKind::Comprehension:
            return isBind(*e) ? costBind(*e) : costComprehension(*e);
        }
        return {};
    }

private:
    const CelType &typeOf(const Expr &e) const { return m_checked.typeOf(e.id); }

    const LocalVar *local(const std::string &name) const
    {
        const auto it = m_locals.find(name);
        return it == m_locals.end() || it->second.empty() ? nullptr : &it->second.back();
    }
    void push(const std::string &name, LocalVar v) { m_locals[name].push_back(std::move(v)); }
    void pop(const std::string &name) { m_locals[name].pop_back(); }

    Path pathOf(const Expr &e) const
    {
        if (e.kind == ExprKind::Ident) {
            if (const LocalVar *v = local(e.name))
                return v->path;
        }
        const auto it = m_paths.find(e.id);
        return it == m_paths.end() ? Path {} : it->second;
    }
    static Path extend(Path p, std::string element)
    {
        p.push_back(std::move(element));
        return p;
    }

    std::optional<SizeEstimate> estimateByPath(const Path &path) const
    {
        if (path.empty() || !m_options.sizes)
            return std::nullopt;
        return m_options.sizes->estimateSize(path);
    }

    static std::optional<SizeEstimate> literalSize(const Expr &e)
    {
        if (e.kind == ExprKind::Constant) {
            const Value &v = e.constant;
            switch (v.kind()) {
            case Kind::String:
                return fixedSize(utf8::length(v.asString()));
            case Kind::Bytes:
                return fixedSize(v.asString().size());
            case Kind::Bool:
            case Kind::Double:
            case Kind::Duration:
            case Kind::Int:
            case Kind::Timestamp:
            case Kind::Uint:
            case Kind::Null:
                return fixedSize(1);
            default:
                return std::nullopt;
            }
        }
        if (e.kind == ExprKind::List)
            return fixedSize(e.args.size());
        if (e.kind == ExprKind::Map)
            return fixedSize(e.entries.size());
        return std::nullopt;
    }

    static bool isScalar(const CelType &t)
    {
        switch (t.kind) {
        case K::Bool:
        case K::Double:
        case K::Duration:
        case K::Int:
        case K::Timestamp:
        case K::Uint:
            return true;
        case K::Optional:
            return isScalar(t.params[0]);
        default:
            return false;
        }
    }

    std::optional<SizeEstimate> computeSize(const Expr &e)
    {
        if (const auto it = m_sizes.find(e.id); it != m_sizes.end())
            return it->second;
        if (auto s = literalSize(e))
            return s;
        if (auto s = estimateByPath(pathOf(e))) {
            m_sizes[e.id] = *s;
            return s;
        }
        if (isScalar(typeOf(e)))
            return fixedSize(1);
        if (e.kind == ExprKind::Ident) {
            if (const LocalVar *v = local(e.name); v && v->size)
                return v->size;
        }
        return std::nullopt;
    }
    SizeEstimate sizeOrUnknown(const Expr &e) { return computeSize(e).value_or(kUnknownSize); }

    std::optional<EntrySize> entrySize(const Expr &e) const
    {
        if (const auto it = m_entrySizes.find(e.id); it != m_entrySizes.end())
            return it->second;
        if (e.kind == ExprKind::Ident) {
            if (const LocalVar *v = local(e.name); v && v->entrySize)
                return v->entrySize;
        }
        return std::nullopt;
    }
    void setEntrySize(const Expr &e, const std::optional<EntrySize> &s)
    {
        if (s)
            m_entrySizes[e.id] = *s;
    }
    void setSize(const Expr &e, const std::optional<SizeEstimate> &s)
    {
        if (s)
            m_sizes[e.id] = *s;
    }

    CostEstimate costIdent(const Expr &e)
    {
        m_paths[e.id] = local(e.name) ? local(e.name)->path : Path { e.name };
        return fixed(1);
    }

    CostEstimate costSelect(const Expr &e)
    {
        if (e.testOnly)
            return fixed(m_options.presenceTestHasCost ? 1 : 0) + cost(e.target.get());
        CostEstimate sum = cost(e.target.get());
        const K k = typeOf(*e.target).kind;
        if (k == K::Map || k == K::Object || k == K::Param)
            sum = sum + fixed(1);
        m_paths[e.id] = extend(pathOf(*e.target), e.name);
        return sum;
    }

    CostEstimate costCall(const Expr &e)
    {
        std::vector<const Expr *> args;
        for (const ExprPtr &a : e.args)
            args.push_back(a.get());
        if (e.name == "dyn" && args.size() == 1 && !e.target) {
            const CostEstimate c = fixed(1) + cost(args[0]);
            setSize(e, computeSize(*args[0]));
            setEntrySize(e, entrySize(*args[0]));
            return c;
        }
        std::vector<CostEstimate> argCosts;
        for (const Expr *a : args)
            argCosts.push_back(cost(a));
        CostEstimate sum;
        const Expr *target = nullptr;
        // A receiver that is a qualified function name (optional.of) is not evaluated.
        if (e.target && !isNamespace(e)) {
            sum = sum + cost(e.target.get());
            target = e.target.get();
        }
        const auto it = m_checked.overloads.find(e.id);
        if (it == m_checked.overloads.end() || it->second.empty()) {
            // No typed declaration: charge what cel-go charges an ordinary function.
            CostEstimate c = fixed(1);
            for (const CostEstimate &a : argCosts)
                c = c + a;
            return sum + c;
        }
        CostEstimate fnCost { UINT64_MAX, 0 };
        std::optional<SizeEstimate> resultSize;
        for (const FunctionDecl *d : it->second) {
            const CallEstimate est = functionCost(e, *d, target, args, argCosts);
            fnCost = unite(fnCost, est.cost);
            if (est.resultSize)
                resultSize = resultSize ? unite(*resultSize, *est.resultSize) : *est.resultSize;
            const CostClass o = classify(*d);
            if ((o == CostClass::IndexList || o == CostClass::IndexMap) && !args.empty()) {
                if (const auto entries = entrySize(*args[0]))
                    resultSize = entries->value;
                else
                    resultSize.reset();
                m_paths[e.id]
                    = extend(pathOf(*args[0]), o == CostClass::IndexList ? "@items" : "@values");
            }
            if (!resultSize)
                resultSize = computeSize(e);
        }
        setSize(e, resultSize);
        return sum + fnCost;
    }

    bool isNamespace(const Expr &call) const
    {
        // The checker typed the call as a global function when the receiver is a namespace.
        const auto it = m_checked.overloads.find(call.id);
        return it != m_checked.overloads.end() && !it->second.empty() && !it->second[0]->receiver;
    }

    CallEstimate functionCost(const Expr &e, const FunctionDecl &d, const Expr *target,
        const std::vector<const Expr *> &args, const std::vector<CostEstimate> &argCosts)
    {
        CostEstimate argSum;
        for (const CostEstimate &a : argCosts)
            argSum = argSum + a;
        if (m_options.kubernetesLibraries) {
            if (auto est = kubernetesCost(d, target, args)) {
                est->cost = est->cost + argSum;
                return *est;
            }
        }
        switch (classify(d)) {
        case CostClass::Format:
            if (target) {
                const SizeEstimate t = sizeOrUnknown(*target);
                const SizeEstimate a = sizeOrUnknown(*args[0]);
                return { factor(t, kStringTraversalCostFactor) + argSum, t + a };
            }
            break;
        case CostClass::StringToBytes: {
            const SizeEstimate s = sizeOrUnknown(*args[0]);
            return { factor(s, kStringTraversalCostFactor) + argSum,
                SizeEstimate { s.min, mulSat(s.max, 4) } };
        }
        case CostClass::BytesToString: {
            const SizeEstimate s = sizeOrUnknown(*args[0]);
            return { factor(s, kStringTraversalCostFactor) + argSum,
                SizeEstimate { s.min / 4, s.max } };
        }
        case CostClass::Quote: {
            const SizeEstimate s = sizeOrUnknown(*args[0]);
            return { factor(s, kStringTraversalCostFactor) + argSum,
                SizeEstimate { addSat(s.min, 2), addSat(mulSat(s.max, 2), 2) } };
        }
        case CostClass::StartsEndsWith:
            if (args.size() == 1)
                return { factor(sizeOrUnknown(*args[0]), kStringTraversalCostFactor) + argSum, {} };
            break;
        case CostClass::InList:
            if (args.size() == 2)
                return { factor(sizeOrUnknown(*args[1]), 1) + argSum, {} };
            break;
        case CostClass::MatchesString:
            if (target && args.size() == 1) {
                const CostEstimate str
                    = factor(sizeOrUnknown(*target) + fixedSize(1), kStringTraversalCostFactor);
                const CostEstimate regex
                    = factor(sizeOrUnknown(*args[0]), kRegexStringLengthCostFactor);
                return { times(str, regex) + argSum, {} };
            }
            break;
        case CostClass::ContainsString:
            if (target && args.size() == 1) {
                const CostEstimate str = factor(sizeOrUnknown(*target), kStringTraversalCostFactor);
                const CostEstimate sub
                    = factor(sizeOrUnknown(*args[0]), kStringTraversalCostFactor);
                return { times(str, sub) + argSum, {} };
            }
            break;
        case CostClass::AddString:
        case CostClass::AddBytes:
        case CostClass::AddList:
            if (args.size() == 2) {
                const SizeEstimate size = sizeOrUnknown(*args[0]) + sizeOrUnknown(*args[1]);
                setEntrySize(e, unite(entrySize(*args[0]), entrySize(*args[1])));
                if (classify(d) == CostClass::AddList)
                    return { fixed(1) + argSum, size };
                return { factor(size, kStringTraversalCostFactor) + argSum, size };
            }
            break;
        case CostClass::CompareStrings:
        case CostClass::Equality: {
            const SizeEstimate l = sizeOrUnknown(*args[0]);
            const SizeEstimate r = sizeOrUnknown(*args[1]);
            const uint64_t smallestMax = std::min(l.max, r.max);
            const CostEstimate c { smallestMax > 0 ? 1u : 0u, smallestMax };
            return { CostEstimate { mulFactor(c.min, kStringTraversalCostFactor),
                         mulFactor(c.max, kStringTraversalCostFactor) }
                    + argSum,
                {} };
        }
        default:
            break;
        }
        if (d.name == "_&&_" || d.name == "_||_") {
            return { CostEstimate { argCosts[0].min, (argCosts[0] + argCosts[1]).max }, {} };
        }
        if (d.name == "_?_:_") {
            const SizeEstimate size = unite(sizeOrUnknown(*args[1]), sizeOrUnknown(*args[2]));
            setEntrySize(e, unite(entrySize(*args[1]), entrySize(*args[2])));
            return { argCosts[0] + unite(argCosts[1], argCosts[2]), size };
        }
        return { fixed(1) + argSum, {} };
    }

    // The element of a list (or the key of a map) `container` holds, for Kubernetes' list
    // functions: its type and its size bound by path.
    std::optional<std::pair<CelType, std::optional<SizeEstimate>>> elementOf(const Expr &container)
    {
        const CelType &t = typeOf(container);
        if (t.params.empty())
            return std::nullopt;
        Path p = pathOf(container);
        std::optional<SizeEstimate> size;
        if (!p.empty())
            size = estimateByPath(extend(p, "@items"));
        return std::make_pair(t.params[0], size);
    }

    // Kubernetes' library cost estimator: consulted before cel-go's own rules.
    std::optional<CallEstimate> kubernetesCost(
        const FunctionDecl &d, const Expr *target, const std::vector<const Expr *> &args)
    {
        const std::string &fn = d.name;
        const auto size = [&](const Expr &x) { return sizeOrUnknown(x); };
        if (fn == "isSorted" || fn == "sum" || fn == "max" || fn == "min" || fn == "indexOf"
            || fn == "lastIndexOf") {
            if (!target)
                return std::nullopt;
            if (const auto element = elementOf(*target)) {
                CostEstimate perElement = fixed(1);
                if (element->first.is(K::String) || element->first.is(K::Bytes))
                    perElement = perElement
                        + factor(
                            element->second.value_or(kUnknownSize), kStringTraversalCostFactor);
                return CallEstimate { sizeTimesCost(size(*target), perElement), {} };
            }
            return CallEstimate { factor(size(*target), kStringTraversalCostFactor), {} };
        }
        if (fn == "includes" && target) {
            // DRA's includes(): at most 48 comparisons, whatever the receiver's size estimate.
            return CallEstimate { sizeTimesCost(SizeEstimate { 0, 48 }, fixed(1)), {} };
        }
        if (fn == "url" && args.size() == 1 && !target)
            return CallEstimate { factor(size(*args[0]), kStringTraversalCostFactor), {} };
        if ((fn == "lowerAscii" || fn == "upperAscii" || fn == "substring" || fn == "trim")
            && target) {
            const SizeEstimate s = size(*target);
            return CallEstimate { factor(s, kStringTraversalCostFactor), s };
        }
        if (fn == "replace" && target && args.size() >= 2)
            return replaceCost(size(*target), size(*args[0]), size(*args[1]));
        if (fn == "split" && target) {
            const SizeEstimate s = size(*target);
            uint64_t max = s.max;
            if (args.size() > 1 && args[1]->kind == ExprKind::Constant
                && args[1]->constant.kind() == Kind::Int)
                max = static_cast<uint64_t>(args[1]->constant.asInt());
            return CallEstimate { factor(s, 2 * kStringTraversalCostFactor),
                SizeEstimate { 0, max } };
        }
        if (fn == "join" && target) {
            SizeEstimate s { 0, 0 };
            const SizeEstimate listSize = size(*target);
            if (const auto element = elementOf(*target))
                s = times(listSize, element->second.value_or(kUnknownSize));
            if (!args.empty()) {
                const SizeEstimate separators { listSize.min > 0 ? listSize.min - 1 : 0,
                    listSize.max > 0 ? listSize.max - 1 : 0 };
                s = s + times(size(*args[0]), separators);
            }
            return CallEstimate { factor(s, kStringTraversalCostFactor), s };
        }
        if ((fn == "find" || fn == "findAll") && target && !args.empty()) {
            const SizeEstimate s = size(*target);
            const CostEstimate str = factor(s + fixedSize(1), kStringTraversalCostFactor);
            const CostEstimate regex = factor(size(*args[0]), kRegexStringLengthCostFactor);
            return CallEstimate { times(str, regex), SizeEstimate { 0, s.max } };
        }
        if (fn == "ip" && target)
            return CallEstimate { fixed(1), {} }; // cidr.ip(): a field access
        if (fn == "ip.isCanonical" && !args.empty())
            return std::nullopt; // Kubernetes only prices the receiver form, which CEL lacks
        if (fn == "masked" || fn == "prefixLength" || fn == "family" || fn == "isUnspecified"
            || fn == "isLoopback" || fn == "isLinkLocalMulticast" || fn == "isLinkLocalUnicast")
            return CallEstimate { fixed(1), {} };
        if ((fn == "containsIP" || fn == "containsCIDR") && target && !args.empty()) {
            const SizeEstimate bytes { 4, 16 };
            CostEstimate c = factor(bytes + bytes, kStringTraversalCostFactor);
            if (fn == "containsCIDR")
                c = c + factor(bytes, kStringTraversalCostFactor) + fixed(1);
            if (d.params.size() == 2 && d.params[1].is(K::String))
                c = c + factor(size(*args[0]), kStringTraversalCostFactor);
            return CallEstimate { c, {} };
        }
        // quantity() and isQuantity() are priced by Kubernetes only in receiver form, which
        // never occurs, so they cost 1 like any function; the Quantity methods cost 1 too.
        return std::nullopt;
    }

    static CallEstimate replaceCost(SizeEstimate s, SizeEstimate toReplace, SizeEstimate with)
    {
        SizeEstimate count { 0, 0 }, retained { 0, 0 };
        if (toReplace.min == 0) {
            count.max = s.max < UINT64_MAX ? s.max + 1 : s.max;
            retained.max = s.max;
        } else if (with.max <= toReplace.min) {
            retained.max = s.max;
        } else {
            count.max = static_cast<uint64_t>(
                std::ceil(static_cast<double>(s.max) / static_cast<double>(toReplace.min)));
        }
        if (toReplace.max == 0) {
            count.min = s.min < UINT64_MAX ? s.min + 1 : s.min;
            retained.min = s.min;
        } else if (toReplace.max <= with.min) {
            retained.min = s.min;
        } else {
            count.min = static_cast<uint64_t>(
                std::ceil(static_cast<double>(s.min) / static_cast<double>(toReplace.max)));
        }
        const SizeEstimate result = times(count, with) + retained;
        return { factor(s, 2 * kStringTraversalCostFactor), result };
    }

    CostEstimate costList(const Expr &e)
    {
        CostEstimate sum;
        SizeEstimate item { e.args.empty() ? 0 : UINT64_MAX, 0 };
        for (const ExprPtr &a : e.args) {
            sum = sum + cost(a.get());
            item = unite(item, sizeOrUnknown(*a));
        }
        m_entrySizes[e.id] = EntrySize { true, fixedSize(1), item };
        return sum + fixed(kListCreateBaseCost);
    }

    CostEstimate costMap(const Expr &e)
    {
        CostEstimate sum;
        const uint64_t start = e.entries.empty() ? 0 : UINT64_MAX;
        SizeEstimate key { start, 0 }, value { start, 0 };
        for (const ExprEntry &entry : e.entries) {
            sum = sum + cost(entry.key.get()) + cost(entry.value.get());
            key = unite(key, sizeOrUnknown(*entry.key));
            value = unite(value, sizeOrUnknown(*entry.value));
        }
        m_entrySizes[e.id] = EntrySize { false, key, value };
        return sum + fixed(kMapCreateBaseCost);
    }

    static bool isBind(const Expr &e)
    {
        return e.iterRange->kind == ExprKind::List && e.iterRange->args.empty()
            && e.loopCondition->kind == ExprKind::Constant
            && e.loopCondition->constant.kind() == Kind::Bool && !e.loopCondition->constant.asBool()
            && e.accuVar != kAccumulatorName;
    }

    void pushLocal(const std::string &name, const Expr &bound)
    {
        push(name, LocalVar { pathOf(bound), computeSize(bound), entrySize(bound) });
    }

    CostEstimate costBind(const Expr &e)
    {
        CostEstimate sum = cost(e.iterRange.get()) + cost(e.accuInit.get());
        pushLocal(e.accuVar, *e.accuInit);
        sum = sum + cost(e.result.get());
        pop(e.accuVar);
        setSize(e, computeSize(*e.result));
        setEntrySize(e, entrySize(*e.result));
        return sum;
    }

    // Whether iterating `range` walks a list, judged by what was built or by its type.
    bool isListRange(const Expr &range) const
    {
        if (const auto entries = entrySize(range))
            return entries->list;
        return typeOf(range).is(K::List);
    }

    CostEstimate costComprehension(const Expr &e)
    {
        const Expr &range = *e.iterRange;
        CostEstimate sum = cost(&range) + cost(e.accuInit.get());
        pushLocal(e.accuVar, *e.accuInit);
        const auto entries = entrySize(range);
        const bool list = isListRange(range);
        const Path base = pathOf(range);
        if (!e.iterVar2.empty()) {
            push(e.iterVar,
                LocalVar { extend(base, list ? "@indices" : "@keys"),
                    entries ? std::optional(entries->key) : std::nullopt, {} });
            push(e.iterVar2,
                LocalVar { extend(base, list ? "@items" : "@values"),
                    entries ? std::optional(entries->value) : std::nullopt, {} });
        } else {
            std::optional<SizeEstimate> size;
            if (entries)
                size = list ? entries->value : entries->key;
            push(e.iterVar, LocalVar { extend(base, list ? "@items" : "@keys"), size, {} });
        }
        const CostEstimate loop = cost(e.loopCondition.get());
        const CostEstimate step = cost(e.loopStep.get());
        pop(e.iterVar);
        if (!e.iterVar2.empty())
            pop(e.iterVar2);
        sum = sum + cost(e.result.get());
        pop(e.accuVar);
        const SizeEstimate rangeCount = sizeOrUnknown(range);
        sum = sum + sizeTimesCost(rangeCount, step + loop);
        const ExprKind init = e.accuInit->kind;
        if (init == ExprKind::Constant) {
            setSize(e, computeSize(*e.accuInit));
        } else if (init == ExprKind::List || init == ExprKind::Map) {
            setSize(e, rangeCount);
            setEntrySize(e, entrySize(*e.loopStep));
        }
        return sum;
    }

    const CheckedExpr &m_checked;
    const CostOptions &m_options;
    std::unordered_map<int64_t, Path> m_paths;
    std::unordered_map<int64_t, SizeEstimate> m_sizes;
    std::unordered_map<int64_t, EntrySize> m_entrySizes;
    std::map<std::string, std::vector<LocalVar>> m_locals;
};

} // namespace

CostEstimate estimateCost(
    const ParsedExpr &parsed, const CheckedExpr &checked, const CostOptions &options)
{
    if (!parsed.root)
        return {};
    return Coster(checked, options).cost(parsed.root.get());
}

} // namespace dra::cel
