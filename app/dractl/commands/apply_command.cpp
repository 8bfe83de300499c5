// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl apply and dractl diff: server-side apply of a manifest, with a server-side dry run
// first and the diff of what it would change. Both share the one flow in core/kube.
#include <optional>

#include <QEventLoop>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/kube_options.h"
#include "app/dractl/commands/output.h"
#include "core/common/json_text.h"
#include "core/kube/rest_client.h"
#include "core/kube/server_side_apply.h"
#include "core/model/manifest_reader.h"

namespace dra::cli {
namespace {

using common::qs;
using kube::ApplyOutcome;

// `kubectl diff`'s statuses: differences are not a failure of the command.
enum DiffExit : int { NoDifferences = 0, Differences = 1, DiffError = 2 };

// The manifest's objects, or every problem printed and nullopt: nothing is sent to the server
// while any document of the file is broken, so a typo never leaves half a manifest applied.
std::optional<std::vector<model::ManifestDocument>> readManifestFile(
    const QString &path, const QString &command)
{
    model::ManifestSet manifests = model::readManifests({ path });
    for (const model::ManifestProblem &problem : manifests.problems)
        err(QStringLiteral("dractl %1: %2\n").arg(command, problem.message()));
    if (!manifests.problems.empty())
        return std::nullopt;
    if (manifests.documents.empty()) {
        err(QStringLiteral("dractl %1: %2: no objects to apply\n").arg(command, path));
        return std::nullopt;
    }
    return std::move(manifests.documents);
}

// Runs the apply flow against the parser's context and waits for it.
Result<std::vector<ApplyOutcome>> runApply(const QCommandLineParser &parser,
    std::vector<model::ManifestDocument> documents, kube::ApplyOptions options)
{
    Result<kube::ClientConfig> config = clientConfigFor(parser);
    if (!config)
        return dra::fail(config.error());
    options.defaultNamespace = config->ns.toStdString();
    kube::RestClient client(*config, commandRestOptions());
    QObject::connect(&client, &kube::RestClient::warning, &client, [](const QString &warning) {
        err(QStringLiteral("Warning: ") + warning + QLatin1Char('\n'));
    });
    QEventLoop loop;
    std::optional<std::vector<ApplyOutcome>> outcomes;
    kube::serverSideApply(client, std::move(documents), std::move(options), &loop,
        [&](std::vector<ApplyOutcome> done) {
            outcomes = std::move(done);
            loop.quit();
        });
    if (!outcomes)
        loop.exec();
    return std::move(*outcomes);
}

void printOutcomes(const std::vector<ApplyOutcome> &outcomes, bool dryRun)
{
    for (const ApplyOutcome &outcome : outcomes) {
        if (!outcome.diff.empty())
            out(qs(outcome.diff));
        if (outcome.result == ApplyOutcome::Result::Error) {
            err(QStringLiteral("dractl apply: %1\n").arg(outcome.error));
            continue;
        }
        out(kube::outcomeLine(outcome, dryRun) + QLatin1Char('\n'));
    }
}

void addKubeOptions(QCommandLineParser &parser)
{
    parser.addOption(contextOption());
    parser.addOptions(impersonationOptions());
    parser.addOption(kubeconfigOption());
    parser.addPositionalArgument(
        QStringLiteral("FILE"), QStringLiteral("A manifest: YAML (multi-document) or JSON."));
}

int runApplyCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addKubeOptions(parser);
    parser.addOption({ QStringLiteral("dry-run"),
        QStringLiteral("Ask the server what would change (dryRun=All) and stop there.") });
    parser.addOption({ QStringLiteral("force-conflicts"),
        QStringLiteral("Take over fields another field manager owns instead of failing.") });
    parser.addOption(outputOption(QStringLiteral("text")));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Server-side apply of every object of FILE (field manager dractl): a server dry "
                "run first, the diff of what it changes, then the apply. Exit 1 when any object "
                "failed."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(
            format, { QStringLiteral("text"), QStringLiteral("json") }, QStringLiteral("apply")))
        return Usage;
    if (parser.positionalArguments().size() != 1)
        return err(QStringLiteral("dractl apply: one manifest FILE is required\n")), Usage;
    std::optional<std::vector<model::ManifestDocument>> documents
        = readManifestFile(parser.positionalArguments().front(), QStringLiteral("apply"));
    if (!documents)
        return Failed;
    kube::ApplyOptions options;
    options.dryRunOnly = parser.isSet(QStringLiteral("dry-run"));
    options.forceConflicts = parser.isSet(QStringLiteral("force-conflicts"));
    Result<std::vector<ApplyOutcome>> outcomes = runApply(parser, std::move(*documents), options);
    if (!outcomes)
        return reportFailure(outcomes.error());
    if (format == QLatin1String("json")) {
        for (const ApplyOutcome &outcome : *outcomes)
            if (outcome.result == ApplyOutcome::Result::Error)
                err(QStringLiteral("dractl apply: %1\n").arg(outcome.error));
        printJson(kube::applyOutcomesJson(*outcomes));
    } else {
        printOutcomes(*outcomes, options.dryRunOnly);
    }
    for (const ApplyOutcome &outcome : *outcomes)
        if (outcome.result == ApplyOutcome::Result::Error)
            return Failed;
    return Ok;
}

int runDiffCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addKubeOptions(parser);
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "What applying FILE would change, from a server-side dry run: a unified diff of "
                "each live object against the dry-run result. Exit 0: no differences, 1: "
                "differences, 2: an error."),
            &exitCode))
        return exitCode == Ok ? int(Ok) : int(DiffError);
    if (parser.positionalArguments().size() != 1)
        return err(QStringLiteral("dractl diff: one manifest FILE is required\n")), DiffError;
    std::optional<std::vector<model::ManifestDocument>> documents
        = readManifestFile(parser.positionalArguments().front(), QStringLiteral("diff"));
    if (!documents)
        return DiffError;
    kube::ApplyOptions options;
    options.dryRunOnly = true;
    Result<std::vector<ApplyOutcome>> outcomes = runApply(parser, std::move(*documents), options);
    if (!outcomes)
        return reportFailure(outcomes.error()), DiffError;
    int status = NoDifferences;
    for (const ApplyOutcome &outcome : *outcomes) {
        if (outcome.result == ApplyOutcome::Result::Error) {
            err(QStringLiteral("dractl diff: %1\n").arg(outcome.error));
            status = DiffError;
            continue;
        }
        out(qs(outcome.diff));
        if (outcome.changes() && status == NoDifferences)
            status = Differences;
    }
    return status;
}

const CommandRegistration applyRegistration({ "apply",
    "Server-side apply a manifest, with a dry run and a diff first", runApplyCommand, 60 });
const CommandRegistration diffRegistration(
    { "diff", "What applying a manifest would change (server-side dry run)", runDiffCommand, 61 });

} // namespace
} // namespace dra::cli
