// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/simulator.h"

#include "core/alloc/request_setup.h"

#include <algorithm>

namespace dra::alloc {

namespace {

int rank(FunnelStep step)
{
    switch (step) {
    case FunnelStep::Constraints:
        return 7;
    case FunnelStep::Together:
        return 6;
    case FunnelStep::Free:
        return 5;
    case FunnelStep::Selectors:
        return 4;
    case FunnelStep::Class:
        return 3;
    case FunnelStep::Pools:
        return 2;
    case FunnelStep::TimedOut:
        return 1;
    case FunnelStep::Error:
        return 0;
    }
    return 0;
}

const char *phrase(FunnelStep step)
{
    switch (step) {
    case FunnelStep::Pools:
        return "no usable resource pool";
    case FunnelStep::Class:
        return "no device of the requested class";
    case FunnelStep::Selectors:
        return "too few devices matching the selectors";
    case FunnelStep::Free:
        return "too few free matching devices";
    case FunnelStep::Constraints:
        return "no devices satisfying the constraints together";
    case FunnelStep::Together:
        return "not enough devices for all requests together";
    case FunnelStep::Error:
        return "an allocator error";
    case FunnelStep::TimedOut:
        return "no answer within the search time";
    }
    return "";
}

// Whether `node` satisfies the selectors of claims the pod already has allocated.
bool nodeAllowed(const Cluster &cluster, const SimulationOptions &options, int node)
{
    for (const nlohmann::json &selector : options.requiredNodeSelectors) {
        if (selector.is_null())
            continue;
        Result<bool> ok = nodeSelectorMatches(selector, cluster.nodes()[size_t(node)]);
        if (!ok || !*ok)
            return false;
    }
    return true;
}

struct NodeRange
{
    int first = 0, last = 0; // [first, last)
    std::string error;
};

NodeRange nodeRange(const Cluster &cluster, const SimulationOptions &options, int firstNode)
{
    if (options.node.empty())
        return { std::max(0, firstNode), int(cluster.nodes().size()), {} };
    const int node = cluster.findNode(options.node);
    if (node < 0)
        return { 0, 0, "node " + options.node + " is not in the inventory" };
    return { node, node + 1, {} };
}

void appendSpec(std::string &key, const model::DeviceRequestSpec &spec)
{
    key += spec.name + '\x1f' + spec.deviceClassName + '\x1f' + spec.allocationMode + '\x1f'
        + std::to_string(spec.count) + (spec.adminAccess ? "A" : "-") + spec.tolerations.dump()
        + spec.capacity.dump();
    for (const model::DeviceSelector &selector : spec.selectors)
        key += '\x1e' + selector.celExpression;
    key += '\x1d';
}

// Everything about `claims` and the options that decides on which nodes they fit (not their
// names): placements of equal signatures can share what they learnt about full nodes.
std::string signature(const std::vector<ClaimToAllocate> &claims, const SimulationOptions &options)
{
    std::string key;
    for (const ClaimToAllocate &claim : claims) {
        for (const model::DeviceRequest &request : claim.spec.requests) {
            key += request.name + '\x1c';
            if (request.exactly)
                appendSpec(key, *request.exactly);
            for (const model::DeviceRequestSpec &sub : request.firstAvailable)
                appendSpec(key, sub);
        }
        for (const model::DeviceConstraint &constraint : claim.spec.constraints) {
            key += "C" + constraint.matchAttribute + '\x1f' + constraint.distinctAttribute;
            for (const std::string &r : constraint.requests)
                key += '\x1e' + r;
        }
        key += '\x1b';
    }
    for (const nlohmann::json &selector : options.requiredNodeSelectors)
        key += selector.dump();
    return key;
}

} // namespace

Simulator::Simulator(
    const Cluster &cluster, release::KubernetesRelease release, AllocatedState state)
    : m_cluster(cluster)
    , m_session(cluster, std::move(release))
    , m_state(std::move(state))
{
}

Placement Simulator::place(
    const std::vector<ClaimToAllocate> &claims, const SimulationOptions &options, int firstNode)
{
    Placement out;
    const NodeRange range = nodeRange(m_cluster, options, firstNode);
    if (!range.error.empty()) {
        out.error = range.error;
        return out;
    }
    const std::shared_ptr<const detail::PreparedClaims> prepared = prepareClaims(m_session, claims);
    if (prepared->error) {
        out.error = prepared->error->message; // the claims themselves are wrong, on every node
        return out;
    }
    // Taking devices never makes a node fit that did not: nodes where claims of the same shape
    // did not fit are skipped. Only a scan over all nodes learns this.
    const bool learn = options.node.empty() && options.skipKnownFullNodes;
    const std::string key = learn ? signature(claims, options) : std::string();
    int &watermark = learn ? m_firstCandidate[key] : m_scratch;
    const int start = std::max(range.first, learn ? watermark : 0);
    bool contiguous = learn && start == watermark; // learning needs a scan from the watermark
    std::string firstError;
    for (int node = start; node < range.last; ++node) {
        if (!nodeAllowed(m_cluster, options, node)) {
            if (contiguous)
                watermark = node + 1;
            continue;
        }
        AllocateOptions allocate;
        allocate.deadline = std::chrono::steady_clock::now() + options.timeoutPerNode;
        NodeAllocation result
            = allocateOnNode(m_session, m_state, node, claims, allocate, prepared.get());
        ++out.nodesConsidered;
        out.steps += result.steps;
        if (result.outcome == NodeAllocation::Outcome::DoesNotFit && !result.timedOut && contiguous)
            watermark = node + 1;
        else
            contiguous = false;
        if (result.outcome == NodeAllocation::Outcome::Allocated) {
            commitAllocation(m_cluster, m_state, claims, result.claims);
            out.allocated = true;
            out.node = node;
            out.claims = std::move(result.claims);
            return out;
        }
        if (result.outcome == NodeAllocation::Outcome::Error) {
            if (result.claimLevelError) {
                // The claims themselves are wrong: every node would say the same.
                out.error = result.error;
                return out;
            }
            if (firstError.empty())
                firstError = result.error;
        }
    }
    out.error = firstError;
    if (options.explain)
        out.explanation = explain(claims, options, &out.summary);
    return out;
}

std::vector<NodeExplanation> Simulator::explain(const std::vector<ClaimToAllocate> &claims,
    const SimulationOptions &options, std::string *summary)
{
    std::vector<NodeExplanation> all;
    const NodeRange range = nodeRange(m_cluster, options, 0);
    for (int node = range.first; node < range.last; ++node) {
        if (!nodeAllowed(m_cluster, options, node))
            continue;
        AllocateOptions allocate;
        allocate.deadline = std::chrono::steady_clock::now() + options.timeoutPerNode;
        all.push_back(explainNode(m_session, m_state, node, claims, allocate));
    }
    std::stable_sort(
        all.begin(), all.end(), [](const NodeExplanation &a, const NodeExplanation &b) {
            return rank(a.failedAt) > rank(b.failedAt);
        });
    if (summary) {
        std::vector<std::pair<FunnelStep, int>> counts;
        for (const NodeExplanation &e : all) {
            auto it = std::find_if(
                counts.begin(), counts.end(), [&](const auto &c) { return c.first == e.failedAt; });
            if (it == counts.end())
                counts.emplace_back(e.failedAt, 1);
            else
                ++it->second;
        }
        *summary = "0/" + std::to_string(all.size()) + (all.size() == 1 ? " node" : " nodes")
            + " can allocate the claims";
        for (size_t i = 0; i < counts.size(); ++i)
            *summary += (i ? ", " : ": ") + std::to_string(counts[i].second) + " with "
                + phrase(counts[i].first);
        *summary += ".";
    }
    if (options.maxExplainedNodes > 0 && int(all.size()) > options.maxExplainedNodes)
        all.resize(size_t(options.maxExplainedNodes));
    return all;
}

ClaimToAllocate claimCopy(const ClaimToAllocate &claim, int index)
{
    ClaimToAllocate copy = claim;
    copy.name = claim.name + "-" + std::to_string(index);
    return copy;
}

FitAnalysis analyzeFit(const Cluster &cluster, release::KubernetesRelease release,
    const AllocatedState &state, const ClaimToAllocate &claim, int maxCopies,
    const SimulationOptions &options)
{
    FitAnalysis out;
    Simulator simulator(cluster, std::move(release), state);
    const std::vector<ClaimToAllocate> one = { claimCopy(claim, 0) };
    const NodeRange range = nodeRange(cluster, options, 0);
    for (int node = range.first; node < range.last; ++node) {
        AllocateOptions allocate;
        allocate.deadline = std::chrono::steady_clock::now() + options.timeoutPerNode;
        if (allocateOnNode(simulator.session(), state, node, one, allocate).outcome
            == NodeAllocation::Outcome::Allocated)
            out.nodesWhereOneFits.push_back(cluster.nodes()[size_t(node)].name);
    }
    int start = 0;
    for (int copy = 1; copy <= maxCopies; ++copy) {
        SimulationOptions quiet = options;
        quiet.explain = false;
        Placement placement = simulator.place({ claimCopy(claim, copy) }, quiet, start);
        if (!placement.allocated) {
            // Explain from the first node: the copies before went where they fit first.
            out.nextCopy = std::move(placement);
            out.nextCopy.explanation
                = simulator.explain({ claimCopy(claim, copy) }, options, &out.nextCopy.summary);
            return out;
        }
        ++out.copiesThatFit;
        ++out.copiesPerNode[cluster.nodes()[size_t(placement.node)].name];
        start = placement.node;
    }
    out.capped = true;
    return out;
}

} // namespace dra::alloc
