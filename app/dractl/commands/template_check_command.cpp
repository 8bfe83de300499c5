// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl template check FILE...: the template editor's check (core/alloc) of every
// ResourceClaimTemplate and ResourceClaim in the files, against the cache or an inventory file,
// for CI. Exit 0 when all is good, 1 on findings, 2 when an input does not read.
#include "app/dractl/commands/template_check_command.h"

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/output.h"
#include "app/dractl/commands/release_options.h"
#include "app/dractl/commands/simulation_inventory.h"
#include "core/alloc/template_check.h"
#include "core/common/json_text.h"
#include "core/model/manifest_reader.h"

namespace dra::cli {

namespace {

using common::qs;
using nlohmann::json;

// One template (or a file that did not read) and what the check made of it.
struct Checked
{
    QString file;
    alloc::TemplateCheck check;
};

// The checks of every claim template and claim in `path`; a file that does not read, or holds
// neither, is one check with its error.
std::vector<Checked> checkFile(const QString &path, const inventory::Snapshot &snapshot,
    const alloc::SimulationCluster &cluster)
{
    std::vector<Checked> out;
    const auto unreadable = [&](const std::string &error) {
        alloc::TemplateCheck check;
        check.error = error;
        out.push_back({ path, std::move(check) });
        return out;
    };
    const model::ManifestSet manifests = model::readManifests({ path });
    if (!manifests.problems.empty())
        return unreadable(manifests.problems.front().message().toStdString());
    for (const model::ManifestDocument &document : manifests.documents) {
        Result<model::Object> object = model::decodeObject(document.object);
        if (!object) {
            // Kinds the console does not model (a Deployment beside its template) do not matter.
            if (!model::kindOf(
                    document.object.value("apiVersion", ""), document.object.value("kind", "")))
                continue;
            return unreadable(object.error().withContext(document.origin).message.toStdString());
        }
        if (!object->as<model::ResourceClaimTemplate>() && !object->as<model::ResourceClaim>())
            continue;
        out.push_back({ path, alloc::checkClaimObject(snapshot, *object, cluster) });
    }
    if (out.empty())
        return unreadable(path.toStdString() + ": holds no ResourceClaimTemplate or ResourceClaim");
    return out;
}

void printCheck(const Checked &checked)
{
    const alloc::TemplateCheck &c = checked.check;
    if (!c.error.empty()) {
        out(QStringLiteral("%1: not readable: %2\n").arg(checked.file, qs(c.error)));
        return;
    }
    out(QStringLiteral("%1: %2 %3/%4\n").arg(checked.file, qs(c.kind), qs(c.ns), qs(c.name)));
    for (const alloc::TemplateCheck::Request &request : c.requests) {
        out(QStringLiteral("  request %1 (%2): %3 of %4 devices match, on %5 node(s)\n")
                .arg(qs(request.name),
                    request.classExists
                        ? qs(request.deviceClass)
                        : qs(request.deviceClass) + QStringLiteral(": no such class"))
                .arg(request.matching)
                .arg(request.ofClass)
                .arg(request.nodes));
        for (const std::string &error : request.selectorErrors)
            out(QStringLiteral("    %1\n").arg(qs(error)));
    }
    if (c.simulated) {
        if (c.copiesThatFit == 0)
            out(QStringLiteral("  allocation (%1): cannot be allocated: %2\n")
                    .arg(qs(c.release), qs(c.blocked)));
        else
            out(QStringLiteral("  allocation (%1): the first copy goes to %2; one copy fits on "
                               "%3 node(s); %4%5 copies fit at once\n")
                    .arg(qs(c.release), qs(c.firstPlacementNode))
                    .arg(c.nodesWhereOneFits.size())
                    .arg(c.capped ? QStringLiteral("at least ") : QString())
                    .arg(c.copiesThatFit));
        if (c.copiesThatFit > 0 && !c.capped && !c.blocked.empty())
            out(QStringLiteral("  the next copy does not fit: %1\n").arg(qs(c.blocked)));
        for (const std::string &line : c.explanation)
            out(QStringLiteral("    %1\n").arg(qs(line)));
    }
    const std::vector<std::string> findings = c.findings();
    out(findings.empty() ? QStringLiteral("  no findings\n") : QString());
    for (const std::string &finding : findings)
        out(QStringLiteral("  finding: %1\n").arg(qs(finding)));
}

} // namespace

int runTemplateCheck(const QStringList &arguments)
{
    QCommandLineParser parser;
    addSimulationInventoryOptions(parser);
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addPositionalArgument(QStringLiteral("file"),
        QStringLiteral("YAML or JSON manifests; every ResourceClaimTemplate and ResourceClaim in "
                       "them is checked."),
        QStringLiteral("FILE..."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Check claim templates as the template editor does: per request the devices its "
                "class and selectors match and on how many nodes, then whether copies can be "
                "allocated, under the cluster's Kubernetes release (else the newest).\n"
                "Exit status 0 when every template is good, 1 on findings (a missing class, a "
                "selector that does not compile, a claim that cannot be allocated), 2 when an "
                "input does not read."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(format, { QStringLiteral("text"), QStringLiteral("json") },
            QStringLiteral("template check")))
        return Usage;
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty())
        return err(QStringLiteral("dractl template check: name at least one file\n")), Usage;

    Result<inventory::SnapshotPtr> snapshot = loadSimulationSnapshot(parser);
    if (!snapshot)
        return reportFailure(snapshot.error()), Usage;
    Result<alloc::SimulationCluster> cluster
        = alloc::simulationCluster(**snapshot, releaseChoiceOf(parser));
    if (!cluster)
        return reportFailure(cluster.error()), Usage;

    std::vector<Checked> checked;
    for (const QString &file : files)
        for (Checked &one : checkFile(file, **snapshot, *cluster))
            checked.push_back(std::move(one));
    bool unreadable = false, findings = false;
    for (const Checked &one : checked) {
        unreadable = unreadable || !one.check.error.empty();
        findings = findings || !one.check.findings().empty();
    }
    if (format == QLatin1String("json")) {
        json items = json::array();
        for (const Checked &one : checked) {
            json item = { { "file", one.file.toStdString() } };
            item.update(alloc::toJson(one.check));
            items.push_back(std::move(item));
        }
        printJson({ { "items", std::move(items) } });
    } else {
        for (const Checked &one : checked)
            printCheck(one);
    }
    return unreadable ? Usage : findings ? Failed : Ok;
}

} // namespace dra::cli
