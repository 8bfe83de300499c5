// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The migration plan as JSON (dractl, console API, web page) and as text.
#include "core/alloc/migration_plan.h"

#include "core/model/yaml_codec.h"

namespace dra::alloc {

namespace {

using nlohmann::json;

json verdictJson(const MigrationVerdict &verdict)
{
    json nodes = json::object();
    for (const auto &[node, pods] : verdict.nodes)
        nodes[node] = pods;
    json out = { { "fits", verdict.fits }, { "replicas", verdict.replicas },
        { "placed", verdict.placed }, { "nodes", std::move(nodes) }, { "reason", verdict.reason } };
    if (!verdict.error.empty())
        out["error"] = verdict.error;
    if (!verdict.explanation.empty())
        out["explanation"] = verdict.explanation;
    return out;
}

std::string nodesText(const std::map<std::string, int> &nodes)
{
    std::string out;
    for (const auto &[node, pods] : nodes)
        out += (out.empty() ? "" : ", ") + node
            + (pods > 1 ? " (" + std::to_string(pods) + ")" : "");
    return out;
}

} // namespace

json toJson(const MigrationProposal &proposal)
{
    json out = { { "form", migrationFormName(proposal.form) }, { "reason", proposal.reason } };
    if (proposal.form == MigrationForm::None)
        return out;
    out["deviceClasses"] = proposal.deviceClasses;
    if (proposal.form == MigrationForm::ExtendedResourceClass)
        out["extendedResourceClass"] = proposal.deviceClasses.front();
    else
        out["claimTemplate"] = proposal.templateName;
    out["objects"] = proposal.objects;
    out["manifests"]
        = proposal.objects.empty() ? std::string() : model::jsonToYamlDocuments(proposal.objects);
    out["podTemplateChange"] = proposal.podTemplateChange;
    out["podTemplate"] = proposal.podTemplate;
    if (!proposal.excludedNodes.empty())
        out["deviceNodesKept"] = proposal.excludedNodes;
    out["notes"] = proposal.notes;
    return out;
}

json toJson(const MigrationPlan &plan)
{
    json workloads = json::array();
    for (const WorkloadMigration &w : plan.workloads) {
        json requests = json::array();
        for (const ExtendedRequest &r : w.workload.requests)
            requests.push_back({ { "container", r.container }, { "resource", r.resource },
                { "count", r.count }, { "nodesAdvertising", r.nodesAdvertising } });
        json entry = { { "namespace", w.workload.ns }, { "kind", w.workload.kind },
            { "name", w.workload.name }, { "source", w.workload.source },
            { "replicas", w.workload.replicas }, { "pods", w.workload.pods },
            { "extendedResources", std::move(requests) }, { "proposal", toJson(w.proposal) },
            { "verdict", verdictJson(w.verdict) } };
        if (w.claimTemplate)
            entry["claimTemplateAlternative"] = toJson(*w.claimTemplate);
        workloads.push_back(std::move(entry));
    }
    return { { "cluster", plan.cluster }, { "rev", plan.rev },
        { "kubernetesVersion", plan.release.version() }, { "release", plan.release.text() },
        { "extendedResourcesFromDra", plan.release.gates.extendedResource },
        { "source", { { "objectKinds", plan.source.objectKinds }, { "text", plan.source.text } } },
        { "namespace", plan.ns }, { "workloads", std::move(workloads) } };
}

std::string toText(const MigrationPlan &plan)
{
    std::string out = "Migration plan for " + plan.cluster + " (" + plan.release.text() + ")\n";
    out += "Workloads: " + plan.source.text + ".\n";
    if (plan.workloads.empty())
        out += "No workload " + (plan.ns.empty() ? std::string() : "in " + plan.ns + " ")
            + "asks for extended resources: nothing to migrate.\n";
    for (const WorkloadMigration &w : plan.workloads) {
        out += "\n" + w.workload.kind + " " + w.workload.ns + "/" + w.workload.name + " ("
            + std::to_string(w.workload.replicas) + " pod(s), from " + w.workload.source + ")\n";
        for (const ExtendedRequest &r : w.workload.requests)
            out += "  asks " + std::to_string(r.count) + " " + r.resource + " in container "
                + r.container + "\n";
        out += "  proposal: " + std::string(migrationFormName(w.proposal.form)) + " — "
            + w.proposal.reason + "\n";
        for (const std::string &note : w.proposal.notes)
            out += "    " + note + "\n";
        for (const json &object : w.proposal.objects)
            out += "    apply " + object.value("kind", "") + " "
                + object["metadata"].value("name", "") + "\n";
        if (w.proposal.form == MigrationForm::None)
            continue;
        if (w.verdict.fits)
            out += "  fits: " + std::to_string(w.verdict.placed) + " pod(s) on "
                + nodesText(w.verdict.nodes) + "\n";
        else
            out += "  does not fit: " + w.verdict.reason + "\n";
    }
    return out;
}

} // namespace dra::alloc
