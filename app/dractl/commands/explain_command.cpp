// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl explain pod|claim NS/NAME: why a pod or claim is stuck, step by step (claim created,
// allocated, pod bound, running, ready), each step with its owner; for an unallocated claim,
// the allocation simulation's explanation.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/output.h"
#include "app/dractl/commands/simulation_inventory.h"
#include "core/alloc/diagnosis.h"
#include "core/common/json_text.h"

namespace dra::cli {

namespace {

using common::qs;
using nlohmann::json;

const char *marker(alloc::DiagnosisStep::Status status)
{
    switch (status) {
    case alloc::DiagnosisStep::Status::Ok:
        return "ok     ";
    case alloc::DiagnosisStep::Status::Failed:
        return "FAILED ";
    case alloc::DiagnosisStep::Status::Waiting:
        return "waiting";
    case alloc::DiagnosisStep::Status::Skipped:
        return "-      ";
    }
    return "";
}

void printText(const alloc::Diagnosis &diagnosis)
{
    out(qs(diagnosis.subject) + QLatin1Char('\n'));
    for (const alloc::DiagnosisStep &step : diagnosis.steps) {
        out(QStringLiteral("  %1 %2: %3\n")
                .arg(QLatin1String(marker(step.status)), qs(step.name), qs(step.detail)));
        if (step.status == alloc::DiagnosisStep::Status::Failed
            || step.status == alloc::DiagnosisStep::Status::Waiting)
            out(QStringLiteral("          owner: %1\n").arg(qs(step.owner)));
        for (const std::string &event : step.events)
            out(QStringLiteral("          event: %1\n").arg(qs(event)));
    }
    if (diagnosis.simulation && !diagnosis.simulation->explanation.empty()) {
        out(QStringLiteral("  Allocation simulation, closest nodes first:\n"));
        int shown = 0;
        for (const alloc::NodeExplanation &e : diagnosis.simulation->explanation) {
            if (shown++ == 5)
                break;
            out(QStringLiteral("    %1: %2\n").arg(qs(e.node), qs(e.reason)));
            for (const alloc::ClauseBlame &clause : e.clauses)
                out(QStringLiteral("        eliminated %1 by %2: %3\n")
                        .arg(clause.eliminated)
                        .arg(qs(clause.source), qs(clause.clause)));
        }
    }
    out(QStringLiteral("Verdict: %1\n").arg(qs(diagnosis.verdict)));
}

int runExplain(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("kind"), QStringLiteral("pod or claim"));
    parser.addPositionalArgument(
        QStringLiteral("name"), QStringLiteral("NAMESPACE/NAME, or NAME with --namespace"));
    parser.addOption({ { QStringLiteral("n"), QStringLiteral("namespace") },
        QStringLiteral("Namespace of NAME (default \"default\")."), QStringLiteral("namespace"),
        QStringLiteral("default") });
    addSimulationInventoryOptions(parser);
    parser.addOption(outputOption(QStringLiteral("text")));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Explain why a pod or a ResourceClaim is stuck: claim created, allocated (with "
                "the allocation simulation), pod bound, running, ready; each step names its "
                "owner."),
            &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return err(QStringLiteral(
                   "dractl explain: usage: dractl explain pod|claim NAMESPACE/NAME\n")),
               Usage;
    const QString kind = positional.at(0).toLower();
    const bool pod = kind == QLatin1String("pod") || kind == QLatin1String("pods")
        || kind == QLatin1String("po");
    const bool claim = kind == QLatin1String("claim") || kind == QLatin1String("resourceclaim")
        || kind == QLatin1String("resourceclaims");
    if (!pod && !claim)
        return err(QStringLiteral("dractl explain: explains a pod or a claim, not '%1'\n")
                       .arg(positional.at(0))),
               Usage;
    const QString format = parser.value(QStringLiteral("output"));
    if (format != QLatin1String("text") && !isStructured(format))
        return err(QStringLiteral("dractl explain: unknown output format '%1' (text, json, yaml)\n")
                       .arg(format)),
               Usage;
    QString ns = parser.value(QStringLiteral("namespace"));
    QString name = positional.at(1);
    if (const qsizetype slash = name.indexOf(QLatin1Char('/')); slash >= 0) {
        ns = name.left(slash);
        name = name.mid(slash + 1);
    }

    Result<alloc::SimulationCluster> inventory = loadSimulationInventory(parser);
    if (!inventory)
        return reportFailure(inventory.error());
    Result<alloc::Diagnosis> diagnosis = pod
        ? alloc::diagnosePod(
            *inventory->cluster, inventory->release, ns.toStdString(), name.toStdString())
        : alloc::diagnoseClaim(
            *inventory->cluster, inventory->release, ns.toStdString(), name.toStdString());
    if (!diagnosis)
        return reportFailure(diagnosis.error());
    if (format == QLatin1String("json"))
        printJson(alloc::diagnosisJson(*diagnosis));
    else if (isStructured(format))
        printYaml(alloc::diagnosisJson(*diagnosis));
    else
        printText(*diagnosis);
    return Ok;
}

const CommandRegistration explainRegistration(
    { "explain", "Explain why a pod or claim is Pending, step by step", runExplain, 53 });

} // namespace

} // namespace dra::cli
