// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/macros.h"

namespace dra::cel {

namespace {

// Helpers building the nodes of an expansion, all positioned at the macro call.
struct Builder
{
    MacroContext &ctx;
    int32_t offset;

    ExprPtr ident(std::string name) const
    {
        ExprPtr e = ctx.newExpr(ExprKind::Ident, offset);
        e->name = std::move(name);
        return e;
    }
    ExprPtr constant(Value v) const
    {
        ExprPtr e = ctx.newExpr(ExprKind::Constant, offset);
        e->constant = std::move(v);
        return e;
    }
    ExprPtr call(std::string function, std::vector<ExprPtr> args) const
    {
        ExprPtr e = ctx.newExpr(ExprKind::Call, offset);
        e->name = std::move(function);
        e->args = std::move(args);
        return e;
    }
    ExprPtr call(std::string function, ExprPtr a) const
    {
        std::vector<ExprPtr> args;
        args.push_back(std::move(a));
        return call(std::move(function), std::move(args));
    }
    ExprPtr call(std::string function, ExprPtr a, ExprPtr b) const
    {
        std::vector<ExprPtr> args;
        args.push_back(std::move(a));
        args.push_back(std::move(b));
        return call(std::move(function), std::move(args));
    }
    ExprPtr call(std::string function, ExprPtr a, ExprPtr b, ExprPtr c) const
    {
        std::vector<ExprPtr> args;
        args.push_back(std::move(a));
        args.push_back(std::move(b));
        args.push_back(std::move(c));
        return call(std::move(function), std::move(args));
    }
    ExprPtr list(ExprPtr element) const
    {
        ExprPtr e = ctx.newExpr(ExprKind::List, offset);
        if (element)
            e->args.push_back(std::move(element));
        return e;
    }
    ExprPtr emptyMap() const { return ctx.newExpr(ExprKind::Map, offset); }
    ExprPtr fold(std::string iterVar, std::string iterVar2, ExprPtr range, std::string accuVar,
        ExprPtr init, ExprPtr condition, ExprPtr step, ExprPtr result) const
    {
        ExprPtr e = ctx.newExpr(ExprKind::Comprehension, offset);
        e->iterVar = std::move(iterVar);
        e->iterVar2 = std::move(iterVar2);
        e->iterRange = std::move(range);
        e->accuVar = std::move(accuVar);
        e->accuInit = std::move(init);
        e->loopCondition = std::move(condition);
        e->loopStep = std::move(step);
        e->result = std::move(result);
        return e;
    }
};

// The name of a simple identifier argument, or empty after reporting an error.
std::string simpleName(MacroContext &ctx, const ExprPtr &arg, int32_t offset)
{
    // cel.iterVar(i, j) names the variables of optimized (cel.block) expressions.
    if (arg->kind == ExprKind::Call && arg->target && arg->target->kind == ExprKind::Ident
        && arg->target->name == "cel" && arg->name == "iterVar" && arg->args.size() == 2
        && arg->args[0]->kind == ExprKind::Constant && arg->args[1]->kind == ExprKind::Constant) {
        return "@it:" + arg->args[0]->constant.debugString() + ":"
            + arg->args[1]->constant.debugString();
    }
    if (arg->kind != ExprKind::Ident) {
        ctx.reportError(arg ? arg->offset : offset, "argument must be a simple name");
        return {};
    }
    return arg->name;
}

enum class Quantifier { All, Exists, ExistsOne };

ExprPtr quantifier(const Builder &b, Quantifier q, ExprPtr range, std::string v1, std::string v2,
    ExprPtr predicate)
{
    const std::string accu = kAccumulatorName;
    switch (q) {
    case Quantifier::All:
        return b.fold(std::move(v1), std::move(v2), std::move(range), accu,
            b.constant(Value::boolean(true)), b.call("@not_strictly_false", b.ident(accu)),
            b.call("_&&_", b.ident(accu), std::move(predicate)), b.ident(accu));
    case Quantifier::Exists:
        return b.fold(std::move(v1), std::move(v2), std::move(range), accu,
            b.constant(Value::boolean(false)),
            b.call("@not_strictly_false", b.call("!_", b.ident(accu))),
            b.call("_||_", b.ident(accu), std::move(predicate)), b.ident(accu));
    case Quantifier::ExistsOne:
        return b.fold(std::move(v1), std::move(v2), std::move(range), accu,
            b.constant(Value::integer(0)), b.constant(Value::boolean(true)),
            b.call("_?_:_", std::move(predicate),
                b.call("_+_", b.ident(accu), b.constant(Value::integer(1))), b.ident(accu)),
            b.call("_==_", b.ident(accu), b.constant(Value::integer(1))));
    }
    return nullptr;
}

bool isReservedVar(MacroContext &ctx, const std::string &name, int32_t offset)
{
    if (name == kAccumulatorName || name == "__result__") {
        ctx.reportError(offset, "iteration variable overwrites accumulator variable");
        return true;
    }
    return false;
}

// The iteration variable named by args[0], or empty after reporting why it cannot be one.
std::string iterVar(MacroContext &ctx, const std::vector<ExprPtr> &args, int32_t offset)
{
    std::string v = simpleName(ctx, args[0], offset);
    if (v.empty() || isReservedVar(ctx, v, args[0]->offset))
        return {};
    return v;
}

// The two iteration variables named by args[0] and args[1], or false after reporting an error.
bool iterVars(MacroContext &ctx, const std::vector<ExprPtr> &args, int32_t offset, std::string &v1,
    std::string &v2)
{
    v1 = simpleName(ctx, args[0], offset);
    v2 = simpleName(ctx, args[1], offset);
    if (v1.empty() || v2.empty() || isReservedVar(ctx, v1, args[0]->offset)
        || isReservedVar(ctx, v2, args[1]->offset))
        return false;
    if (v1 == v2) {
        ctx.reportError(args[1]->offset, "duplicate variable name: " + v1);
        return false;
    }
    return true;
}

} // namespace

ExprPtr expandMacro(MacroContext &ctx, std::string_view fn, ExprPtr &target,
    std::vector<ExprPtr> &args, int32_t offset, bool twoVarComprehensions)
{
    const Builder b { ctx, offset };
    const size_t n = args.size();

    if (!target) {
        if (fn == "has" && n == 1) {
            if (args[0]->kind != ExprKind::Select || args[0]->testOnly) {
                ctx.reportError(args[0]->offset, "invalid argument to has() macro");
                return b.constant(Value());
            }
            ExprPtr e = std::move(args[0]);
            e->testOnly = true;
            return e;
        }
        return nullptr;
    }

    // cel.bind(name, init, body): a fold over nothing whose accumulator is the binding.
    if (fn == "bind" && n == 3 && target->kind == ExprKind::Ident && target->name == "cel") {
        const std::string name = simpleName(ctx, args[0], offset);
        if (name.empty())
            return b.constant(Value());
        return b.fold("#unused", "", b.list(nullptr), name, std::move(args[1]),
            b.constant(Value::boolean(false)), b.ident(name), std::move(args[2]));
    }

    const bool oneVar = fn == "all" || fn == "exists" || fn == "exists_one" || fn == "existsOne"
        || fn == "map" || fn == "filter";
    const bool twoVar = twoVarComprehensions
        && (fn == "transformList" || fn == "transformMap" || fn == "transformMapEntry");
    const bool optMacro = fn == "optMap" || fn == "optFlatMap";
    if (!oneVar && !twoVar && !optMacro)
        return nullptr;

    if (optMacro) {
        if (n != 2)
            return nullptr;
        const std::string v = simpleName(ctx, args[0], offset);
        if (v.empty())
            return b.constant(Value());
        // has value ? cel.bind(v, target.value(), f) (wrapped in optional.of for optMap) : none
        auto valueCall = [&](ExprPtr t) {
            ExprPtr call = b.call("value", std::vector<ExprPtr> {});
            call->target = std::move(t);
            return call;
        };
        ExprPtr hasValue = b.call("hasValue", std::vector<ExprPtr> {});
        hasValue->target = b.ident("#opt");
        ExprPtr body = std::move(args[1]);
        if (fn == "optMap")
            body = b.call("optional.of", std::move(body));
        ExprPtr bind = b.fold("#unused", "", b.list(nullptr), v, valueCall(b.ident("#opt")),
            b.constant(Value::boolean(false)), b.ident(v), std::move(body));
        ExprPtr cond = b.call("_?_:_", std::move(hasValue), std::move(bind),
            b.call("optional.none", std::vector<ExprPtr> {}));
        // Bind the receiver once so it is evaluated a single time.
        return b.fold("#unused", "", b.list(nullptr), "#opt", std::move(target),
            b.constant(Value::boolean(false)), b.ident("#opt"), std::move(cond));
    }

    if (fn == "all" || fn == "exists" || fn == "exists_one" || fn == "existsOne") {
        const Quantifier q = fn == "all"
            ? Quantifier::All
            : (fn == "exists" ? Quantifier::Exists : Quantifier::ExistsOne);
        if (n == 2) {
            const std::string v = iterVar(ctx, args, offset);
            if (v.empty())
                return b.constant(Value());
            return quantifier(b, q, std::move(target), v, "", std::move(args[1]));
        }
        if (n == 3 && twoVarComprehensions) {
            std::string v1, v2;
            if (!iterVars(ctx, args, offset, v1, v2))
                return b.constant(Value());
            return quantifier(b, q, std::move(target), v1, v2, std::move(args[2]));
        }
        return nullptr;
    }

    const std::string accu = kAccumulatorName;
    if (fn == "map" || fn == "filter") {
        if (n != 2 && !(fn == "map" && n == 3))
            return nullptr;
        const std::string v = iterVar(ctx, args, offset);
        if (v.empty())
            return b.constant(Value());
        ExprPtr step;
        if (fn == "filter") {
            step = b.call("_?_:_", std::move(args[1]),
                b.call("_+_", b.ident(accu), b.list(b.ident(v))), b.ident(accu));
        } else if (n == 2) {
            step = b.call("_+_", b.ident(accu), b.list(std::move(args[1])));
        } else {
            step = b.call("_?_:_", std::move(args[1]),
                b.call("_+_", b.ident(accu), b.list(std::move(args[2]))), b.ident(accu));
        }
        return b.fold(v, "", std::move(target), accu, b.list(nullptr),
            b.constant(Value::boolean(true)), std::move(step), b.ident(accu));
    }

    // transformList(i, v, [filter,] expr), transformMap(k, v, [filter,] expr),
    // transformMapEntry(k, v, [filter,] mapExpr).
    if (n != 3 && n != 4)
        return nullptr;
    std::string v1, v2;
    if (!iterVars(ctx, args, offset, v1, v2))
        return b.constant(Value());
    ExprPtr filter = n == 4 ? std::move(args[2]) : nullptr;
    ExprPtr body = std::move(args[n - 1]);
    ExprPtr init;
    ExprPtr add;
    if (fn == "transformList") {
        init = b.list(nullptr);
        add = b.call("_+_", b.ident(accu), b.list(std::move(body)));
    } else if (fn == "transformMap") {
        init = b.emptyMap();
        add = b.call("cel.@mapInsert", b.ident(accu), b.ident(v1), std::move(body));
    } else {
        init = b.emptyMap();
        add = b.call("cel.@mapInsert", b.ident(accu), std::move(body));
    }
    ExprPtr step = filter ? b.call("_?_:_", std::move(filter), std::move(add), b.ident(accu))
                          : std::move(add);
    return b.fold(v1, v2, std::move(target), accu, std::move(init),
        b.constant(Value::boolean(true)), std::move(step), b.ident(accu));
}

} // namespace dra::cel
