// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl cel check | eval: a device selector compiled exactly as Kubernetes compiles it (parse,
// type check, cost limit) for a release, as a new or a stored selector, then evaluated on every
// device of an inventory.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/cel_inventory.h"
#include "app/dractl/commands/output.h"
#include "app/dractl/commands/release_options.h"
#include "core/cel/dra_environment.h"
#include "core/cel/dra_selector.h"
#include "core/cel/selector_evaluator.h"
#include "core/inventory/selector_sweep.h"
#include "core/server/console_api_json.h"

namespace dra::cli {

namespace {

using nlohmann::json;

QCommandLineOption exprOption()
{
    return { QStringLiteral("expr"), QStringLiteral("The CEL selector expression."),
        QStringLiteral("expression") };
}

bool hasErrors(const std::vector<cel::Diagnostic> &diagnostics)
{
    for (const cel::Diagnostic &d : diagnostics) {
        if (d.severity == cel::Diagnostic::Severity::Error)
            return true;
    }
    return false;
}

// "1:15: error: found no matching overload ..." lines, as compilers print them.
void printDiagnostics(const std::vector<cel::Diagnostic> &diagnostics)
{
    for (const cel::Diagnostic &d : diagnostics)
        out(std::to_string(d.line) + ":" + std::to_string(d.column) + ": "
            + (d.severity == cel::Diagnostic::Severity::Error ? "error: " : "warning: ") + d.message
            + "\n");
}

// --kubernetes-version, --feature-gates and --stored: which environment to compile in.
void addCompileOptions(QCommandLineParser &parser)
{
    addReleaseOptions(parser);
    parser.addOption({ QStringLiteral("stored"),
        QStringLiteral("Compile as a selector already stored in the cluster (as the scheduler "
                       "does: the release's full environment, limited at run time only) instead "
                       "of a new one (as kube-apiserver validates it).") });
}

struct Compiled
{
    cel::CompiledSelector selector;
    std::vector<cel::Diagnostic> diagnostics;
    std::string releaseFrom; // release::ChosenRelease::from
};

// The version the cache recorded for the cluster (--cache/--cluster), "" when not known.
std::string cachedVersion(const QCommandLineParser &parser)
{
    if (Result<ClusterCache> cache = openClusterCache(parser))
        if (Result<std::vector<store::ClusterInfo>> clusters = cache->cache.clusters())
            for (const store::ClusterInfo &info : *clusters)
                if (info.name == cache->cluster)
                    return info.version;
    return {};
}

// "a new selector in Kubernetes 1.34 (the cluster's version, v1.34.2)".
std::string targetText(const Compiled &compiled)
{
    const cel::SelectorOptions &o = compiled.selector.options();
    return std::string(o.stored ? "a stored selector in " : "a new selector in ")
        + o.release.description() + " (" + compiled.releaseFrom + ")";
}

// What the selector was compiled as, for the shared console documents.
server::console::CelTarget targetOf(const Compiled &compiled)
{
    return { compiled.selector.options(), compiled.releaseFrom };
}

nlohmann::json targetJson(const Compiled &compiled)
{
    return server::console::celTargetJson(targetOf(compiled));
}

// Parses the common options and compiles --expr for the release chosen from them and the
// `recordedVersion` of the inventory; returns false with `exitCode` set when the command must
// stop before evaluating.
bool compileExpr(const QCommandLineParser &parser, std::string_view recordedVersion,
    Compiled &compiled, int *exitCode)
{
    if (!parser.isSet(QStringLiteral("expr"))) {
        *exitCode = reportFailure(QStringLiteral("--expr is required"));
        *exitCode = Usage;
        return false;
    }
    const QString format = parser.value(QStringLiteral("output"));
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        err(QStringLiteral("dractl: unknown output format '%1' (text or json)\n").arg(format));
        *exitCode = Usage;
        return false;
    }
    Result<release::ChosenRelease> release
        = release::chooseRelease(recordedVersion, releaseChoiceOf(parser));
    if (!release) {
        reportFailure(release.error());
        *exitCode = Usage;
        return false;
    }
    compiled.releaseFrom = release->from;
    Result<cel::CompiledSelector> selector
        = cel::compileSelector(parser.value(QStringLiteral("expr")).toStdString(),
            cel::SelectorOptions { *release, parser.isSet(QStringLiteral("stored")) },
            &compiled.diagnostics);
    if (!selector) {
        *exitCode = reportFailure(selector.error());
        return false;
    }
    compiled.selector = std::move(*selector);
    return true;
}

int runCelCheck(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(exprOption());
    addCompileOptions(parser);
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Parse, type-check and cost a device selector as Kubernetes "
                           "does; exit status 2 when it does not compile."),
            &exitCode))
        return exitCode;
    Compiled compiled;
    // With --cache, as the cluster's release (what the web console checks against).
    if (!compileExpr(parser,
            parser.isSet(QStringLiteral("cache")) ? cachedVersion(parser) : std::string(), compiled,
            &exitCode))
        return exitCode;
    const bool ok = compiled.selector.isValid() && !hasErrors(compiled.diagnostics);
    const cel::CostEstimate cost = compiled.selector.cost();
    if (parser.value(QStringLiteral("output")) == QLatin1String("json")) {
        // The web console's /console/v1/cel/check answers the same document.
        out(server::console::celCheckDocument(
                parser.value(QStringLiteral("expr")).toStdString(), targetOf(compiled))
                .dump()
            + "\n");
    } else {
        printDiagnostics(compiled.diagnostics);
        if (ok)
            out("ok: type " + compiled.selector.outputType() + ", estimated cost "
                + std::to_string(cost.min) + ".." + std::to_string(cost.max) + " (limit "
                + std::to_string(cel::kSelectorMaxCost) + ")\n");
        out("checked as " + targetText(compiled) + "\n");
    }
    return ok ? Ok : Usage;
}

