// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Turns a parsed expression into a tree of evaluation nodes: identifiers are resolved to
// variable indexes or local slots, calls to overload candidates, and constant calls are
// folded, so evaluation never looks anything up by name.

#include <algorithm>
#include <array>
#include <cctype>

#include "core/cel/interpreter.h"
#include "core/cel/lib_common.h"
#include "core/cel/program.h"

namespace dra::cel {

namespace {

constexpr std::array<std::string_view, 18> kTypeNames
    = { "int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type",
          "google.protobuf.Timestamp", "google.protobuf.Duration", "optional_type", "net.IP",
          "net.CIDR", "kubernetes.Quantity", "kubernetes.Semver", "kubernetes.URL" };

std::optional<std::string_view> typeName(std::string_view name)
{
    for (std::string_view t : kTypeNames) {
        if (t == name)
            return t;
    }
    return std::nullopt;
}

size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1]))
                == std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1) });
            diagonal = above;
        }
    }
    return row[b.size()];
}

// The closest known name to a misspelt one, or empty when nothing is close.
std::string closestName(std::string_view wrong, const std::vector<std::string_view> &known)
{
    std::string best;
    size_t bestDistance = std::max<size_t>(1, std::min<size_t>(3, wrong.size() / 3));
    for (std::string_view k : known) {
        if (k.empty() || k.front() == '@' || k.front() == '_'
            || k.find('@') != std::string_view::npos)
            continue;
        const size_t d = editDistance(wrong, k);
        if (d <= bestDistance && (best.empty() || d < bestDistance)) {
            best = std::string(k);
            bestDistance = d;
        }
    }
    return best;
}

class Planner final
{
public:
    Planner(const Environment &env, const ParsedExpr &parsed, const PlanOptions &options,
        std::vector<Diagnostic> *diagnostics)
        : m_env(env)
        , m_info(parsed.source)
        , m_options(options)
        , m_diagnostics(diagnostics)
    {
    }

    NodePtr plan(const Expr &e)
    {
        switch (e.kind) {
        case ExprKind::Constant:
            return std::make_unique<ConstNode>(e.constant);
        case ExprKind::Ident:
            return planIdent(e.name, e.offset, true);
        case ExprKind::Select:
            return planSelect(e);
        case ExprKind::Call:
            return planCall(e);
        case ExprKind::List: {
            std::vector<NodePtr> elements;
            std::vector<bool> optional(e.args.size(), false);
            for (int32_t i : e.optionalIndices)
                optional[static_cast<size_t>(i)] = true;
            for (const ExprPtr &a : e.args)
                elements.push_back(plan(*a));
            if (m_options.validateLiterals)
                checkHomogeneous(elements, e);
            return std::make_unique<ListNode>(std::move(elements), std::move(optional));
        }
        case ExprKind::Map: {
            std::vector<NodePtr> keys;
            std::vector<NodePtr> values;
            std::vector<bool> optional;
            for (const ExprEntry &entry : e.entries) {
                keys.push_back(plan(*entry.key));
                values.push_back(plan(*entry.value));
                optional.push_back(entry.optional);
            }
            return std::make_unique<MapNode>(
                std::move(keys), std::move(values), std::move(optional));
        }
        case ExprKind::Struct:
            return planMessage(e);
        case ExprKind::Comprehension:
            return planComprehension(e);
        }
        return std::make_unique<ErrorNode>("unsupported expression");
    }

    // Kubernetes requires list literals to be homogeneous. Without the type checker only
    // literal elements can be compared: [1, 'a'] is rejected, [x, 'a'] is not (yet).
    void checkHomogeneous(const std::vector<NodePtr> &elements, const Expr &e)
    {
        const Value *first = nullptr;
        for (size_t i = 0; i < elements.size(); ++i) {
            const Value *v = elements[i]->constant();
            if (!v || v->kind() == Kind::Null)
                continue;
            if (!first) {
                first = v;
            } else if (v->kind() != first->kind()) {
                error(e.args[i]->offset,
                    "expected type '" + std::string(first->typeName()) + "' but found '"
                        + std::string(v->typeName()) + "'");
                return;
            }
        }
    }

    int localCount() const { return m_nextSlot; }
    bool failed() const { return m_failed; }

private:
    void error(int32_t offset, std::string message)
    {
        m_failed = true;
        addError(m_diagnostics, m_info, offset, std::move(message));
    }

