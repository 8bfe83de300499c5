// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/migration_plan.h"

#include <algorithm>
#include <set>

#include "core/alloc/simulation_json.h"
#include "core/alloc/simulator.h"

namespace dra::alloc {

namespace {

using nlohmann::json;

// How many nodes a verdict explains, closest first.
constexpr int kExplainedNodes = 5;

// The pods' nodeSelector and the nodes the device plugin keeps, as one core/v1 NodeSelector.
json requiredSelector(const MigrationProposal &proposal)
{
    json term = json::object();
    for (const auto &[key, value] : proposal.nodeSelector)
        term["matchExpressions"].push_back(
            { { "key", key }, { "operator", "In" }, { "values", json::array({ value }) } });
    // Kubernetes takes one value per metadata.name requirement; requirements are ANDed.
    for (const std::string &node : proposal.excludedNodes)
        term["matchFields"].push_back({ { "key", "metadata.name" }, { "operator", "NotIn" },
            { "values", json::array({ node }) } });
    if (term.empty())
        return nullptr;
    return { { "nodeSelectorTerms", json::array({ std::move(term) }) } };
}

std::string selectorText(const model::StringPairs &selector)
{
    std::string out;
    for (const auto &[key, value] : selector)
        out += (out.empty() ? "" : ",") + key + "=" + value;
    return out;
}

MigrationVerdict simulate(const SimulationCluster &simulation, const LegacyWorkload &workload,
    const MigrationProposal &proposal)
{
    MigrationVerdict verdict;
    const Cluster &cluster = *simulation.cluster;
    SimulationOptions options;
    options.maxExplainedNodes = kExplainedNodes;
    const json selector = requiredSelector(proposal);
    if (!selector.is_null())
        options.requiredNodeSelectors.push_back(selector);
    const auto allowed = [&](const std::string &node) {
        const int index = cluster.findNode(node);
        if (index < 0 || selector.is_null())
            return index >= 0;
        Result<bool> ok = nodeSelectorMatches(selector, cluster.nodes()[size_t(index)]);
        return ok && *ok;
    };

    const bool daemonSet = workload.kind == "DaemonSet";
    verdict.replicas = daemonSet ? 1 : std::max(1, workload.replicas);
    const FitAnalysis fit = analyzeFit(cluster, simulation.release,
        AllocatedState::fromClaims(cluster), proposal.claim, verdict.replicas, options);
    if (daemonSet) {
        for (const std::string &node : fit.nodesWhereOneFits)
            if (allowed(node))
                verdict.nodes[node] = 1;
        verdict.placed = verdict.nodes.empty() ? 0 : 1;
        verdict.fits = !verdict.nodes.empty();
    } else {
        verdict.placed = fit.copiesThatFit;
        verdict.nodes = fit.copiesPerNode;
        verdict.fits = fit.copiesThatFit >= verdict.replicas;
    }
    if (verdict.fits) {
        if (!proposal.excludedNodes.empty())
            verdict.reason = std::to_string(proposal.excludedNodes.size())
                + " node(s) whose device plugin offers the resource keep serving it there and "
                  "are left out";
        return verdict;
    }
    const Placement &next = fit.nextCopy;
    verdict.error = next.error;
    for (const NodeExplanation &e : next.explanation)
        verdict.explanation.push_back(explanationJson(e));
    const std::string pods = daemonSet ? std::string("the DaemonSet's pod fits on no DRA node")
                                       : std::to_string(verdict.placed) + " of "
            + std::to_string(verdict.replicas) + " pod(s) get devices";
    bool anyAllowed = false;
    for (const NodeInfo &node : cluster.nodes())
        anyAllowed = anyAllowed || allowed(node.name);
    if (!anyAllowed)
        verdict.reason = pods + ": no node matches the pods' nodeSelector "
            + selectorText(proposal.nodeSelector)
            + (proposal.excludedNodes.empty() ? "" : " outside the device-plugin nodes");
    else if (!next.error.empty())
        verdict.reason = pods + ": " + next.error;
    else if (!next.summary.empty())
        verdict.reason = pods + ": " + next.summary;
    else
        verdict.reason = pods;
    return verdict;
}

// DeviceClasses the proposals create that the cluster does not have yet: the simulation
// needs them to select devices as they will.
std::vector<model::Object> newClasses(
    const Cluster &cluster, const std::vector<WorkloadMigration> &workloads)
{
    std::vector<model::Object> out;
    std::set<std::string> seen;
    const auto collect = [&](const MigrationProposal &proposal) {
        for (const json &object : proposal.objects) {
            if (object.value("kind", "") != "DeviceClass")
                continue;
            const std::string name = object["metadata"].value("name", "");
            if (cluster.findClass(name) || !seen.insert(name).second)
                continue;
            if (Result<model::Object> decoded = model::decodeObject(object))
                out.push_back(std::move(*decoded));
        }
    };
    for (const WorkloadMigration &w : workloads) {
        collect(w.proposal);
        if (w.claimTemplate)
            collect(*w.claimTemplate);
    }
    return out;
}

} // namespace

Result<MigrationPlan> planMigration(
    const inventory::Snapshot &snapshot, const SimulationCluster &cluster, std::string_view ns)
{
    MigrationPlan plan;
    plan.cluster = snapshot.cluster();
    plan.rev = snapshot.rev();
    plan.release = cluster.release;
    plan.source = workloadSource(snapshot);
    plan.ns = std::string(ns);
    for (LegacyWorkload &workload : findLegacyWorkloads(snapshot, ns)) {
        WorkloadMigration migration;
        migration.proposal = proposeMigration(workload, snapshot, cluster.release);
        if (migration.proposal.form == MigrationForm::ExtendedResourceClass)
            migration.claimTemplate = proposeClaimTemplate(workload, snapshot);
        migration.workload = std::move(workload);
        plan.workloads.push_back(std::move(migration));
    }

    SimulationCluster simulation = cluster;
    if (std::vector<model::Object> extra = newClasses(*cluster.cluster, plan.workloads);
        !extra.empty()) {
        Result<SimulationCluster> extended
            = simulationCluster(snapshot, cluster.release, std::move(extra));
        if (!extended)
            return fail(extended.error());
        simulation = std::move(*extended);
    }
    for (WorkloadMigration &migration : plan.workloads) {
        if (migration.proposal.form == MigrationForm::None) {
            migration.verdict.reason = migration.proposal.reason;
            continue;
        }
        migration.verdict = simulate(simulation, migration.workload, migration.proposal);
    }
    return plan;
}

const WorkloadMigration *findWorkload(const MigrationPlan &plan, std::string_view name)
{
    std::string_view ns, kind;
    if (const size_t slash = name.find('/'); slash != std::string_view::npos) {
        const std::string_view first = name.substr(0, slash);
        (std::any_of(plan.workloads.begin(), plan.workloads.end(),
             [&](const WorkloadMigration &w) { return w.workload.kind == first; })
                ? kind
                : ns)
            = first;
        name.remove_prefix(slash + 1);
    }
    for (const WorkloadMigration &w : plan.workloads)
        if (w.workload.name == name && (ns.empty() || w.workload.ns == ns)
            && (kind.empty() || w.workload.kind == kind))
            return &w;
    return nullptr;
}

} // namespace dra::alloc
