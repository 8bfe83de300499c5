// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/explain.h"

#include <algorithm>
#include <set>

#include "core/alloc/request_setup.h"
#include "core/alloc/selector_clauses.h"

namespace dra::alloc {

namespace {

using detail::Request;

constexpr size_t kMaxHolders = 5;

// How far a funnel got: later steps rank higher.
int progress(FunnelStep step)
{
    switch (step) {
    case FunnelStep::Error:
    case FunnelStep::TimedOut:
        return 0;
    case FunnelStep::Pools:
        return 1;
    case FunnelStep::Class:
        return 2;
    case FunnelStep::Selectors:
        return 3;
    case FunnelStep::Free:
        return 4;
    case FunnelStep::Together:
        return 5;
    case FunnelStep::Constraints:
        return 6;
    }
    return 0;
}

class Funnel final
{
public:
    Funnel(Session &session, const AllocatedState &state, int node, const NodePools &pools)
        : m_session(session)
        , m_cluster(session.cluster())
        , m_state(state)
        , m_node(node)
        , m_pools(pools)
    {
        for (const NodePool &pool : pools.pools) {
            if (pool.incomplete || pool.invalid)
                continue;
            for (const int slice : pool.slices) {
                const Cluster::Slice &entry = m_cluster.slices()[size_t(slice)];
                for (int d = entry.firstDevice; d < entry.firstDevice + entry.deviceCount; ++d) {
                    m_usable.push_back(d);
                    m_poolOf[d] = &pool;
                }
            }
        }
    }

    // The funnel of one request; `passes` tells whether it finds enough devices on its own.
    NodeExplanation run(const ClaimToAllocate &claim, const Request &request, bool *passes);

private:
    bool classMatches(const Request &request, int device);
    bool countersLeft(int device);
    void blame(const std::string &source, const std::vector<model::DeviceSelector> &selectors,
        const std::vector<int> &devices, std::vector<ClauseBlame> *out);
    std::string poolsReason() const;

