// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// compileSelector(): a device selector compiled as kube-apiserver validates it (a new
// expression) or as the scheduler compiles it (a stored one), in the environment of a release.

#include <algorithm>

#include "core/cel/checker.h"
#include "core/cel/dra_environment.h"
#include "core/cel/dra_selector.h"
#include "core/cel/selector_lint.h"

namespace dra::cel {

namespace {

int32_t leftmostOffset(const Expr &e)
{
    int32_t offset = e.offset;
    if (e.target)
        offset = std::min(offset, leftmostOffset(*e.target));
    if (e.iterRange)
        offset = std::min(offset, leftmostOffset(*e.iterRange));
    for (const ExprPtr &a : e.args)
        offset = std::min(offset, leftmostOffset(*a));
    return offset;
}

// Why a name the release does not declare might be missing, for what Kubernetes added in later
// releases or behind a gate; empty when nothing explains it.
std::string releaseHint(const std::string &message, const SelectorOptions &options)
{
    const std::string target = (options.stored ? "a stored selector in " : "a new selector in ")
        + options.release.description();
    const SelectorFeatures features = selectorFeatures(options);
    const auto is = [&](std::string_view start) { return message.starts_with(start); };
    if (!features.allowMultipleAllocations && is("undefined field 'allowMultipleAllocations'"))
        return "; device.allowMultipleAllocations arrived in Kubernetes 1.34 behind the "
               "DRAConsumableCapacity feature gate, which "
            + target + " does not offer";
    if (!features.includes && is("undeclared reference to 'includes'"))
        return "; includes() arrived in Kubernetes 1.36 behind the DRAListTypeAttributes "
               "feature gate, which "
            + target + " does not offer";
    if (!features.listAttributes && is("expression of type 'google.protobuf.Any' cannot be range"))
        return "; attribute values are lists only with the DRAListTypeAttributes feature gate "
               "(Kubernetes 1.36), which "
            + target + " does not offer";
    if (!features.celLists
        && (is("undeclared reference to 'sort'") || is("undeclared reference to 'distinct'")
            || is("undeclared reference to 'flatten'") || is("undeclared reference to 'first'")
            || is("undeclared reference to 'last'") || is("undeclared reference to 'slice'")
            || is("undeclared reference to 'lists")))
        return "; the cel-go lists extension is offered to new selectors from Kubernetes 1.35 "
               "(stored ones from 1.34), not to "
            + target;
    if (!features.semverNormalize
        && (is("found no matching overload for 'semver' applied to '(string, bool)'")
            || is("found no matching overload for 'isSemver' applied to '(string, bool)'")))
        return "; semver normalization is offered to new selectors from Kubernetes 1.34 (stored "
               "ones from 1.33), not to "
            + target;
    return {};
}

// Whether `root` calls a two-variable comprehension (left unexpanded where the release lacks
// them, so that its variables read as undeclared names).
bool callsTwoVarComprehension(const Expr &root)
{
    bool found = false;
    forEachExpr(&root, [&](const Expr &e) {
        if (e.kind != ExprKind::Call || !e.target)
            return;
        const bool quantifier = e.name == "all" || e.name == "exists" || e.name == "existsOne"
            || e.name == "exists_one";
        const bool transform = e.name == "transformList" || e.name == "transformMap"
            || e.name == "transformMapEntry";
        found = found || (quantifier && e.args.size() == 3)
            || (transform && (e.args.size() == 3 || e.args.size() == 4));
    });
    return found;
}

// Appends the release hints to the errors from `first` on.
void addReleaseHints(std::vector<Diagnostic> *diagnostics, size_t first, const Expr &root,
    const SelectorOptions &options)
{
    if (!diagnostics)
        return;
    bool comprehensionHinted
        = selectorFeatures(options).twoVarComprehensions || !callsTwoVarComprehension(root);
    const std::string target = (options.stored ? "a stored selector in " : "a new selector in ")
        + options.release.description();
    for (size_t i = first; i < diagnostics->size(); ++i) {
        Diagnostic &d = (*diagnostics)[i];
        if (d.severity != Diagnostic::Severity::Error)
            continue;
        if (!comprehensionHinted) {
            d.message += "; two-variable comprehensions (all(i, v, ...), transformList, ...) are "
                         "offered to new selectors from Kubernetes 1.33 and to stored ones from "
                         "1.32, not to "
                + target;
            comprehensionHinted = true;
            continue;
        }
        // A name another release declares is better explained by that than by a similar name
        // ("did you mean").
        const std::string base = d.message.substr(0, d.message.find("; "));
        if (const std::string hint = releaseHint(base, options); !hint.empty())
            d.message = base + hint;
    }
}

void addWarning(std::vector<Diagnostic> *diagnostics, const SourceInfo &source, int32_t offset,
    std::string message)
{
    addError(diagnostics, source, offset, std::move(message));
    if (diagnostics)
        diagnostics->back().severity = Diagnostic::Severity::Warning;
}

// The explanation of an estimate over the limit.
std::string costDetail(uint64_t max)
{
    std::string out = "the estimated worst-case cost is " + std::to_string(max)
        + ", more than Kubernetes' limit of " + std::to_string(kSelectorMaxCost)
        + " for a device selector";
    if (max >= UINT64_MAX / 100)
        out += " (unbounded: a comparison or string function on a value of unknown size, such "
               "as == on quantities, is estimated at the worst case; compare quantities with "
               "compareTo())";
    return out;
}

} // namespace

Result<CompiledSelector> compileSelector(
    std::string_view expression, std::vector<Diagnostic> *diagnostics)
{
    return compileSelector(expression, SelectorOptions {}, diagnostics);
}

Result<CompiledSelector> compileSelector(std::string_view expression,
    const SelectorOptions &options, std::vector<Diagnostic> *diagnostics)
{
    CompiledSelector selector;
    selector.m_options = options;
    selector.m_features = selectorFeatures(options);
    const SelectorFeatures &features = selector.m_features;
    const Environment &env = selectorEnvironment(options);
    const size_t firstDiagnostic = diagnostics ? diagnostics->size() : 0;

    ParseOptions parseOptions;
    parseOptions.maxExpressionBytes = kSelectorMaxExpressionBytes;
    parseOptions.twoVarComprehensions = features.twoVarComprehensions;
    const std::optional<ParsedExpr> parsed = parse(expression, parseOptions, diagnostics);
    if (!parsed)
        return selector;
    PlanOptions planOptions;
    planOptions.validateLiterals = true;
    const DevicePathCompiler paths {};
    planOptions.paths = &paths;
    Result<Program> program = plan(env, *parsed, diagnostics, planOptions);
    if (!program)
        return fail(program.error());
    // Type errors after unresolved names would only repeat them.
    if (!program->isValid()) {
        addReleaseHints(diagnostics, firstDiagnostic, *parsed->root, options);
        return selector;
    }

    const CheckedExpr checked = check(*parsed, selectorDeclarations(options), env, diagnostics);
    if (!checked.ok) {
        addReleaseHints(diagnostics, firstDiagnostic, *parsed->root, options);
        return selector;
    }
    selector.m_outputType = checked.resultType.toString();
    const SourceInfo source(parsed->source);
    // The result is a bool, or an attribute value Kubernetes cannot type ahead.
    if (!checked.resultType.is(CelType::Kind::Bool)
        && checked.resultType != selectorAttributeType(features)) {
        addError(diagnostics, source, leftmostOffset(*parsed->root),
            "must evaluate to bool or the unknown type, not " + selector.m_outputType);
        return selector;
    }
    CostOptions costOptions;
    costOptions.presenceTestHasCost = false;
    costOptions.sizes = features.deviceSizeBounds ? &selectorSizeEstimator() : nullptr;
    selector.m_cost = estimateCost(*parsed, checked, costOptions);
    if (selector.m_cost.max > kSelectorMaxCost) {
        if (features.estimatedCostLimit) {
            addError(diagnostics, source, leftmostOffset(*parsed->root),
                "too complex, exceeds cost limit: " + costDetail(selector.m_cost.max));
            return selector;
        }
        addWarning(diagnostics, source, leftmostOffset(*parsed->root),
            costDetail(selector.m_cost.max)
                + (options.stored
                        ? "; a stored selector is evaluated anyway"
                        : "; " + options.release.description() + " does not limit the estimate")
                + " and fails on a device where its actual cost passes "
                + std::to_string(kSelectorMaxCost)
                + " (operation cancelled: actual cost limit exceeded)");
    }
    lintSelector(*parsed, diagnostics);
    selector.m_program = std::move(*program);
    selector.m_readsOnlyDevicePaths = collectDevicePaths(*parsed->root, selector.m_paths);
    return selector;
}

} // namespace dra::cel
