// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/migration_plan.h"

#include <algorithm>
#include <set>

#include "core/alloc/simulation_json.h"
#include "core/alloc/simulator.h"
#include "core/alloc/node_taints.h"
#include "core/model/device_taints.h"

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

// The pods' own required node affinity, which the migrated template keeps; null when none.
json requiredAffinity(const json &podTemplate)
{
    const json &terms = podTemplate.value("spec", json::object())
                            .value("affinity", json::object())
                            .value("nodeAffinity", json::object())
                            .value("requiredDuringSchedulingIgnoredDuringExecution", json());
    const json list = terms.is_object() ? terms.value("nodeSelectorTerms", json()) : json();
    return list.is_array() && !list.empty() ? terms : json();
}

// The node taints that keep the pods off `node`, as the scheduler's TaintToleration filter
// sees them: NoSchedule and NoExecute taints none of the pods' tolerations tolerates.
// "key=value:Effect" each.
std::vector<std::string> untoleratedNodeTaints(const inventory::Snapshot &snapshot,
    const std::string &node, const std::vector<model::Toleration> &tolerations)
{
    std::vector<std::string> out;
    for (const model::DeviceTaint &taint : nodeTaints(snapshot, node)) {
        if (!model::taintBlocksAllocation(taint)
            || std::ranges::any_of(tolerations,
                [&](const model::Toleration &t) { return model::tolerates(t, taint); }))
            continue;
        out.push_back(
            taint.key + (taint.value.empty() ? "" : "=" + taint.value) + ":" + taint.effect);
    }
    return out;
}

// Where the pods may go at all, before devices: the proposal's nodeSelector (and the nodes the
// device plugin keeps), the pods' required node affinity, and the nodes whose taints they
// tolerate. Each is a core/v1 NodeSelector the simulator requires of every candidate node.
struct NodeConstraints
{
    json selector; // nodeSelector and excluded nodes; null when none
    json affinity; // required node affinity; null when none
    json tolerated; // metadata.name NotIn the untolerated nodes; null when none
    std::map<std::string, std::vector<std::string>> taintedNodes; // node -> its blocking taints

    std::vector<json> required() const
    {
        std::vector<json> out;
        for (const json *part : { &selector, &affinity, &tolerated })
            if (!part->is_null())
                out.push_back(*part);
        return out;
    }
};

NodeConstraints nodeConstraints(const inventory::Snapshot &snapshot, const Cluster &cluster,
    const MigrationProposal &proposal, const json &podTemplate)
{
    NodeConstraints constraints;
    constraints.selector = requiredSelector(proposal);
    constraints.affinity = requiredAffinity(podTemplate);
    // The template's own tolerations, and those admission adds for the extended resources it
    // still asks for (the extended-resource class form keeps them).
    const json spec = podTemplate.value("spec", json::object());
    std::vector<model::Toleration> tolerations
        = model::parseTolerations(spec.value("tolerations", json()));
    for (model::Toleration &added : extendedResourceTolerations(spec))
        tolerations.push_back(std::move(added));
    json term = json::object();
    for (const NodeInfo &node : cluster.nodes()) {
        std::vector<std::string> taints = untoleratedNodeTaints(snapshot, node.name, tolerations);
        if (taints.empty())
            continue;
        term["matchFields"].push_back({ { "key", "metadata.name" }, { "operator", "NotIn" },
            { "values", json::array({ node.name }) } });
        constraints.taintedNodes[node.name] = std::move(taints);
    }
    if (!term.empty())
        constraints.tolerated = { { "nodeSelectorTerms", json::array({ std::move(term) }) } };
    return constraints;
}

// Whether `node` passes `selector` (a null selector passes every node).
bool passes(const json &selector, const NodeInfo &node)
{
    if (selector.is_null())
        return true;
    Result<bool> ok = nodeSelectorMatches(selector, node);
    return ok && *ok;
}

std::string selectorText(const model::StringPairs &selector)
{
    std::string out;
    for (const auto &[key, value] : selector)
        out += (out.empty() ? "" : ",") + key + "=" + value;
    return out;
}

MigrationVerdict simulate(const inventory::Snapshot &snapshot, const SimulationCluster &simulation,
    const LegacyWorkload &workload, const MigrationProposal &proposal)
{
    MigrationVerdict verdict;
    const Cluster &cluster = *simulation.cluster;
    SimulationOptions options;
    options.maxExplainedNodes = kExplainedNodes;
    // The pod template as it will be: the proposal's, else the workload's own.
    const json &podTemplate
        = proposal.podTemplate.is_object() ? proposal.podTemplate : workload.podTemplate;
    const NodeConstraints constraints = nodeConstraints(snapshot, cluster, proposal, podTemplate);
    options.requiredNodeSelectors = constraints.required();
    const auto allowed = [&](const std::string &node) {
        const int index = cluster.findNode(node);
        if (index < 0)
            return false;
        const NodeInfo &info = cluster.nodes()[size_t(index)];
        return std::ranges::all_of(
            options.requiredNodeSelectors, [&](const json &part) { return passes(part, info); });
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
    // Which constraint left no node: the first that alone excludes every node, in the order
    // the scheduler's filters would report them.
    const auto excludesAll = [&](const json &part) {
        return !part.is_null() && std::ranges::none_of(cluster.nodes(), [&](const NodeInfo &node) {
            return passes(part, node);
        });
    };
    if (!anyAllowed && excludesAll(constraints.selector))
        verdict.reason = pods + ": no node matches the pods' nodeSelector "
            + selectorText(proposal.nodeSelector)
            + (proposal.excludedNodes.empty() ? "" : " outside the device-plugin nodes");
    else if (!anyAllowed && excludesAll(constraints.affinity))
        verdict.reason = pods + ": no node matches the pods' required node affinity";
    else if (!anyAllowed && !constraints.taintedNodes.empty()) {
        const auto &[node, taints] = *constraints.taintedNodes.begin();
        verdict.reason = pods + ": every node that matches has a taint the pods do not tolerate ("
            + node + ": " + taints.front()
            + (constraints.taintedNodes.size() > 1 ? ", and "
                        + std::to_string(constraints.taintedNodes.size() - 1) + " more node(s))"
                                                   : ")");
    } else if (!anyAllowed)
        verdict.reason = pods
            + ": no node matches the pods' nodeSelector, node affinity and "
              "tolerations together";
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
        migration.verdict = simulate(snapshot, simulation, migration.workload, migration.proposal);
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
