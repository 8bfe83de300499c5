// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl cel check | eval: a device selector compiled exactly as Kubernetes compiles it (parse,
// type check, cost limit), then evaluated on every device of an inventory.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cel_inventory.h"
#include "app/dractl/commands/output.h"
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

json diagnosticsJson(const std::vector<cel::Diagnostic> &diagnostics)
{
    json out = json::array();
    for (const cel::Diagnostic &d : diagnostics)
        out.push_back(
            { { "severity", d.severity == cel::Diagnostic::Severity::Error ? "error" : "warning" },
                { "line", d.line }, { "column", d.column }, { "message", d.message } });
    return out;
}

// "1:15: error: found no matching overload ..." lines, as compilers print them.
void printDiagnostics(const std::vector<cel::Diagnostic> &diagnostics)
{
    for (const cel::Diagnostic &d : diagnostics)
        out(std::to_string(d.line) + ":" + std::to_string(d.column) + ": "
            + (d.severity == cel::Diagnostic::Severity::Error ? "error: " : "warning: ") + d.message
            + "\n");
}

struct Compiled
{
    cel::CompiledSelector selector;
    std::vector<cel::Diagnostic> diagnostics;
};

// Parses the common options and compiles --expr; returns false with `exitCode` set when the
// command must stop before evaluating.
bool compileExpr(const QCommandLineParser &parser, Compiled &compiled, int *exitCode)
{
    if (!parser.isSet(QStringLiteral("expr"))) {
        *exitCode = fail(QStringLiteral("--expr is required"));
        *exitCode = Usage;
        return false;
    }
    const QString format = parser.value(QStringLiteral("output"));
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        err(QStringLiteral("dractl: unknown output format '%1' (text or json)\n").arg(format));
        *exitCode = Usage;
        return false;
    }
    Result<cel::CompiledSelector> selector = cel::compileSelector(
        parser.value(QStringLiteral("expr")).toStdString(), &compiled.diagnostics);
    if (!selector) {
        *exitCode = fail(selector.error());
        return false;
    }
    compiled.selector = std::move(*selector);
    return true;
}

int runCheck(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(exprOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Parse, type-check and cost a device selector as Kubernetes "
                           "does; exit status 2 when it does not compile."),
            &exitCode))
        return exitCode;
    Compiled compiled;
    if (!compileExpr(parser, compiled, &exitCode))
        return exitCode;
    const bool ok = compiled.selector.isValid() && !hasErrors(compiled.diagnostics);
    const cel::CostEstimate cost = compiled.selector.cost();
    if (parser.value(QStringLiteral("output")) == QLatin1String("json")) {
        // The web console's /console/v1/cel/check answers the same document.
        out(server::console::celCheckDocument(parser.value(QStringLiteral("expr")).toStdString())
                .dump()
            + "\n");
    } else {
        printDiagnostics(compiled.diagnostics);
        if (ok)
            out("ok: type " + compiled.selector.outputType() + ", estimated cost "
                + std::to_string(cost.min) + ".." + std::to_string(cost.max) + " (limit "
                + std::to_string(cel::kSelectorMaxCost) + ")\n");
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

int runEval(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(exprOption());
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
    Compiled compiled;
    if (!compileExpr(parser, compiled, &exitCode))
        return exitCode;
    const bool json = parser.value(QStringLiteral("output")) == QLatin1String("json");
    if (!compiled.selector.isValid() || hasErrors(compiled.diagnostics)) {
        if (json)
            out(nlohmann::json { { "ok", false }, { "matches", 0 }, { "errors", 0 },
                    { "devices", nlohmann::json::array() },
                    { "diagnostics", diagnosticsJson(compiled.diagnostics) } }
                    .dump()
                + "\n");
        else
            printDiagnostics(compiled.diagnostics);
        return Usage;
    }
    Result<inventory::SnapshotPtr> snapshot = loadCelSnapshot(parser);
    if (!snapshot)
        return fail(snapshot.error());
    if (json) { // the web console's /console/v1/cel/eval answers the same document
        out(server::console::celEvalDocument(
                **snapshot, parser.value(QStringLiteral("expr")).toStdString())
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
    nlohmann::json devices = nlohmann::json::array();
    std::vector<std::vector<std::string>> rows;
    cel::SelectorEvaluator evaluator(compiled.selector);
    for (const inventory::Device *device : (*snapshot)->devices()) {
        const cel::SelectorResult &r = evaluator.evaluate(device->view);
        matches += r.outcome == cel::SelectorResult::Outcome::Match ? 1 : 0;
        errors += r.outcome == cel::SelectorResult::Outcome::Error ? 1 : 0;
        if (json) {
            nlohmann::json row { { "node", device->node }, { "driver", device->key.driver },
                { "pool", device->key.pool }, { "device", device->key.device },
                { "result", outcomeName(r.outcome) } };
            if (r.outcome == cel::SelectorResult::Outcome::Error)
                row["error"] = r.error;
            devices.push_back(std::move(row));
        } else {
            rows.push_back({ device->node.empty() ? "-" : device->node, device->key.driver,
                device->key.pool, device->key.device, outcomeName(r.outcome), r.error });
        }
    }
    if (json) {
        out(nlohmann::json { { "matches", matches }, { "errors", errors },
                { "devices", std::move(devices) }, { "diagnostics", diagnosticsJson(diagnostics) } }
                .dump()
            + "\n");
    } else {
        printDiagnostics(diagnostics);
        printTable({ "node", "driver", "pool", "device", "result", "error" }, rows);
        out(std::to_string(matches) + " of " + std::to_string((*snapshot)->devices().size())
            + " devices match, " + std::to_string(errors) + " errors\n");
    }
    return Ok;
}

int runCel(const QStringList &arguments)
{
    const QString which = arguments.value(1);
    QStringList rest = arguments.mid(1);
    if (!rest.isEmpty())
        rest[0] = arguments.value(0) + QLatin1Char(' ') + which;
    if (which == QLatin1String("check"))
        return runCheck(rest);
    if (which == QLatin1String("eval"))
        return runEval(rest);
    if (which == QLatin1String("--help") || which == QLatin1String("-h") || which.isEmpty()) {
        out(QStringLiteral(
            "Usage: dractl cel <check|eval> --expr EXPRESSION [options]\n\n"
            "  check   parse, type-check and cost a device selector as Kubernetes does\n"
            "  eval    evaluate it on every device of --inventory FILE or the cache\n"));
        return which.isEmpty() ? Usage : Ok;
    }
    return fail(QStringLiteral("cel: unknown subcommand '%1' (check or eval)").arg(which));
}

const CommandRegistration celRegistration(
    { "cel", "Check or evaluate a CEL device selector", runCel, 50 });

} // namespace

} // namespace dra::cli
