// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The per-node search of Kubernetes' structured allocator: every claim, every request, every
// required device in order; for each, the candidates in pool order that are free, match the
// selectors, fit counters and capacity and keep the constraints satisfied; recursion into the
// next device, and backtracking when that fails. The first complete solution wins.
#include "core/alloc/allocator.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

#include <QUuid>

#include "core/alloc/constraints.h"
#include "core/alloc/request_setup.h"

namespace dra::alloc {

namespace {

using detail::ClaimRequests;
using detail::Request;

// How often the search looks at the clock.
constexpr int64_t kDeadlineCheckInterval = 256;

enum class Step { Found, NotFound, MaxSizeExceeded, Failed };

struct Pick
{
    int device = -1;
    const Request *request = nullptr;
    ConsumedCapacity consumed;
    std::string shareID;
};

struct ClaimSearch
{
    const ClaimToAllocate *claim = nullptr;
    std::string ref;
    const ClaimRequests *requests = nullptr;
    ClaimRequests own; // a per-node copy when "All" requests resolve differently per node
    std::vector<int> selectedSubRequest;
    std::vector<std::unique_ptr<Constraint>> constraints;
    std::vector<Pick> picks;
};

class Search final
{
public:
    Search(Session &session, const AllocatedState &state, int node, const AllocateOptions &options)
        : m_session(session)
        , m_cluster(session.cluster())
        , m_state(state)
        , m_tests(session, state, node)
        , m_node(node)
        , m_options(options)
    {
    }

    NodeAllocation run(
        const std::vector<ClaimToAllocate> &claims, const detail::PreparedClaims *prepared);

private:
    Step allocateOne(
        size_t claim, size_t request, size_t sub, int deviceIndex, bool allocateSubRequest);
    // Tries `device` for the request; on success the state holds it and `undo` takes it back.
    bool allocateDevice(size_t claim, const Request &request, int device, const NodePool &pool,
        bool must, bool *failed);
    const NodePool &poolOf(int device) const;
    void deallocateLast(size_t claim);
    bool takeCounters(const NodePool &pool, int device);
    void returnCounters(const NodePool &pool, int device);
    const CounterSets &availableCounters(const NodePool &pool);
    bool inUse(int id) const;
    bool allocatingFor(int id, size_t claim) const;
    Step fail(std::string message)
    {
        m_error = std::move(message);
        return Step::Failed;
    }
    ClaimResult resultFor(const ClaimSearch &search, std::string *error);