    Session &m_session;
    const Cluster &m_cluster;
    const AllocatedState &m_state;
    int m_node;
    const NodePools &m_pools;
    std::vector<int> m_usable;
    std::unordered_map<int, const NodePool *> m_poolOf;
    std::unordered_map<int, CounterSets> m_available;
};

bool Funnel::classMatches(const Request &request, int device)
{
    const model::Device &spec = *m_cluster.devices()[size_t(device)].spec;
    if (!m_session.gates().bindingConditions() && !spec.bindingConditions.empty())
        return false;
    if (m_session.matches(request.classList, device).outcome != SelectorMatch::Outcome::Match)
        return false;
    if (m_cluster.sliceOf(device).spec->perDeviceNodeSelection) {
        Result<bool> match = nodeMatches(
            m_cluster.nodes()[size_t(m_node)], spec.nodeName, spec.allNodes, spec.nodeSelector);
        return match && *match;
    }
    return true;
}

bool Funnel::countersLeft(int device)
{
    const NodePool &pool = *m_poolOf.at(device);
    auto [it, added] = m_available.try_emplace(pool.pool);
    if (added)
        it->second = detail::availableCounters(m_cluster, m_state, pool);
    for (const model::DeviceCounterConsumption &consumption :
        m_cluster.devices()[size_t(device)].spec->consumesCounters) {
        const auto set = it->second.find(consumption.counterSet);
        if (set == it->second.end())
            continue;
        for (const auto &[name, value] : consumption.counters)
            if (const auto counter = set->second.find(name);
                counter != set->second.end() && counter->second < value.nanoUnits())
                return false;
    }
    return true;
}

void Funnel::blame(const std::string &source, const std::vector<model::DeviceSelector> &selectors,
    const std::vector<int> &devices, std::vector<ClauseBlame> *out)
{
    if (devices.empty())
        return;
    for (const model::DeviceSelector &selector : selectors) {
        for (const std::string &clause : splitClauses(selector.celExpression)) {
            const Session::Compiled &compiled = m_session.compile(clause);
            int eliminated = 0;
            for (const int device : devices) {
                if (!compiled.error.empty()) {
                    ++eliminated;
                    continue;
                }
                const cel::SelectorResult result
                    = cel::evaluate(compiled.selector, m_session.view(device));
                if (result.outcome != cel::SelectorResult::Outcome::Match)
                    ++eliminated;
            }
            if (eliminated > 0)
                out->push_back({ source, clause, eliminated });
        }
    }
}

std::string Funnel::poolsReason() const
{
    std::vector<std::string> problems;
    for (const NodePool &pool : m_pools.pools) {
        const Cluster::Pool &info = m_cluster.pools()[size_t(pool.pool)];
        if (pool.incomplete)
            problems.push_back("pool " + info.driver + "/" + info.name
                + " is incomplete (not all of its "
                  "resourceSliceCount slices of the newest generation are published)");
        else if (pool.invalid)
            problems.push_back(
                "pool " + info.driver + "/" + info.name + " is invalid: " + pool.invalidReason);
    }
    if (problems.empty())
        return "no ResourceSlice publishes devices for this node";
    std::string out;
    for (const std::string &p : problems)
        out += (out.empty() ? "" : "; ") + p;
    return out;
}

NodeExplanation Funnel::run(const ClaimToAllocate &claim, const Request &request, bool *passes)
{
    const release::FeatureGates &gates = m_session.gates();
    NodeExplanation out;
    out.claim = claim.ref();
    out.request = request.fullName();
    out.visible = int(m_usable.size());
    std::vector<int> notOfClass, notMatching;
    std::set<std::string> holders;
    for (const int d : m_usable) {
        if (!classMatches(request, d)) {
            notOfClass.push_back(d);
            continue;
        }
        ++out.ofClass;
        if (m_session.matches(request.requestList, d).outcome != SelectorMatch::Outcome::Match) {
            notMatching.push_back(d);
            continue;
        }
        ++out.matching;
        const Cluster::Device &entry = m_cluster.devices()[size_t(d)];
        if (!request.adminAccess() && m_state.isAllocated(entry.id)) {
            ++out.allocated;
            holders.insert(*m_state.holder(entry.id));
        } else if (!entry.spec->consumesCounters.empty()
            && (!gates.partitionableDevices || !countersLeft(d))) {
            ++out.noCounters;
        } else if (gates.deviceTaints
            && model::untoleratedTaint(m_session.taints(d), request.tolerations)) {
            ++out.tainted;
        } else if (gates.consumableCapacity
            && checkCapacity(entry.spec->capacity, request.capacity,
                   m_state.sharedCapacity(entry.id), nullptr)
                != CapacityVerdict::Fits) {
            ++out.noCapacity;
        } else {
            ++out.free;
        }
    }
    for (const std::string &holder : holders) {
        if (out.holders.size() >= kMaxHolders)
            break;
        out.holders.push_back(holder);
    }
    // "All" needs at least one device and every matching one.
    out.needed = request.all ? std::max(1, out.matching) : request.numDevices;
    const std::string className = request.deviceClass->name;
    const std::string need = std::to_string(out.needed);
    *passes = false;
    if (out.visible == 0) {
        out.failedAt = FunnelStep::Pools;
        out.reason = poolsReason();
    } else if (out.ofClass == 0) {
        out.failedAt = FunnelStep::Class;
        out.reason = "none of the " + std::to_string(out.visible)
            + " devices of the node is of DeviceClass " + className;
        blame("class " + className, request.deviceClass->spec->selectors, notOfClass, &out.clauses);
    } else if (out.matching < out.needed) {
        out.failedAt = FunnelStep::Selectors;
        out.reason = std::to_string(out.matching) + " of the " + std::to_string(out.ofClass)
            + " devices of class " + className + " match the selectors of request " + out.request
            + ", which needs " + need;
        blame("request " + out.request, request.spec->selectors, notMatching, &out.clauses);
    } else if (out.free < out.needed) {
        out.failedAt = FunnelStep::Free;
        std::vector<std::string> why;
        if (out.allocated)
            why.push_back(std::to_string(out.allocated) + " allocated to other claims");
        if (out.noCounters)
            why.push_back(std::to_string(out.noCounters)
                + (gates.partitionableDevices ? " without enough shared counters left"
                                              : " partitionable (DRAPartitionableDevices is off)"));
        if (out.tainted)
            why.push_back(
                std::to_string(out.tainted) + " with a taint the request does not tolerate");
        if (out.noCapacity)
            why.push_back(std::to_string(out.noCapacity) + " without enough capacity left");
        std::string list;
        for (const std::string &w : why)
            list += (list.empty() ? "" : ", ") + w;
        out.reason = std::to_string(out.matching) + " devices match request " + out.request
            + " but only " + std::to_string(out.free) + " are free (" + list + "); it needs "
            + need;
    } else {
        *passes = true;
    }
    return out;
}

std::string constraintsText(const ClaimToAllocate &claim)
{
    std::string out;
    for (const model::DeviceConstraint &constraint : claim.spec.constraints) {
        std::string one = !constraint.matchAttribute.empty()
            ? "matchAttribute " + constraint.matchAttribute
            : "distinctAttribute " + constraint.distinctAttribute;
        if (!constraint.requests.empty()) {
            one += " on ";
            for (size_t i = 0; i < constraint.requests.size(); ++i)
                one += (i ? ", " : "") + constraint.requests[i];
        }
        out += (out.empty() ? "" : "; ") + one;
    }
    return out;
}

} // namespace

const char *funnelStepName(FunnelStep step)
{
    switch (step) {
    case FunnelStep::Pools:
        return "pools";
    case FunnelStep::Class:
        return "class";
    case FunnelStep::Selectors:
        return "selectors";
    case FunnelStep::Free:
        return "free";
    case FunnelStep::Constraints:
        return "constraints";
    case FunnelStep::Together:
        return "together";
    case FunnelStep::Error:
        return "error";
    case FunnelStep::TimedOut:
        return "timed-out";
    }
    return "";
}

NodeExplanation explainNode(Session &session, const AllocatedState &state, int node,
    const std::vector<ClaimToAllocate> &claims, const AllocateOptions &options)
{
    NodeExplanation out;
    const std::string nodeName = session.cluster().nodes()[size_t(node)].name;
    const NodePools &pools = session.nodePools(node);
    if (!pools.error.empty()) {
        out.node = nodeName;
        out.failedAt = FunnelStep::Error;
        out.reason = pools.error;
        return out;
    }
    detail::DeviceTests tests(session, state, node);
    Funnel funnel(session, state, node, pools);
    for (const ClaimToAllocate &claim : claims) {
        detail::ClaimRequests requests;
        if (std::optional<detail::SetupError> error
            = detail::setupClaim(tests, pools, claim, &requests)) {
            out.node = nodeName;
            out.failedAt = FunnelStep::Error;
            out.claim = claim.ref();
            out.reason = error->message;
            return out;
        }
        for (const std::vector<Request> &alternatives : requests.requests) {
            // A request with subrequests fails only when every alternative does; show the one
            // that got furthest.
            NodeExplanation best;
            bool any = false, passes = false;
            for (const Request &request : alternatives) {
                bool ok = false;
                NodeExplanation e = funnel.run(claim, request, &ok);
                if (ok) {
                    passes = true;
                    break;
                }
                if (!any || progress(e.failedAt) > progress(best.failedAt))
                    best = std::move(e);
                any = true;
            }
            if (!passes) {
                best.node = nodeName;
                return best;
            }
        }
    }

    // Each request finds devices alone: do the constraints or the competition between requests
    // keep them from fitting together?
    out.node = nodeName;
    AllocateOptions relaxed = options;
    relaxed.ignoreConstraints = true;
    const NodeAllocation without = allocateOnNode(session, state, node, claims, relaxed);
    if (without.outcome == NodeAllocation::Outcome::Allocated) {
        out.failedAt = FunnelStep::Constraints;
        for (const ClaimToAllocate &claim : claims) {
            if (claim.spec.constraints.empty())
                continue;
            out.claim = claim.ref();
            out.reason
                = "every request finds devices, but no choice of them satisfies the constraints ("
                + constraintsText(claim) + ")";
            break;
        }
        if (out.reason.empty())
            out.reason = "every request finds devices, but not together under the constraints";
    } else if (without.timedOut) {
        out.failedAt = FunnelStep::TimedOut;
        out.reason = without.error;
    } else if (without.outcome == NodeAllocation::Outcome::Error) {
        out.failedAt = FunnelStep::Error;
        out.reason = without.error;
    } else {
        out.failedAt = FunnelStep::Together;
        out.reason = "every request finds enough devices on its own, but the requests compete for "
                     "the same "
                     "devices (or shared counters) and do not all fit together";
    }
    return out;
}

} // namespace dra::alloc