const char *outcomeName(cel::SelectorResult::Outcome outcome)
{
    switch (outcome) {
    case cel::SelectorResult::Outcome::Match:
        return "match";
    case cel::SelectorResult::Outcome::NoMatch:
        return "nomatch";
    case cel::SelectorResult::Outcome::Error:
        return "error";
    }
    return "error";
}

int runCelEval(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(exprOption());
    addCompileOptions(parser);
    parser.addOption(celInventoryOption());
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Evaluate a device selector on every device of an inventory "
                           "file or of the cache: match, no match or error per device."),
            &exitCode))
        return exitCode;
    Result<inventory::SnapshotPtr> snapshot = loadCelSnapshot(parser);
    if (!snapshot)
        return reportFailure(snapshot.error());
    Compiled compiled;
    if (!compileExpr(parser, (*snapshot)->kubernetesVersion(), compiled, &exitCode))
        return exitCode;
    const bool json = parser.value(QStringLiteral("output")) == QLatin1String("json");
    if (!compiled.selector.isValid() || hasErrors(compiled.diagnostics)) {
        if (json)
            out(nlohmann::json { { "ok", false }, { "matches", 0 }, { "errors", 0 },
                    { "devices", nlohmann::json::array() }, { "release", targetJson(compiled) },
                    { "diagnostics", server::console::diagnosticsJson(compiled.diagnostics) } }
                    .dump()
                + "\n");
        else {
            printDiagnostics(compiled.diagnostics);
            out("checked as " + targetText(compiled) + "\n");
        }
        return Usage;
    }
    if (json) { // the web console's /console/v1/cel/eval answers the same document
        out(server::console::celEvalDocument(
                **snapshot, parser.value(QStringLiteral("expr")).toStdString(), targetOf(compiled))
                .dump()
            + "\n");
        return Ok;
    }
    // Names the inventory does not publish ("did you mean"), after the compiler's warnings.
    std::vector<cel::Diagnostic> diagnostics = compiled.diagnostics;
    for (cel::Diagnostic &w : inventory::inventoryWarnings(
             **snapshot, parser.value(QStringLiteral("expr")).toStdString()))
        diagnostics.push_back(std::move(w));

    int matches = 0, errors = 0;
    std::vector<std::vector<std::string>> rows;
    cel::SelectorEvaluator evaluator(compiled.selector);
    for (const inventory::Device *device : (*snapshot)->devices()) {
        const cel::SelectorResult &r = evaluator.evaluate(device->view);
        matches += r.outcome == cel::SelectorResult::Outcome::Match ? 1 : 0;
        errors += r.outcome == cel::SelectorResult::Outcome::Error ? 1 : 0;
        rows.push_back({ device->node.empty() ? "-" : device->node, device->key.driver,
            device->key.pool, device->key.device, outcomeName(r.outcome), r.error });
    }
    printDiagnostics(diagnostics);
    printTable({ "node", "driver", "pool", "device", "result", "error" }, rows);
    out(std::to_string(matches) + " of " + std::to_string((*snapshot)->devices().size())
        + " devices match, " + std::to_string(errors) + " errors, evaluated as "
        + targetText(compiled) + "\n");
    return Ok;
}

const CommandRegistration celRegistration(
    { .path = "cel", .summary = "Check or evaluate a CEL device selector", .order = 50 });
const CommandRegistration celCheckRegistration({ .path = "cel check",
    .summary = "parse, type-check and cost a device selector as Kubernetes does",
    .run = runCelCheck,
    .order = 10,
    .synopsis = "--expr EXPRESSION" });
const CommandRegistration celEvalRegistration({ .path = "cel eval",
    .summary = "evaluate it on every device of --inventory FILE or the cache",
    .run = runCelEval,
    .order = 20,
    .synopsis = "--expr EXPRESSION" });

} // namespace

} // namespace dra::cli
