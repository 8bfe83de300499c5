// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/request_setup.h"

#include <algorithm>
#include <climits>

namespace dra::alloc::detail {

namespace {

std::string claimPrefix(const ClaimToAllocate &claim)
{
    return "claim " + claim.ref();
}

// The checks and lookups of one request that do not depend on the node.
std::optional<SetupError> prepareRequest(Session &session, const ClaimToAllocate &claim,
    const model::DeviceRequestSpec &spec, const std::string &parent, Request *out)
{
    const std::string prefix = claimPrefix(claim) + ", request " + spec.name;
    out->spec = &spec;
    out->name = spec.name;
    out->parent = parent;
    for (size_t i = 0; i < spec.selectors.size(); ++i)
        if (spec.selectors[i].celExpression.empty())
            return SetupError { prefix + ", selector #" + std::to_string(i)
                + ": CEL expression empty (unsupported selector type?)" };
    if (!session.gates().adminAccess && spec.adminAccess)
        return SetupError { prefix + ": admin access is requested, but the feature is disabled" };
    if (spec.deviceClassName.empty())
        return SetupError { prefix + ": missing device class name (unsupported request type?)" };
    out->deviceClass = session.cluster().findClass(spec.deviceClassName);
    if (!out->deviceClass)
        return SetupError { prefix + ": could not retrieve device class " + spec.deviceClassName
            + ": deviceclass.resource.k8s.io \"" + spec.deviceClassName + "\" not found" };
    out->classList = session.selectorList(out->deviceClass->spec->selectors);
    out->requestList = session.selectorList(spec.selectors);
    out->tolerations = model::parseTolerations(spec.tolerations);
    Result<CapacityRequests> capacity = parseCapacityRequests(spec.capacity);
    if (!capacity)
        return SetupError { prefix + ": " + capacity.error().message.toStdString() };
    out->capacity = std::move(*capacity);

    if (spec.allocationMode == "ExactCount") {
        if (spec.count > INT_MAX)
            return SetupError { prefix + ": exact count " + std::to_string(spec.count)
                + " is too large" };
        out->numDevices = int(spec.count);
        return std::nullopt;
    }
    if (spec.allocationMode != "All")
        return SetupError { prefix + ": unsupported count mode " + spec.allocationMode };
    out->all = true; // the devices are decided per node, by resolveAll()
    return std::nullopt;
}

// "All" is decided up front, so every pool of the node must be known completely.
std::optional<SetupError> resolveAllRequest(
    DeviceTests &tests, const NodePools &pools, const ClaimToAllocate &claim, Request *out)
{
    Session &session = tests.session();
    const std::string prefix = claimPrefix(claim) + ", request " + out->name;
    const Cluster &cluster = session.cluster();
    out->allDevices.clear();
    for (const NodePool &pool : pools.pools) {
        const Cluster::Pool &info = cluster.pools()[size_t(pool.pool)];
        if (pool.incomplete)
            return SetupError { prefix + ": asks for all devices, but resource pool " + info.driver
                    + "/" + info.name + " is currently being updated",
                false };
        if (pool.invalid)
            return SetupError { prefix + ": asks for all devices, but resource pool " + info.driver
                    + "/" + info.name + " is currently invalid",
                false };
        for (const int slice : pool.slices) {
            const Cluster::Slice &entry = cluster.slices()[size_t(slice)];
            for (int d = entry.firstDevice; d < entry.firstDevice + entry.deviceCount; ++d) {
                std::string error;
                const std::optional<bool> ok = tests.selectable(*out, d, claim.ref(), &error);
                if (!ok)
                    return SetupError { error, false };
                if (!*ok)
                    continue;
                if (session.gates().consumableCapacity
                    && tests.capacity(*out, d, nullptr) != CapacityVerdict::Fits)
                    continue;
                out->allDevices.push_back(d);
            }
        }
    }
    out->numDevices = int(out->allDevices.size());
    return std::nullopt;
}

std::optional<SetupError> checkLimit(
    const ClaimToAllocate &claim, const ClaimRequests &requests, bool claimLevel)
{
    if (requests.minDevices > kAllocationResultsMaxSize)
        return SetupError { claimPrefix(claim) + ": number of requested devices "
                + std::to_string(requests.minDevices) + " exceeds the claim limit of "
                + std::to_string(kAllocationResultsMaxSize),
            claimLevel };
    return std::nullopt;
}

int minDevices(const ClaimRequests &requests)
{
    int total = 0;
    for (const std::vector<Request> &entries : requests.requests) {
        int least = INT_MAX;
        for (const Request &entry : entries)
            least = std::min(least, entry.numDevices);
        total += entries.empty() ? 0 : least;
    }
    return total;
}

} // namespace

CounterSets availableCounters(
    const Cluster &cluster, const AllocatedState &state, const NodePool &pool)
{
    CounterSets available = pool.counterSets;
    // Only devices whose allocation is complete count here; an allocation in progress tracks
    // its own consumption.
    for (const std::vector<int> *slices : { &pool.slices, &pool.otherSlices })
        for (const int slice : *slices) {
            const Cluster::Slice &entry = cluster.slices()[size_t(slice)];
            for (int d = entry.firstDevice; d < entry.firstDevice + entry.deviceCount; ++d) {
                if (!state.isAllocated(cluster.devices()[size_t(d)].id))
                    continue;
                for (const model::DeviceCounterConsumption &consumption :
                    cluster.devices()[size_t(d)].spec->consumesCounters) {
                    auto set = available.find(consumption.counterSet);
                    if (set == available.end())
                        continue;
                    for (const auto &[name, value] : consumption.counters)
                        if (auto counter = set->second.find(name); counter != set->second.end())
                            counter->second -= value.nanoUnits();
                }
            }
        }
    return available;
}

std::string deviceText(const Cluster &cluster, int device)
{
    return cluster.driverOf(device) + "/" + cluster.poolNameOf(device) + "/"
        + cluster.devices()[size_t(device)].spec->name;
}

std::optional<bool> DeviceTests::selectable(
    const Request &request, int device, const std::string &claimRef, std::string *error)
{
    const Cluster &cluster = m_session.cluster();
    const model::Device &spec = *cluster.devices()[size_t(device)].spec;
    if (!m_session.gates().bindingConditions() && !spec.bindingConditions.empty())
        return false;
    const SelectorMatch byClass = m_session.matches(request.classList, device);
    if (byClass.outcome == SelectorMatch::Outcome::NoMatch)
        return false;
    if (byClass.outcome != SelectorMatch::Outcome::Match) {
        *error = "class " + request.deviceClass->name + ": selector #"
            + std::to_string(byClass.selector)
            + (byClass.outcome == SelectorMatch::Outcome::CompileError ? ": CEL compile error: "
                                                                       : ": CEL runtime error: ")
            + byClass.message;
        return std::nullopt;
    }
    const SelectorMatch byRequest = m_session.matches(request.requestList, device);
    if (byRequest.outcome == SelectorMatch::Outcome::NoMatch)
        return false;
    if (byRequest.outcome != SelectorMatch::Outcome::Match) {
        *error = "claim " + claimRef + ": selector #" + std::to_string(byRequest.selector)
            + (byRequest.outcome == SelectorMatch::Outcome::CompileError ? ": CEL compile error: "
                                                                         : ": CEL runtime error: ")
            + byRequest.message;
        return std::nullopt;
    }
    if (cluster.sliceOf(device).spec->perDeviceNodeSelection) {
        Result<bool> match = nodeMatches(
            cluster.nodes()[size_t(m_node)], spec.nodeName, spec.allNodes, spec.nodeSelector);
        if (!match) {
            *error = match.error().message.toStdString();
            return std::nullopt;
        }
        return *match;
    }
    return true;
}

CapacityVerdict DeviceTests::capacity(
    const Request &request, int device, const ConsumedCapacity *allocating) const
{
    const Cluster &cluster = m_session.cluster();
    const int id = cluster.devices()[size_t(device)].id;
    return checkCapacity(cluster.devices()[size_t(device)].spec->capacity, request.capacity,
        m_state.sharedCapacity(id), allocating);
}

std::optional<SetupError> prepareClaim(
    Session &session, const ClaimToAllocate &claim, ClaimRequests *out)
{
    const release::FeatureGates &gates = session.gates();
    out->requests.clear();
    out->minDevices = 0;
    out->hasAll = false;
    for (const model::DeviceRequest &request : claim.spec.requests) {
        const bool hasSubRequests = !request.firstAvailable.empty();
        const std::string prefix = claimPrefix(claim) + ", request " + request.name;
        if (!gates.prioritizedList && hasSubRequests)
            return SetupError { prefix
                + ": has subrequests, but the DRAPrioritizedList feature is disabled" };
        if (!gates.consumableCapacity) {
            if (request.exactly && !request.exactly->capacity.is_null())
                return SetupError {
                    prefix
                    + ": has capacity requests, but the DRAConsumableCapacity feature is disabled"
                };
            for (const model::DeviceRequestSpec &sub : request.firstAvailable)
                if (!sub.capacity.is_null())
                    return SetupError { claimPrefix(claim) + ", subrequest " + sub.name
                        + ": has capacity requests, but the DRAConsumableCapacity feature is "
                          "disabled" };
        }
        std::vector<Request> entries;
        if (hasSubRequests) {
            for (const model::DeviceRequestSpec &sub : request.firstAvailable) {
                Request entry;
                if (std::optional<SetupError> error
                    = prepareRequest(session, claim, sub, request.name, &entry))
                    return error;
                entries.push_back(std::move(entry));
            }
        } else if (request.exactly) {
            Request entry;
            if (std::optional<SetupError> error
                = prepareRequest(session, claim, *request.exactly, {}, &entry))
                return error;
            entries.push_back(std::move(entry));
        } else {
            return SetupError { prefix
                + ": missing device class name (unsupported request type?)" };
        }
        for (const Request &entry : entries)
            out->hasAll = out->hasAll || entry.all;
        out->requests.push_back(std::move(entries));
    }
    if (out->hasAll)
        return std::nullopt; // the limit depends on how many devices "all" is on a node
    out->minDevices = minDevices(*out);
    return checkLimit(claim, *out, true);
}

std::optional<SetupError> resolveAll(DeviceTests &tests, const NodePools &pools,
    const ClaimToAllocate &claim, ClaimRequests *requests)
{
    if (!requests->hasAll)
        return std::nullopt;
    for (std::vector<Request> &entries : requests->requests)
        for (Request &entry : entries)
            if (entry.all)
                if (std::optional<SetupError> error
                    = resolveAllRequest(tests, pools, claim, &entry))
                    return error;
    requests->minDevices = minDevices(*requests);
    return checkLimit(claim, *requests, false);
}

std::optional<SetupError> setupClaim(
    DeviceTests &tests, const NodePools &pools, const ClaimToAllocate &claim, ClaimRequests *out)
{
    if (std::optional<SetupError> error = prepareClaim(tests.session(), claim, out))
        return error;
    return resolveAll(tests, pools, claim, out);
}

} // namespace dra::alloc::detail
