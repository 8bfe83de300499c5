// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl negative-control: the same claim with a selector that must not match, and the check
// on the inventory that it proves the selector is a real boundary. The logic is core/alloc's.
#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/output.h"
#include "app/dractl/commands/simulation_inventory.h"
#include "core/alloc/negative_control.h"
#include "core/common/json_text.h"
#include "core/model/manifest_reader.h"

namespace dra::cli {
namespace {

using common::qs;

void printControlText(const alloc::NegativeControl &control)
{
    out(QStringLiteral("Negative control of %1 %2/%3: %4\n")
            .arg(qs(control.kind), qs(control.ns), qs(control.name),
                qs(control.manifest["metadata"].value("name", ""))));
    for (const alloc::NegativeRequest &request : control.requests) {
        out(QStringLiteral(
            "  request %1 (class %2): the original matches %3 device(s), the negative control %4\n")
                .arg(qs(request.name), qs(request.deviceClass))
                .arg(request.originalMatches)
                .arg(request.negativeMatches));
        out(QStringLiteral("    selector: %1\n    (%2)\n")
                .arg(qs(request.negativeSelector), qs(request.method)));
        for (const std::string &error : request.errors)
            out(QStringLiteral("    error: %1\n").arg(qs(error)));
    }
    out(QStringLiteral("Original matches %1 device(s); negative control matches %2.\n")
            .arg(control.originalMatches)
            .arg(control.negativeMatches));
    if (!control.pendingReason.empty())
        out(QStringLiteral("Pending: %1\n").arg(qs(control.pendingReason)));
    out(qs(control.verdict()) + QLatin1Char('\n'));
}

int runNegativeControl(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(
        QStringLiteral("FILE"), QStringLiteral("A ResourceClaimTemplate or ResourceClaim."));
    addSimulationInventoryOptions(parser);
    parser.addOption(outputOption(QStringLiteral("text")));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Generate the same claim with selectors that must match no device of the "
                "inventory, and check it: devices the original matches (must be some), devices "
                "the negative control matches (must be none), and why the allocator leaves it "
                "Pending. -o yaml prints the negative control, ready to apply. Exit 1 when it "
                "proves nothing."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(format,
            { QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("yaml") },
            QStringLiteral("negative-control")))
        return Usage;
    if (parser.positionalArguments().size() != 1)
        return err(QStringLiteral("dractl negative-control: one FILE is required\n")), Usage;
    const QString path = parser.positionalArguments().front();
    const model::ManifestSet manifests = model::readManifests({ path });
    for (const model::ManifestProblem &problem : manifests.problems)
        err(QStringLiteral("dractl negative-control: %1\n").arg(problem.message()));
    if (!manifests.problems.empty())
        return Failed;
    if (manifests.documents.size() != 1)
        return reportFailure(
            QStringLiteral("%1 holds %2 objects; give one ResourceClaimTemplate or ResourceClaim")
                .arg(path)
                .arg(manifests.documents.size()));
    const model::ManifestDocument &document = manifests.documents.front();

    Result<alloc::SimulationCluster> inventory = loadSimulationInventory(parser);
    if (!inventory)
        return reportFailure(inventory.error());
    Result<alloc::NegativeControl> control
        = alloc::negativeControl(*inventory->cluster, inventory->release, document.object);
    if (!control)
        return reportFailure(control.error().withContext(document.origin));
    if (format == QLatin1String("json"))
        printJson(alloc::negativeControlJson(*control));
    else if (format == QLatin1String("yaml"))
        printYaml(control->manifest);
    else
        printControlText(*control);
    if (format == QLatin1String("yaml") && !control->proves())
        err(QStringLiteral("dractl negative-control: %1\n").arg(qs(control->verdict())));
    return control->proves() ? Ok : Failed;
}

const CommandRegistration negativeControlRegistration(
    { "negative-control", "A claim's negative control: selectors that must match nothing, checked",
        runNegativeControl, 53 });

} // namespace
} // namespace dra::cli