    int findLocal(std::string_view name) const
    {
        for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
            if (it->first == name)
                return it->second;
        }
        return -1;
    }

    // Candidate spellings of `name` in the container, most qualified first.
    std::vector<std::string> candidateNames(std::string_view name) const
    {
        if (!name.empty() && name.front() == '.')
            return { std::string(name.substr(1)) };
        std::vector<std::string> out;
        std::string container = m_env.container();
        while (!container.empty()) {
            out.push_back(container + "." + std::string(name));
            const size_t dot = container.rfind('.');
            container = dot == std::string::npos ? std::string() : container.substr(0, dot);
        }
        out.emplace_back(name);
        return out;
    }

    // A variable or type named exactly `name` (after container resolution), or nullptr.
    NodePtr resolveName(std::string_view name, bool allowLocal)
    {
        if (allowLocal && name.front() != '.') {
            const int slot = findLocal(name);
            if (slot >= 0)
                return std::make_unique<LocalNode>(slot);
        }
        for (const std::string &candidate : candidateNames(name)) {
            const int index = m_env.variableIndex(candidate);
            if (index >= 0)
                return std::make_unique<VariableNode>(static_cast<size_t>(index));
        }
        for (const std::string &candidate : candidateNames(name)) {
            if (auto t = typeName(candidate))
                return std::make_unique<ConstNode>(Value::type(*t));
        }
        return nullptr;
    }

    NodePtr planIdent(const std::string &name, int32_t offset, bool report)
    {
        if (name.starts_with("@index")) {
            const int slot = blockSlot(std::atoi(name.c_str() + 6));
            if (slot >= 0)
                return std::make_unique<LocalNode>(slot);
        }
        if (NodePtr n = resolveName(name, true))
            return n;
        std::string message
            = "undeclared reference to '" + name + "' (in container '" + m_env.container() + "')";
        std::vector<std::string_view> known(m_env.variables().begin(), m_env.variables().end());
        for (const auto &scope : m_scopes)
            known.emplace_back(scope.first);
        if (const std::string hint = closestName(name, known); !hint.empty())
            message += "; did you mean '" + hint + "'?";
        // Planning goes on after the error, so that every mistake is reported at once.
        if (m_options.reportUnresolved && report)
            error(offset, message);
        return std::make_unique<ErrorNode>(message);
    }

    // The dotted name of an Ident/Select chain, or empty when it is not one.
    static std::string dottedName(const Expr &e)
    {
        if (e.kind == ExprKind::Ident)
            return e.name;
        if (e.kind == ExprKind::Select && !e.testOnly && e.target) {
            std::string prefix = dottedName(*e.target);
            return prefix.empty() ? std::string() : prefix + "." + e.name;
        }
        return {};
    }

    static const Expr &chainRoot(const Expr &e)
    {
        return e.kind == ExprKind::Select ? chainRoot(*e.target) : e;
    }

    NodePtr planSelect(const Expr &e)
    {
        // `a.b.c` may name a variable "a.b.c" or "a.b" (qualified declarations), unless `a` is
        // a comprehension variable.
        const std::string full = dottedName(e);
        if (!full.empty() && !e.testOnly && findLocal(chainRoot(e).name) < 0) {
            if (NodePtr n = resolveName(full, false))
                return n;
        }
        NodePtr operand;
        const std::string operandName = dottedName(*e.target);
        if (!operandName.empty() && findLocal(chainRoot(*e.target).name) < 0)
            operand = resolveName(operandName, false);
        if (!operand) {
            if (e.target->kind == ExprKind::Select)
                operand = planSelect(*e.target);
            else
                operand = plan(*e.target);
        }
        if (!operand)
            return std::make_unique<ErrorNode>("unresolved operand");
        return withPathAccessor(
            e, std::make_unique<SelectNode>(std::move(operand), e.name, e.testOnly));
    }

    // `generic`, or the host environment's direct accessor for the path `e` names.
    NodePtr withPathAccessor(const Expr &e, NodePtr generic)
    {
        if (!rootIsVariable(e))
            return generic;
        if (m_options.paths)
            return m_options.paths->compilePath(e, std::move(generic));
        return mapPath(std::move(generic));
    }

    // `generic`, a chain of selects and constant indexes from a variable, as one MapPathNode
    // when it has two steps or more (one step gains nothing over the select itself); else
    // `generic`. Read from the planned nodes, so that a qualified name the planner resolved to
    // one variable is never mistaken for a path.
    NodePtr mapPath(NodePtr generic)
    {
        std::vector<MapPathNode::Step> steps;
        const Node *node = generic.get();
        while (true) {
            if (const auto *select = dynamic_cast<const SelectNode *>(node);
                select && !select->testOnly()) {
                const Value key = Value::string(std::string(select->field()));
                const uint64_t hash = hashKey(key);
                steps.push_back({ key, hash });
                node = &select->operand();
            } else if (const auto *index = dynamic_cast<const IndexNode *>(node);
                       index && !index->optional() && index->constantKey()) {
                steps.push_back({ *index->constantKey(), index->constantKeyHash() });
                node = &index->operand();
            } else {
                break;
            }
        }
        size_t variable = 0;
        if (const auto *path = dynamic_cast<const MapPathNode *>(node)) {
            steps.insert(steps.end(), path->steps().rbegin(), path->steps().rend());
            variable = path->variable();
        } else if (const auto *root = dynamic_cast<const VariableNode *>(node)) {
            variable = root->index();
        } else {
            return generic;
        }
        if (steps.size() < 2)
            return generic;
        std::reverse(steps.begin(), steps.end());
        return std::make_unique<MapPathNode>(
            variable, std::move(steps), m_mapPaths++, std::move(generic));
    }

    // Whether the chain of selects and indexes `e` ends in a variable (not a local).
    bool rootIsVariable(const Expr &e) const
    {
        const Expr *root = &e;
        while (true) {
            if (root->kind == ExprKind::Select && root->target)
                root = root->target.get();
            else if (root->kind == ExprKind::Call && !root->target && root->name == "_[_]"
                && root->args.size() == 2)
                root = root->args[0].get();
            else
                break;
        }
        return root->kind == ExprKind::Ident && findLocal(root->name) < 0;
    }

    int blockSlot(int index) const
    {
        if (m_blocks.empty() || index < 0 || index >= m_blocks.back().second)
            return -1;
        return m_blocks.back().first + index;
    }

    NodePtr planCall(const Expr &e)
    {
        NodePtr node = planFunctionCall(e);
        // `"key" in map`: the host environment may test a path's presence directly.
        if (m_options.paths && !e.target && e.name == "@in" && e.args.size() == 2
            && rootIsVariable(*e.args[1]))
            return m_options.paths->compileKeyTest(e, std::move(node));
        return node;
    }

    NodePtr planFunctionCall(const Expr &e)
    {
        const std::string &fn = e.name;
        const size_t n = e.args.size();
        if (!e.target) {
            if ((fn == "_&&_" || fn == "_||_") && n == 2)
                return std::make_unique<LogicNode>(
                    plan(*e.args[0]), plan(*e.args[1]), fn == "_&&_");
            if (fn == "_?_:_" && n == 3)
                return std::make_unique<TernaryNode>(
                    plan(*e.args[0]), plan(*e.args[1]), plan(*e.args[2]));
            if (fn == "@not_strictly_false" && n == 1)
                return std::make_unique<NotStrictlyFalseNode>(plan(*e.args[0]));
            if ((fn == "_[_]" || fn == "_[?_]" || fn == "_?._") && n == 2) {
                NodePtr index
                    = std::make_unique<IndexNode>(plan(*e.args[0]), plan(*e.args[1]), fn != "_[_]");
                return fn == "_[_]" ? withPathAccessor(e, std::move(index)) : std::move(index);
            }
        }
        // cel.block / cel.index: common subexpressions bound to slots.
        if (e.target && e.target->kind == ExprKind::Ident && e.target->name == "cel"
            && findLocal("cel") < 0 && m_env.variableIndex("cel") < 0) {
            if ((fn == "block" || fn == "@block") && n == 2 && e.args[0]->kind == ExprKind::List) {
                const int first = m_nextSlot;
                const int count = static_cast<int>(e.args[0]->args.size());
                m_nextSlot += count;
                std::vector<NodePtr> inits;
                for (int i = 0; i < count; ++i) {
                    m_blocks.emplace_back(first, i);
                    inits.push_back(plan(*e.args[0]->args[static_cast<size_t>(i)]));
                    m_blocks.pop_back();
                }
                m_blocks.emplace_back(first, count);
                NodePtr body = plan(*e.args[1]);
                m_blocks.pop_back();
                return std::make_unique<BlockNode>(first, std::move(inits), std::move(body));
            }
            if ((fn == "iterVar" || fn == "accuVar") && n == 2
                && e.args[0]->kind == ExprKind::Constant && e.args[1]->kind == ExprKind::Constant) {
                const std::string name = std::string(fn == "iterVar" ? "@it:" : "@ac:")
                    + e.args[0]->constant.debugString() + ":" + e.args[1]->constant.debugString();
                const int slot = findLocal(name);
                if (slot >= 0)
                    return std::make_unique<LocalNode>(slot);
            }
            if (fn == "index" && n == 1 && e.args[0]->kind == ExprKind::Constant
                && e.args[0]->constant.kind() == Kind::Int) {
                const int slot = blockSlot(static_cast<int>(e.args[0]->constant.asInt()));
                if (slot < 0) {
                    error(e.offset, "invalid cel.index reference");
                    return std::make_unique<ErrorNode>("invalid cel.index reference");
                }
                return std::make_unique<LocalNode>(slot);
            }
        }
        if (e.target && (fn == "or" || fn == "orValue") && n == 1
            && m_env.functions().hasFunction(fn)) {
            const std::string prefix = dottedName(*e.target);
            if (prefix.empty() || findLocal(chainRoot(*e.target).name) >= 0
                || resolveName(prefix, false) || !m_env.functions().hasGlobal(prefix + "." + fn))
                return std::make_unique<OptionalOrNode>(
                    plan(*e.target), plan(*e.args[0]), fn == "orValue");
        }
        // A receiver that is really a namespace: math.greatest(...), optional.of(...).
        std::string globalName = fn;
        bool receiver = e.target != nullptr;
        if (e.target) {
            const std::string prefix = dottedName(*e.target);
            if (!prefix.empty() && findLocal(chainRoot(*e.target).name) < 0
                && !resolveName(prefix, false)) {
                for (const std::string &candidate : candidateNames(prefix + "." + fn)) {
                    if (m_env.functions().hasGlobal(candidate)) {
                        globalName = candidate;
                        receiver = false;
                        break;
                    }
                }
            }
        } else {
            for (const std::string &candidate : candidateNames(fn)) {
                if (m_env.functions().hasFunction(candidate)) {
                    globalName = candidate;
                    break;
                }
            }
        }
        std::vector<NodePtr> args;
        if (receiver)
            args.push_back(plan(*e.target));
        for (const ExprPtr &a : e.args)
            args.push_back(plan(*a));
        if (!m_env.functions().hasFunction(globalName)) {
            if (m_options.reportUnresolved) {
                std::string message = "undeclared reference to '" + globalName + "' (in container '"
                    + m_env.container() + "')";
                if (const std::string hint = closestName(globalName, m_env.functions().names());
                    !hint.empty())
                    message += "; did you mean '" + hint + "'?";
                error(e.offset, message);
            }
            return std::make_unique<ErrorNode>("unbound function " + globalName);
        }
        bool allConstant = true;
        for (const NodePtr &a : args)
            allConstant = allConstant && a->constant();
        if (m_options.validateLiterals)
            validateLiteralArguments(globalName, receiver, args, e.offset);
        std::vector<const Overload *> candidates
            = m_env.functions().candidates(globalName, receiver, args.size());
        if (!allConstant) {
            if (NodePtr compare = equalsConstant(globalName, candidates, args))
                return compare;
            if (NodePtr compare = compareConstant(globalName, candidates, args))
                return compare;
            if (NodePtr membership = inConstantList(globalName, candidates, args))
                return membership;
            return std::make_unique<CallNode>(globalName, std::move(candidates), std::move(args));
        }
        auto node = std::make_unique<CallNode>(globalName, std::move(candidates), std::move(args));
        // Calls of constants are evaluated once, here; errors stay runtime errors so that
        // error absorption by && and || still applies.
        EvalFrame frame;
        Value folded = node->eval(frame);
        if (folded.isError())
            return node;
        return std::make_unique<ConstNode>(std::move(folded));
    }

    // `x == c` / `x != c` with one constant side, as an EqualsConstantNode. Only when the
    // standard library's single (dyn, dyn) overload is the one candidate, which is CEL
    // equality; an environment overloading == keeps the generic call.
    static NodePtr equalsConstant(const std::string &fn,
        const std::vector<const Overload *> &candidates, std::vector<NodePtr> &args)
    {
        if ((fn != "_==_" && fn != "_!=_") || args.size() != 2 || !takesTwoDyn(candidates))
            return nullptr;
        const size_t constant = args[1]->constant() ? 1 : args[0]->constant() ? 0 : 2;
        if (constant == 2)
            return nullptr;
        return std::make_unique<EqualsConstantNode>(
            std::move(args[1 - constant]), *args[constant]->constant(), fn == "_!=_");
    }

    // `x < c` and the other orderings with one constant side, as a CompareConstantNode. As for
    // equality, only over the standard library's single (dyn, dyn) overload.
    static NodePtr compareConstant(const std::string &fn,
        const std::vector<const Overload *> &candidates, std::vector<NodePtr> &args)
    {
        static const std::array<std::pair<std::string_view, Ordering>, 4> orderings { {
            { "_<_", Ordering::Less },
            { "_<=_", Ordering::LessEqual },
            { "_>_", Ordering::Greater },
            { "_>=_", Ordering::GreaterEqual },
        } };
        const auto op = std::find_if(orderings.begin(), orderings.end(),
            [&](const auto &entry) { return entry.first == fn; });
        if (op == orderings.end() || args.size() != 2 || !takesTwoDyn(candidates))
            return nullptr;
        const size_t constant = args[1]->constant() ? 1 : args[0]->constant() ? 0 : 2;
        if (constant == 2)
            return nullptr;
        return std::make_unique<CompareConstantNode>(
            std::move(args[1 - constant]), *args[constant]->constant(), op->second, constant == 0);
    }

    // `x in [a, b]` with a constant list, as an InConstantListNode: when the list overload the
    // call would pick for a list (the first whose parameters are (dyn, list)) is the standard
    // one.
    static NodePtr inConstantList(const std::string &fn,
        const std::vector<const Overload *> &candidates, std::vector<NodePtr> &args)
    {
        if (fn != "@in" || args.size() != 2 || !args[1]->constant()
            || args[1]->constant()->kind() != Kind::List)
            return nullptr;
        for (const Overload *o : candidates) {
            if (o->params.size() != 2 || o->params[0].kind != Kind::Dyn)
                return nullptr;
            if (o->params[1].kind == Kind::List)
                return std::make_unique<InConstantListNode>(
                    std::move(args[0]), *args[1]->constant());
            if (o->params[1].kind == Kind::Dyn)
                return nullptr;
        }
        return nullptr;
    }

    // The standard library's single (dyn, dyn) overload is the one candidate.
    static bool takesTwoDyn(const std::vector<const Overload *> &candidates)
    {
        return candidates.size() == 1 && candidates[0]->params.size() == 2
            && candidates[0]->params[0].kind == Kind::Dyn
            && candidates[0]->params[1].kind == Kind::Dyn;
    }

    // Kubernetes' literal validators: a constant duration, timestamp or regular expression
    // that cannot be parsed is a compile error, not a runtime one.
    void validateLiteralArguments(
        const std::string &fn, bool receiver, const std::vector<NodePtr> &args, int32_t offset)
    {
        auto constantString = [&](size_t i) -> const Value * {
            const Value *v = i < args.size() ? args[i]->constant() : nullptr;
            return v && v->kind() == Kind::String ? v : nullptr;
        };
        if (!receiver && args.size() == 1 && (fn == "duration" || fn == "timestamp")) {
            if (const Value *text = constantString(0)) {
                EvalFrame frame;
                const std::array<Value, 1> values { *text };
                const auto candidates = m_env.functions().candidates(fn, false, 1);
                for (const Overload *o : candidates) {
                    if (o->params[0].accepts(*text)) {
                        const Value v = o->impl(values, frame);
                        if (v.isError())
                            error(offset, std::string(v.asString()));
                        break;
                    }
                }
            }
            return;
        }
        if ((fn == "matches" || fn == "find" || fn == "findAll") && args.size() >= 2) {
            if (const Value *pattern = constantString(1)) {
                if (std::optional<std::string> why = regexError(pattern->asString()))
                    error(offset,
                        "invalid regular expression '" + std::string(pattern->asString())
                            + "': " + *why);
            }
        }
    }

    // Message construction. Only the protobuf wrapper types are known: they stand for their
    // primitive value (google.protobuf.Int64Value{value: 1} is 1, {} is 0).
    NodePtr planMessage(const Expr &e)
    {
        std::string name = e.name;
        if (!name.empty() && name.front() == '.')
            name.erase(0, 1);
        static constexpr std::array<std::pair<std::string_view, Kind>, 10> kWrappers = { {
            { "google.protobuf.BoolValue", Kind::Bool },
            { "google.protobuf.BytesValue", Kind::Bytes },
            { "google.protobuf.DoubleValue", Kind::Double },
            { "google.protobuf.FloatValue", Kind::Double },
            { "google.protobuf.Int32Value", Kind::Int },
            { "google.protobuf.Int64Value", Kind::Int },
            { "google.protobuf.StringValue", Kind::String },
            { "google.protobuf.UInt32Value", Kind::Uint },
            { "google.protobuf.UInt64Value", Kind::Uint },
            { "google.protobuf.Value", Kind::Null },
        } };
        for (const auto &[wrapper, kind] : kWrappers) {
            if (name != wrapper)
                continue;
            NodePtr value;
            for (const ExprEntry &entry : e.entries) {
                if (entry.field != "value" || kind == Kind::Null) {
                    error(entry.offset, "no such field '" + entry.field + "' in " + name);
                    return std::make_unique<ErrorNode>("no such field " + entry.field);
                }
                value = plan(*entry.value);
            }
            return std::make_unique<WrapperNode>(kind, wrapper.find("32") != std::string_view::npos,
                wrapper == "google.protobuf.FloatValue", std::move(value));
        }
        error(e.offset, "unknown message type '" + e.name + "'");
        return std::make_unique<ErrorNode>("unknown message type " + e.name);
    }

    NodePtr planComprehension(const Expr &e)
    {
        ComprehensionNode::Parts parts;
        parts.range = plan(*e.iterRange);
        parts.init = plan(*e.accuInit);
        parts.accuSlot = m_nextSlot++;
        parts.iterSlot = m_nextSlot++;
        if (!e.iterVar2.empty())
            parts.iter2Slot = m_nextSlot++;
        m_scopes.emplace_back(e.accuVar, parts.accuSlot);
        m_scopes.emplace_back(e.iterVar, parts.iterSlot);
        if (parts.iter2Slot >= 0)
            m_scopes.emplace_back(e.iterVar2, parts.iter2Slot);
        parts.condition = plan(*e.loopCondition);
        parts.step = plan(*e.loopStep);
        m_scopes.pop_back();
        if (parts.iter2Slot >= 0)
            m_scopes.pop_back();
        parts.result = plan(*e.result);
        m_scopes.pop_back();
        return std::make_unique<ComprehensionNode>(std::move(parts));
    }

    const Environment &m_env;
    SourceInfo m_info;
    PlanOptions m_options;
    std::vector<Diagnostic> *m_diagnostics;
    std::vector<std::pair<std::string, int>> m_scopes;
    std::vector<std::pair<int, int>> m_blocks; // (first slot, visible count)
    int m_nextSlot = 0;
    size_t m_mapPaths = 0; // MapPathNodes planned so far
    bool m_failed = false;
};

} // namespace