    Session &m_session;
    const Cluster &m_cluster;
    const AllocatedState &m_state;
    detail::DeviceTests m_tests;
    int m_node;
    AllocateOptions m_options;
    const NodePools *m_pools = nullptr;
    std::vector<ClaimSearch> m_claims;
    std::unordered_map<int, std::vector<size_t>> m_allocating; // device id -> claims taking it
    std::unordered_map<int, ConsumedCapacity> m_allocatingCapacity;
    std::unordered_map<int, CounterSets> m_available; // by pool index
    std::unordered_map<int, CounterSets> m_consumed; // by pool index
    struct Undo
    {
        int device;
        bool shared;
        bool counters;
        const NodePool *pool;
    };
    std::vector<std::vector<Undo>> m_undo; // per claim, parallel to picks
    std::string m_error;
    bool m_timedOut = false;
    int64_t m_steps = 0;
};

const NodePool &Search::poolOf(int device) const
{
    const int slice = m_cluster.devices()[size_t(device)].slice;
    for (const NodePool &pool : m_pools->pools)
        if (std::find(pool.slices.begin(), pool.slices.end(), slice) != pool.slices.end())
            return pool;
    return m_pools->pools.front(); // unreachable: "All" devices come from the node's pools
}

bool Search::inUse(int id) const
{
    if (m_state.isAllocated(id))
        return true;
    const auto it = m_allocating.find(id);
    return it != m_allocating.end() && !it->second.empty();
}

bool Search::allocatingFor(int id, size_t claim) const
{
    const auto it = m_allocating.find(id);
    return it != m_allocating.end()
        && std::find(it->second.begin(), it->second.end(), claim) != it->second.end();
}

const CounterSets &Search::availableCounters(const NodePool &pool)
{
    auto [it, added] = m_available.try_emplace(pool.pool);
    if (added)
        it->second = detail::availableCounters(m_cluster, m_state, pool);
    return it->second;
}

bool Search::takeCounters(const NodePool &pool, int device)
{
    const CounterSets &available = availableCounters(pool);
    CounterSets &consumed = m_consumed[pool.pool];
    for (const model::DeviceCounterConsumption &consumption :
        m_cluster.devices()[size_t(device)].spec->consumesCounters)
        for (const auto &[name, value] : consumption.counters)
            consumed[consumption.counterSet][name] += value.nanoUnits();
    for (const auto &[setName, counters] : available) {
        const auto set = consumed.find(setName);
        if (set == consumed.end())
            continue;
        for (const auto &[name, value] : counters) {
            const auto used = set->second.find(name);
            if (used != set->second.end() && value < used->second) {
                returnCounters(pool, device);
                return false;
            }
        }
    }
    return true;
}

void Search::returnCounters(const NodePool &pool, int device)
{
    CounterSets &consumed = m_consumed[pool.pool];
    for (const model::DeviceCounterConsumption &consumption :
        m_cluster.devices()[size_t(device)].spec->consumesCounters)
        for (const auto &[name, value] : consumption.counters)
            consumed[consumption.counterSet][name] -= value.nanoUnits();
}

bool Search::allocateDevice(size_t claimIndex, const Request &request, int device,
    const NodePool &nodePool, bool must, bool *failed)
{
    const release::FeatureGates &gates = m_session.gates();
    const Cluster::Device &entry = m_cluster.devices()[size_t(device)];
    const model::Device &spec = *entry.spec;
    const int id = entry.id;
    const bool shared = gates.consumableCapacity && spec.allowMultipleAllocations;
    if (!shared && request.adminAccess() && allocatingFor(id, claimIndex))
        return false;
    if (!request.adminAccess() && inUse(id))
        return false;
    if (!gates.partitionableDevices && !spec.consumesCounters.empty())
        return false;

    const NodePool *pool = &nodePool;
    // A shareable device whose capacity is already in use has had its counters charged by that
    // first allocation.
    const bool deviceCapacityInUse
        = m_state.sharedCapacity(id) || m_allocatingCapacity.contains(id);
    bool countersTaken = false;
    if (!spec.consumesCounters.empty() && !(shared && deviceCapacityInUse)) {
        if (!takeCounters(*pool, device))
            return false;
        countersTaken = true;
    }
    auto undoCounters = [&] {
        if (countersTaken)
            returnCounters(*pool, device);
    };
    if (gates.deviceTaints
        && model::untoleratedTaint(m_session.taints(device), request.tolerations)) {
        undoCounters();
        return false;
    }
    ConsumedCapacity consumed;
    if (gates.consumableCapacity) {
        const auto allocating = m_allocatingCapacity.find(id);
        if (m_tests.capacity(request, device,
                allocating == m_allocatingCapacity.end() ? nullptr : &allocating->second)
            != CapacityVerdict::Fits) {
            undoCounters();
            return false;
        }
        if (shared)
            consumed = consumedCapacity(spec.capacity, request.capacity);
    }

    ClaimSearch &claim = m_claims[claimIndex];
    const std::string base = request.parent.empty() ? request.name : request.parent;
    const std::string sub = request.parent.empty() ? std::string() : request.name;
    for (size_t i = 0; i < claim.constraints.size(); ++i) {
        if (claim.constraints[i]->add(base, sub, m_cluster, device))
            continue;
        for (size_t j = 0; j < i; ++j)
            claim.constraints[j]->remove(base, sub, m_cluster, device);
        undoCounters();
        if (must) {
            // A claim whose constraints rule out part of "all" devices cannot be satisfied at all.
            m_error = "claim " + claim.ref + ", request " + request.name + ": cannot add device "
                + detail::deviceText(m_cluster, device)
                + " because a claim constraint would not be satisfied";
            *failed = true;
        }
        return false;
    }

    if (!shared)
        m_allocating[id].push_back(claimIndex);
    Pick pick;
    pick.device = device;
    pick.request = &request;
    if (shared) {
        addCapacity(m_allocatingCapacity[id], consumed);
        // Kubernetes generates a random UID; a name-based one keeps simulations reproducible.
        const QString seed = QString::fromStdString(claim.ref + "/" + request.fullName() + "/"
            + detail::deviceText(m_cluster, device) + "/" + std::to_string(claim.picks.size()));
        pick.shareID
            = QUuid::createUuidV5(QUuid(), seed).toString(QUuid::WithoutBraces).toStdString();
        pick.consumed = std::move(consumed);
    }
    claim.picks.push_back(std::move(pick));
    m_undo[claimIndex].push_back({ device, shared, countersTaken, pool });
    return true;
}

void Search::deallocateLast(size_t claimIndex)
{
    ClaimSearch &claim = m_claims[claimIndex];
    const Pick &pick = claim.picks.back();
    const Undo undo = m_undo[claimIndex].back();
    const Request &request = *pick.request;
    const std::string base = request.parent.empty() ? request.name : request.parent;
    const std::string sub = request.parent.empty() ? std::string() : request.name;
    for (const std::unique_ptr<Constraint> &constraint : claim.constraints)
        constraint->remove(base, sub, m_cluster, undo.device);
    const int id = m_cluster.devices()[size_t(undo.device)].id;
    if (undo.shared) {
        subtractCapacity(m_allocatingCapacity[id], pick.consumed);
        bool empty = true;
        for (const auto &[name, value] : m_allocatingCapacity[id])
            empty = empty && value == 0;
        if (empty)
            m_allocatingCapacity.erase(id);
    } else {
        std::vector<size_t> &claims = m_allocating[id];
        if (const auto it = std::find(claims.begin(), claims.end(), claimIndex); it != claims.end())
            claims.erase(it);
    }
    if (undo.counters)
        returnCounters(*undo.pool, undo.device);
    claim.picks.pop_back();
    m_undo[claimIndex].pop_back();
}

Step Search::allocateOne(size_t claimIndex, size_t requestIndex, size_t subIndex, int deviceIndex,
    bool allocateSubRequest)
{
    if (++m_steps % kDeadlineCheckInterval == 0
        && std::chrono::steady_clock::now() > m_options.deadline) {
        m_timedOut = true;
        return fail("filter operation aborted: the allocation search exceeded its time limit");
    }
    if (claimIndex >= m_claims.size())
        return Step::Found;
    ClaimSearch &claim = m_claims[claimIndex];
    if (requestIndex >= claim.requests->requests.size()) {
        const Step step = allocateOne(claimIndex + 1, 0, 0, 0, false);
        // Another choice for this claim may need fewer devices in a later one: not fatal here.
        return step == Step::MaxSizeExceeded ? Step::NotFound : step;
    }
    const std::vector<Request> &entries = claim.requests->requests[requestIndex];

    if (!allocateSubRequest && !entries.front().parent.empty()) {
        bool allExceeded = true;
        for (size_t s = 0; s < entries.size(); ++s) {
            const Step step = allocateOne(claimIndex, requestIndex, s, 0, true);
            if (step == Step::MaxSizeExceeded)
                continue;
            allExceeded = false;
            if (step == Step::Failed)
                return step;
            if (step == Step::Found) {
                claim.selectedSubRequest[requestIndex] = int(s);
                return step;
            }
        }
        return allExceeded ? Step::MaxSizeExceeded : Step::NotFound;
    }

    const Request &request = entries[subIndex];
    if (request.all && request.allDevices.empty())
        return Step::NotFound;
    if (deviceIndex >= request.numDevices)
        return allocateOne(claimIndex, requestIndex + 1, 0, 0, false);
    if (int(claim.picks.size()) + request.numDevices - deviceIndex > kAllocationResultsMaxSize)
        return Step::MaxSizeExceeded;

    if (request.all) {
        bool failed = false;
        const int device = request.allDevices[size_t(deviceIndex)];
        if (!allocateDevice(claimIndex, request, device, poolOf(device), true, &failed))
            return failed ? Step::Failed : Step::NotFound;
        const Step step
            = allocateOne(claimIndex, requestIndex, subIndex, deviceIndex + 1, allocateSubRequest);
        if (step != Step::Found)
            deallocateLast(claimIndex);
        return step;
    }

    const release::FeatureGates &gates = m_session.gates();
    for (const NodePool &pool : m_pools->pools) {
        if (pool.incomplete || pool.invalid)
            continue;
        for (const int slice : pool.slices) {
            const Cluster::Slice &entry = m_cluster.slices()[size_t(slice)];
            for (int d = entry.firstDevice; d < entry.firstDevice + entry.deviceCount; ++d) {
                const int id = m_cluster.devices()[size_t(d)].id;
                if (request.adminAccess() ? allocatingFor(id, claimIndex) : inUse(id))
                    continue;
                std::string error;
                const std::optional<bool> selectable
                    = m_tests.selectable(request, d, claim.ref, &error);
                if (!selectable)
                    return fail(std::move(error));
                if (!*selectable)
                    continue;
                if (gates.consumableCapacity) {
                    const auto allocating = m_allocatingCapacity.find(id);
                    if (m_tests.capacity(request, d,
                            allocating == m_allocatingCapacity.end() ? nullptr
                                                                     : &allocating->second)
                        != CapacityVerdict::Fits)
                        continue;
                }
                bool failed = false;
                if (!allocateDevice(claimIndex, request, d, pool, false, &failed))
                    continue;
                const Step step = allocateOne(
                    claimIndex, requestIndex, subIndex, deviceIndex + 1, allocateSubRequest);
                if (step == Step::Found)
                    return step;
                deallocateLast(claimIndex);
                if (step != Step::NotFound)
                    return step;
            }
        }
    }
    return Step::NotFound;
}

ClaimResult Search::resultFor(const ClaimSearch &search, std::string *error)
{
    ClaimResult result;
    nlohmann::json term = nlohmann::json::object();
    bool local = false;
    for (const Pick &pick : search.picks) {
        const Cluster::Device &entry = m_cluster.devices()[size_t(pick.device)];
        const model::ResourceSlice &slice = *m_cluster.sliceOf(pick.device).spec;
        DeviceResult device;
        device.request = pick.request->fullName();
        device.device = pick.device;
        device.driver = slice.driver;
        device.pool = slice.pool.name;
        device.name = entry.spec->name;
        device.adminAccess = pick.request->adminAccess();
        device.shareID = pick.shareID;
        device.consumedCapacity = pick.consumed;
        if (pick.request->spec->tolerations.is_array() && !pick.request->spec->tolerations.empty())
            device.tolerations = pick.request->spec->tolerations;
        if (m_session.gates().bindingConditions()) {
            device.bindingConditions = entry.spec->bindingConditions;
            device.bindingFailureConditions = entry.spec->bindingFailureConditions;
        }
        result.devices.push_back(std::move(device));

        const bool perDevice = slice.perDeviceNodeSelection;
        const std::string &nodeName = perDevice ? entry.spec->nodeName : slice.nodeName;
        const nlohmann::json &selector = perDevice ? entry.spec->nodeSelector : slice.nodeSelector;
        if (!nodeName.empty() || entry.spec->bindsToNode) {
            local = true;
            continue;
        }
        if (selector.is_object()) {
            const auto terms = selector.find("nodeSelectorTerms");
            if (terms == selector.end() || !terms->is_array() || terms->empty())
                continue;
            if (terms->size() > 1) {
                *error = "create NodeSelector for claim " + search.claim->name
                    + ": unsupported ResourceSlice.NodeSelector with "
                    + std::to_string(terms->size()) + " terms";
                continue;
            }
            const nlohmann::json &only = terms->front();
            if (const auto fields = only.find("matchFields"); fields != only.end())
                addNewRequirements(*fields, term["matchFields"]);
            if (const auto expressions = only.find("matchExpressions"); expressions != only.end())
                addNewRequirements(*expressions, term["matchExpressions"]);
        }
    }
    if (local)
        result.nodeSelector = nodeNameSelector(m_cluster.nodes()[size_t(m_node)].name);
    else if (!term.empty())
        result.nodeSelector
            = nlohmann::json { { "nodeSelectorTerms", nlohmann::json::array({ term }) } };
    return result;
}

NodeAllocation Search::run(
    const std::vector<ClaimToAllocate> &claims, const detail::PreparedClaims *prepared)
{
    NodeAllocation out;
    const NodePools &pools = m_session.nodePools(m_node);
    if (!pools.error.empty()) {
        out.outcome = NodeAllocation::Outcome::Error;
        out.error = "gather pool information: " + pools.error;
        return out;
    }
    m_pools = &pools;
    if (prepared && prepared->error) {
        out.outcome = NodeAllocation::Outcome::Error;
        out.error = prepared->error->message;
        out.claimLevelError = prepared->error->claimLevel;
        return out;
    }

    m_claims.resize(claims.size());
    m_undo.resize(claims.size());
    for (size_t c = 0; c < claims.size(); ++c) {
        ClaimSearch &search = m_claims[c];
        search.claim = &claims[c];
        search.ref = claims[c].ref();
        std::optional<detail::SetupError> error;
        if (prepared && !prepared->claims[c].hasAll) {
            search.requests = &prepared->claims[c];
        } else {
            if (prepared) {
                search.own = prepared->claims[c];
                error = detail::resolveAll(m_tests, pools, claims[c], &search.own);
            } else {
                error = detail::setupClaim(m_tests, pools, claims[c], &search.own);
            }
            search.requests = &search.own;
        }
        if (error) {
            out.outcome = NodeAllocation::Outcome::Error;
            out.error = error->message;
            out.claimLevelError = error->claimLevel;
            return out;
        }
        search.selectedSubRequest.assign(search.requests->requests.size(), 0);
        if (m_options.ignoreConstraints)
            continue;
        const std::vector<model::DeviceConstraint> &constraints = claims[c].spec.constraints;
        for (size_t i = 0; i < constraints.size(); ++i) {
            std::unique_ptr<Constraint> constraint = makeConstraint(constraints[i]);
            if (!constraint) {
                out.outcome = NodeAllocation::Outcome::Error;
                out.error = "claim " + search.ref + ", constraint #" + std::to_string(i)
                    + ": empty constraint (unsupported constraint type?)";
                out.claimLevelError = true;
                return out;
            }
            search.constraints.push_back(std::move(constraint));
        }
    }

    const Step step = allocateOne(0, 0, 0, 0, false);
    out.steps = m_steps;
    out.timedOut = m_timedOut;
    if (step == Step::Failed) {
        out.outcome = NodeAllocation::Outcome::Error;
        out.error = m_error;
        return out;
    }
    if (step != Step::Found) {
        std::string invalid;
        for (const NodePool &pool : pools.pools)
            if (pool.invalid) {
                const Cluster::Pool &info = m_cluster.pools()[size_t(pool.pool)];
                invalid += (invalid.empty() ? ": " : "; ") + info.driver + "/" + info.name + ": "
                    + pool.invalidReason;
            }
        if (!invalid.empty()) {
            out.outcome = NodeAllocation::Outcome::Error;
            out.error = "invalid resource pools were encountered" + invalid;
        }
        return out;
    }
    out.outcome = NodeAllocation::Outcome::Allocated;
    for (const ClaimSearch &search : m_claims) {
        std::string error;
        out.claims.push_back(resultFor(search, &error));
        if (!error.empty()) {
            out.outcome = NodeAllocation::Outcome::Error;
            out.error = std::move(error);
            out.claims.clear();
            return out;
        }
    }
    return out;
}

} // namespace

NodeAllocation allocateOnNode(Session &session, const AllocatedState &state, int node,
    const std::vector<ClaimToAllocate> &claims, const AllocateOptions &options,
    const detail::PreparedClaims *prepared)
{
    Search search(session, state, node, options);
    return search.run(claims, prepared);
}

std::shared_ptr<const detail::PreparedClaims> prepareClaims(
    Session &session, const std::vector<ClaimToAllocate> &claims)
{
    auto prepared = std::make_shared<detail::PreparedClaims>();
    prepared->claims.resize(claims.size());
    for (size_t c = 0; c < claims.size() && !prepared->error; ++c)
        prepared->error = detail::prepareClaim(session, claims[c], &prepared->claims[c]);
    return prepared;
}

void commitAllocation(const Cluster &cluster, AllocatedState &state,
    const std::vector<ClaimToAllocate> &claims, const std::vector<ClaimResult> &results)
{
    for (size_t c = 0; c < claims.size() && c < results.size(); ++c) {
        const std::string ref = claims[c].ref();
        for (const DeviceResult &device : results[c].devices) {
            if (device.adminAccess)
                continue;
            const int id = cluster.devices()[size_t(device.device)].id;
            if (!device.shareID.empty())
                state.addShared(id, ref, device.consumedCapacity);
            else
                state.addExclusive(id, ref);
        }
    }
}

} // namespace dra::alloc
