// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/alloc/allocator.h"
#include "core/alloc/explain.h"

namespace dra::alloc {

struct SimulationOptions
{
    std::string node; // only this node; empty: every node
    // Kubernetes' per-node Filter bound (DRASchedulerFilterTimeout's default).
    std::chrono::milliseconds timeoutPerNode { 10'000 };
    // How many nodes an explanation lists (those that came closest first); 0: all.
    int maxExplainedNodes = 20;
    // Explain failures (per node funnels); off when only the outcome matters.
    bool explain = true;
    // Skip nodes where claims of the same shape did not fit before (exact: taking devices
    // never makes a node fit again); off to search every node from the first each time.
    bool skipKnownFullNodes = true;
    // Node selectors (core/v1 NodeSelector JSON) every candidate node must match: the
    // allocations of claims the pod shares with pods placed before.
    std::vector<nlohmann::json> requiredNodeSelectors;
};

// Where the claims of one pod went, or why they could not go anywhere.
struct Placement
{
    bool allocated = false;
    int node = -1; // index into Cluster::nodes() when allocated
    std::vector<ClaimResult> claims; // when allocated, one per claim
    // Kubernetes' allocator error when no node fits and a node reported one (unknown class,
    // invalid pool, CEL error, ...).
    std::string error;
    // When no node fits without an error: per node, why; the closest nodes first.
    std::vector<NodeExplanation> explanation;
    // The scheduler-style summary, "0/15 nodes can allocate the claims: ...".
    std::string summary;
    int nodesConsidered = 0;
    int64_t steps = 0;
};

// Allocation as kube-scheduler does it for one pod after another, over one Cluster: every
// pod's claims together (all or nothing) on the first node, by name, where they all fit, then
// recorded so the next pod sees them taken. Not thread-safe; make one per thread.
class Simulator final
{
public:
    Simulator(const Cluster &cluster, release::KubernetesRelease release, AllocatedState state);

    const Cluster &cluster() const { return m_cluster; }
    Session &session() { return m_session; }
    AllocatedState &state() { return m_state; }
    const AllocatedState &state() const { return m_state; }

    // Places `claims` and, when they fit, records them in state(). Nodes before `firstNode` are
    // skipped: a caller placing copies of one claim may start where the previous copy went,
    // since taking devices never makes an earlier node fit again.
    Placement place(const std::vector<ClaimToAllocate> &claims,
        const SimulationOptions &options = {}, int firstNode = 0);

    // Why `claims` fit on no node, per node, closest nodes first (without changing the state).
    std::vector<NodeExplanation> explain(const std::vector<ClaimToAllocate> &claims,
        const SimulationOptions &options, std::string *summary);

private:
    const Cluster &m_cluster;
    Session m_session;
    AllocatedState m_state;
    // Per claim signature: nodes before this index did not fit claims of that shape.
    std::unordered_map<std::string, int> m_firstCandidate;
    int m_scratch = 0;
};

// What a ResourceClaimTemplate (or claim) can get from the cluster as it is.
struct FitAnalysis
{
    std::vector<std::string> nodesWhereOneFits; // one copy alone fits there
    int copiesThatFit = 0; // copies placed one after another, first fit
    bool capped = false; // stopped at the limit, more may fit
    std::map<std::string, int> copiesPerNode;
    Placement nextCopy; // the first copy that did not fit: why (error or explanation)
};

// Places copies of `claim` until one does not fit (or `maxCopies`), on a copy of the state.
FitAnalysis analyzeFit(const Cluster &cluster, release::KubernetesRelease release,
    const AllocatedState &state, const ClaimToAllocate &claim, int maxCopies,
    const SimulationOptions &options = {});

// A copy of `claim` named "<name>-<index>", as a template stamps one claim per pod.
ClaimToAllocate claimCopy(const ClaimToAllocate &claim, int index);

} // namespace dra::alloc