Program::Program(
    std::shared_ptr<const Node> root, int localCount, std::shared_ptr<const void> keepAlive)
    : m_root(std::move(root))
    , m_localCount(localCount)
    , m_keepAlive(std::move(keepAlive))
{
}

Value Program::evaluate(
    std::span<const Value> variables, const void *host, uint64_t costLimit) const
{
    if (!m_root)
        return Value::error("the expression did not compile");
    EvalFrame frame;
    frame.variables = variables;
    frame.host = host;
    frame.costLimit = costLimit;
    // Most selectors have no comprehension: no locals to construct and destroy per device.
    if (m_localCount == 0)
        return m_root->eval(frame);
    if (m_localCount <= 8) {
        std::array<Value, 8> locals;
        frame.locals = locals.data();
        return m_root->eval(frame);
    }
    std::vector<Value> locals(static_cast<size_t>(m_localCount));
    frame.locals = locals.data();
    return m_root->eval(frame);
}

Result<Program> plan(const Environment &env, const ParsedExpr &parsed,
    std::vector<Diagnostic> *diagnostics, const PlanOptions &options)
{
    Planner planner(env, parsed, options, diagnostics);
    NodePtr root = planner.plan(*parsed.root);
    if (planner.failed() || !root)
        return Program();
    return Program(std::shared_ptr<const Node>(std::move(root)), planner.localCount(), nullptr);
}

Result<Program> compile(const Environment &env, std::string_view source,
    const CompileOptions &options, std::vector<Diagnostic> *diagnostics)
{
    std::optional<ParsedExpr> parsed = parse(source, options.parse, diagnostics);
    if (!parsed)
        return Program();
    PlanOptions planOptions;
    planOptions.validateLiterals = options.validateLiterals;
    return plan(env, *parsed, diagnostics, planOptions);
}

} // namespace dra::cel
