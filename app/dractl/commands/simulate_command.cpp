// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl simulate: will these claims be allocated, where, and if not, why? Kubernetes'
// structured allocator run over the cache (or an inventory file) without touching a cluster.
#include <set>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/output.h"
#include "app/dractl/commands/simulation_inventory.h"
#include "core/alloc/simulation_json.h"
#include "core/alloc/simulator.h"
#include "core/alloc/workloads.h"
#include "core/common/json_text.h"
#include "core/model/manifest_reader.h"

namespace dra::cli {

namespace {

using alloc::ClaimToAllocate;
using alloc::Placement;
using common::qs;
using nlohmann::json;

// What one run decided, ready for printing.
struct Report
{
    json document = json::object();
    bool allocated = false;
};

json gatesJson(const release::FeatureGates &gates)
{
    json out = json::object();
    const std::string text = gates.toString();
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find(',', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string item = text.substr(start, end - start);
        const size_t eq = item.find('=');
        out[item.substr(0, eq)] = item.substr(eq + 1) == "true";
        start = end + 1;
    }
    return out;
}

json explanationList(const Placement &placement)
{
    json list = json::array();
    for (const alloc::NodeExplanation &e : placement.explanation)
        list.push_back(alloc::explanationJson(e));
    return list;
}

// The failure part of a placement: error and/or explanation.
void addFailure(json &document, const Placement &placement)
{
    if (!placement.error.empty())
        document["error"] = placement.error;
    if (!placement.explanation.empty()) {
        document["explanation"] = explanationList(placement);
        document["summary"] = placement.summary;
    }
}

// Claims (one pod's, all together) or K copies of one claim, placed one after another.
Report simulateClaims(alloc::Simulator &simulator, const std::vector<ClaimToAllocate> &claims,
    int copies, const alloc::SimulationOptions &options)
{
    const alloc::Cluster &cluster = simulator.cluster();
    Report report;
    json placed = json::array();
    int start = 0;
    const int rounds = copies > 0 ? copies : 1;
    for (int copy = 1; copy <= rounds; ++copy) {
        const std::vector<ClaimToAllocate> round
            = copies > 0 ? std::vector { alloc::claimCopy(claims.front(), copy) } : claims;
        const Placement placement = simulator.place(round, options, start);
        if (!placement.allocated) {
            report.document["allocated"] = false;
            if (copies > 0) {
                report.document["copiesAllocated"] = copy - 1;
                report.document["copiesRequested"] = copies;
            }
            addFailure(report.document, placement);
            break;
        }
        const std::string node = cluster.nodes()[size_t(placement.node)].name;
        if (!report.document.contains("node"))
            report.document["node"] = node;
        for (size_t i = 0; i < round.size(); ++i)
            placed.push_back(alloc::claimResultJson(cluster, round[i], placement.claims[i], node));
        if (copies > 0)
            start = placement.node; // taking devices never makes an earlier node fit again
    }
    if (!report.document.contains("allocated")) {
        report.document["allocated"] = true;
        report.allocated = true;
    }
    if (!report.document.contains("node"))
        report.document["node"] = "";
    report.document["claims"] = placed;
    return report;
}

Report simulatePodsReport(alloc::Simulator &simulator, const alloc::SimulationInput &input,
    const alloc::SimulationOptions &options)
{
    const alloc::Cluster &cluster = simulator.cluster();
    const std::vector<alloc::PodPlacement> pods = alloc::simulatePods(simulator, input, options);
    Report report;
    report.allocated = true;
    json claims = json::array(), podList = json::array();
    for (const alloc::PodPlacement &pod : pods) {
        json entry = { { "name", pod.name }, { "namespace", pod.ns }, { "placed", pod.placed },
            { "node", pod.node } };
        json names = json::array();
        for (size_t i = 0; i < pod.claims.size(); ++i) {
            names.push_back(pod.claims[i].name);
            if (pod.placed) {
                json claim
                    = alloc::claimResultJson(cluster, pod.claims[i], pod.results[i], pod.node);
                claim["pod"] = pod.name;
                claims.push_back(std::move(claim));
            }
        }
        entry["claims"] = names;
        if (!pod.shared.empty())
            entry["sharedClaims"] = pod.shared;
        if (!pod.placed) {
            report.allocated = false;
            addFailure(entry, pod.placement);
            if (!report.document.contains("error") && !pod.placement.error.empty())
                report.document["error"] = pod.placement.error;
            if (!report.document.contains("explanation") && !pod.placement.explanation.empty()) {
                report.document["explanation"] = explanationList(pod.placement);
                report.document["summary"] = pod.placement.summary;
            }
        } else if (!report.document.contains("node")) {
            report.document["node"] = pod.node;
        }
        podList.push_back(std::move(entry));
    }
    report.document["allocated"] = report.allocated;
    if (!report.document.contains("node"))
        report.document["node"] = "";
    report.document["claims"] = claims;
    report.document["pods"] = podList;
    return report;
}

json fitJson(const alloc::FitAnalysis &fit, int maxCopies)
{
    json perNode = json::object();
    for (const auto &[node, count] : fit.copiesPerNode)
        perNode[node] = count;
    json out = { { "nodesWhereOneFits", fit.nodesWhereOneFits },
        { "copiesThatFit", fit.copiesThatFit }, { "copiesPerNode", perNode } };
    if (fit.capped)
        out["capped"] = maxCopies;
    else
        addFailure(out, fit.nextCopy);
    return out;
}

std::string deviceText(const json &result)
{
    std::string text = result["driver"].get<std::string>() + "/" + result["pool"].get<std::string>()
        + "/" + result["device"].get<std::string>();
    if (result.value("adminAccess", false))
        text += " (admin access)";
    if (result.contains("shareID")) {
        text += " (shared";
        for (const auto &[name, amount] : result.value("consumedCapacity", json::object()).items())
            text += ", " + name + " " + amount.get<std::string>();
        text += ")";
    }
    return text;
}

void printFailure(const json &document, int nodes)
{
    if (document.contains("error"))
        out(QStringLiteral("Error: %1\n").arg(qs(document["error"].get<std::string>())));
    if (!document.contains("explanation"))
        return;
    out(qs(document["summary"].get<std::string>()) + QLatin1Char('\n'));
    int shown = 0;
    for (const json &e : document["explanation"]) {
        if (shown++ == nodes) {
            out(QStringLiteral("  ... (-o json lists more nodes)\n"));
            break;
        }
        std::string line
            = "  " + e["node"].get<std::string>() + ": " + e["reason"].get<std::string>();
        out(qs(line) + QLatin1Char('\n'));
        for (const json &clause : e.value("eliminatedBy", json::array()))
            out(QStringLiteral("      eliminated %1 by %2: %3\n")
                    .arg(clause["eliminated"].get<int>())
                    .arg(qs(clause["from"].get<std::string>()),
                        qs(clause["clause"].get<std::string>())));
        if (e.contains("heldBy")) {
            std::string holders;
            for (const json &h : e["heldBy"])
                holders += (holders.empty() ? "" : ", ") + h.get<std::string>();
            out(QStringLiteral("      held by %1\n").arg(qs(holders)));
        }
    }
}

void printText(const Report &report, const std::string &release)
{
    const json &d = report.document;
    if (d.contains("fit")) {
        const json &fit = d["fit"];
        out(QStringLiteral("One copy fits on %1 node(s); %2 copies fit at once%3.\n")
                .arg(fit["nodesWhereOneFits"].size())
                .arg(fit["copiesThatFit"].get<int>())
                .arg(fit.contains("capped") ? QStringLiteral(" (stopped there, more may fit)")
                                            : QString()));
        for (const auto &[node, count] : fit["copiesPerNode"].items())
            out(QStringLiteral("  %1: %2\n").arg(qs(node)).arg(count.get<int>()));
        if (!fit.contains("capped")) {
            out(QStringLiteral("The next copy does not fit:\n"));
            printFailure(fit, 5);
        }
        return;
    }
    std::vector<std::vector<std::string>> rows;
    for (const json &claim : d["claims"])
        for (const json &result : claim["results"])
            rows.push_back({ claim.value("pod", ""), claim["name"].get<std::string>(),
                result["request"].get<std::string>(), claim["node"].get<std::string>(),
                deviceText(result) });
    const bool pods = d.contains("pods");
    if (report.allocated)
        out(QStringLiteral("Allocated (%1).\n").arg(qs(release)));
    else
        out(QStringLiteral("Not allocated (%1).\n").arg(qs(release)));
    if (!rows.empty()) {
        if (!pods)
            for (std::vector<std::string> &row : rows)
                row.erase(row.begin());
        std::vector<std::string> headers = { "claim", "request", "node", "device" };
        if (pods)
            headers.insert(headers.begin(), "pod");
        printTable(headers, rows);
    }
    if (d.contains("copiesRequested"))
        out(QStringLiteral("%1 of %2 copies allocated.\n")
                .arg(d["copiesAllocated"].get<int>())
                .arg(d["copiesRequested"].get<int>()));
    if (pods)
        for (const json &pod : d["pods"])
            if (!pod["placed"].get<bool>()) {
                out(QStringLiteral("Pod %1/%2 cannot be placed:\n")
                        .arg(qs(pod["namespace"].get<std::string>()),
                            qs(pod["name"].get<std::string>())));
                printFailure(pod, 5);
            }
    if (!report.allocated && !pods)
        printFailure(d, 5);
}

int runSimulate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({ QStringLiteral("claim"),
        QStringLiteral(
            "A ResourceClaim or ResourceClaimTemplate, several claims one pod needs together "
            "(List or multi-document YAML), or pods and workloads with their claims."),
        QStringLiteral("file") });
    parser.addOption({ QStringLiteral("count"),
        QStringLiteral("Allocate K copies of the claim or template, one after another."),
        QStringLiteral("K") });
    parser.addOption({ QStringLiteral("node"), QStringLiteral("Consider only this node."),
        QStringLiteral("name") });
    parser.addOption({ QStringLiteral("fit"),
        QStringLiteral("Fit analysis of the claim or template: nodes where one copy fits, how many "
                       "copies fit at once, what blocks the next.") });
    parser.addOption({ QStringLiteral("explain-nodes"),
        QStringLiteral("How many nodes an explanation lists, closest first (default 20; 0: all)."),
        QStringLiteral("n"), QStringLiteral("20") });
    addSimulationInventoryOptions(parser);
    parser.addOption(outputOption(QStringLiteral("text")));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Simulate allocating ResourceClaims with Kubernetes' structured allocator: where "
                "they would go, or why they cannot go anywhere, node by node."),
            &exitCode))
        return exitCode;
    if (!parser.isSet(QStringLiteral("claim")))
        return err(QStringLiteral("dractl simulate: --claim FILE is required\n")), Usage;
    const QString format = parser.value(QStringLiteral("output"));
    if (format != QLatin1String("text") && !isStructured(format))
        return err(QStringLiteral(
                   "dractl simulate: unknown output format '%1' (text, json, yaml)\n")
                       .arg(format)),
               Usage;
    bool ok = true;
    const int count = parser.isSet(QStringLiteral("count"))
        ? parser.value(QStringLiteral("count")).toInt(&ok)
        : 0;
    if (!ok || count < 0 || (parser.isSet(QStringLiteral("count")) && count < 1))
        return err(QStringLiteral("dractl simulate: --count takes a positive number\n")), Usage;
    const int explainNodes = parser.value(QStringLiteral("explain-nodes")).toInt(&ok);
    if (!ok || explainNodes < 0)
        return err(QStringLiteral("dractl simulate: --explain-nodes takes a number\n")), Usage;

    const QString claimFile = parser.value(QStringLiteral("claim"));
    const model::ManifestSet manifests = model::readManifests({ claimFile });
    for (const model::ManifestProblem &problem : manifests.problems)
        err(QStringLiteral("dractl: %1\n").arg(problem.message()));
    std::vector<json> documents;
    for (const model::ManifestDocument &document : manifests.documents)
        documents.push_back(document.object);
    Result<alloc::SimulationInput> input = alloc::readSimulationInput(documents);
    if (!input)
        return reportFailure(input.error().withContext(claimFile));
    const bool pods = !input->pods.empty();
    std::vector<ClaimToAllocate> claims = input->claims;
    if (!pods) {
        if (!claims.empty() && !input->templates.empty())
            return reportFailure(QStringLiteral(
                "%1 holds both ResourceClaims and ResourceClaimTemplates; simulate one template "
                "or the claims of one pod")
                                     .arg(claimFile));
        if (input->templates.size() > 1)
            return reportFailure(
                QStringLiteral("%1 holds %2 ResourceClaimTemplates; simulate one at a time")
                    .arg(claimFile)
                    .arg(input->templates.size()));
        if (claims.empty() && input->templates.empty())
            return reportFailure(QStringLiteral(
                "%1 holds no ResourceClaim, ResourceClaimTemplate or pod with resource claims")
                                     .arg(claimFile));
        if (claims.empty())
            claims = input->templates;
        if ((count > 0 || parser.isSet(QStringLiteral("fit"))) && claims.size() > 1)
            return reportFailure(
                QStringLiteral("--count and --fit take one claim or template; %1 holds %2 claims")
                    .arg(claimFile)
                    .arg(claims.size()));
    }

    Result<alloc::SimulationCluster> inventory = loadSimulationInventory(parser);
    if (!inventory)
        return reportFailure(inventory.error());
    const alloc::Cluster &cluster = *inventory->cluster;
    // Claims simulated again must not count their own current allocation.
    std::set<std::string> exclude;
    for (const ClaimToAllocate &claim : input->claims)
        exclude.insert(claim.ref());
    alloc::SimulationOptions options;
    options.node = parser.value(QStringLiteral("node")).toStdString();
    options.maxExplainedNodes = explainNodes;
    if (!options.node.empty() && cluster.findNode(options.node) < 0)
        return reportFailure(
            QStringLiteral("node %1 is not in the inventory").arg(qs(options.node)));

    Report report;
    if (parser.isSet(QStringLiteral("fit")) && !pods) {
        constexpr int kMaxCopies = 100000;
        const alloc::FitAnalysis fit = alloc::analyzeFit(cluster, inventory->release,
            alloc::AllocatedState::fromClaims(cluster, exclude), claims.front(),
            count > 0 ? count : kMaxCopies, options);
        report.document["fit"] = fitJson(fit, count > 0 ? count : kMaxCopies);
        report.allocated = fit.copiesThatFit > 0;
    } else {
        alloc::Simulator simulator(
            cluster, inventory->release, alloc::AllocatedState::fromClaims(cluster, exclude));
        // A template always stands for copies; a single claim too when --count is given.
        const int copies = pods ? 0 : (count > 0 ? count : (input->claims.empty() ? 1 : 0));
        report = pods ? simulatePodsReport(simulator, *input, options)
                      : simulateClaims(simulator, claims, copies, options);
    }
    report.document["featureGates"] = gatesJson(inventory->release.gates);
    report.document["kubernetesVersion"] = "1." + std::to_string(inventory->release.minor);
    if (!input->ignored.empty())
        report.document["ignored"] = input->ignored;

    if (format == QLatin1String("json"))
        printJson(report.document);
    else if (isStructured(format))
        printYaml(report.document);
    else
        printText(report, inventory->release.text());
    return report.allocated ? Ok : Failed;
}

const CommandRegistration simulateRegistration(
    { "simulate", "Simulate claim allocation: where claims go, or why not", runSimulate, 51 });

} // namespace

} // namespace dra::cli
