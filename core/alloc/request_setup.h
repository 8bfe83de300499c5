// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Internal to core/alloc: a claim's requests checked and resolved for one node, and the
// per-device tests the search and the explanations share.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/alloc/allocator.h"
#include "core/model/device_taints.h"

namespace dra::alloc::detail {

// One request or subrequest, ready for the search (Kubernetes' requestData).
struct Request
{
    const model::DeviceRequestSpec *spec = nullptr;
    std::string name; // the request's, or the subrequest's own name
    std::string parent; // the parent request of a subrequest, else empty
    const Cluster::Class *deviceClass = nullptr;
    int classList = -1; // Session selector list of the class
    int requestList = -1; // Session selector list of the request
    int numDevices = 0;
    bool all = false;
    std::vector<int> allDevices; // allocationMode All: the devices, decided up front
    std::vector<model::Toleration> tolerations;
    CapacityRequests capacity;

    // "gpu" or "gpu/large", as results and configs name it.
    std::string fullName() const { return parent.empty() ? name : parent + "/" + name; }
    bool adminAccess() const { return spec->adminAccess; }
};

// The requests of one claim: one entry per request, holding the request itself or its
// subrequests in order.
struct ClaimRequests
{
    std::vector<std::vector<Request>> requests;
    int minDevices = 0;
    bool hasAll = false; // some request uses allocationMode All: its devices depend on the node
};

struct SetupError
{
    std::string message;
    bool claimLevel = true;
};

// Per-device tests against one node.
class DeviceTests final
{
public:
    DeviceTests(Session &session, const AllocatedState &state, int node)
        : m_session(session)
        , m_state(state)
        , m_node(node)
    {
    }

    // Class and request selectors, binding conditions and per-device node selection.
    // nullopt with `*error` set when a selector fails to compile or evaluate.
    std::optional<bool> selectable(
        const Request &request, int device, const std::string &claimRef, std::string *error);

    // The consumable-capacity test against allocated claims and `allocating`.
    CapacityVerdict capacity(
        const Request &request, int device, const ConsumedCapacity *allocating) const;

    Session &session() const { return m_session; }
    const AllocatedState &state() const { return m_state; }
    int node() const { return m_node; }

private:
    Session &m_session;
    const AllocatedState &m_state;
    int m_node;
};

// The node-independent part of what Kubernetes' Allocate checks before searching: feature gates,
// selectors, classes, counts. Done once for all nodes; the result is the same on each.
std::optional<SetupError> prepareClaim(
    Session &session, const ClaimToAllocate &claim, ClaimRequests *out);

// The node-dependent part: the devices of allocationMode All requests on the node (pools must
// be complete and valid) and the result-size limit that depends on them.
std::optional<SetupError> resolveAll(DeviceTests &tests, const NodePools &pools,
    const ClaimToAllocate &claim, ClaimRequests *requests);

// prepareClaim() then resolveAll().
std::optional<SetupError> setupClaim(
    DeviceTests &tests, const NodePools &pools, const ClaimToAllocate &claim, ClaimRequests *out);

// The counters of `pool` left after the devices allocated claims hold (from any node).
CounterSets availableCounters(
    const Cluster &cluster, const AllocatedState &state, const NodePool &pool);

// The checked requests of claims, computed once per simulation of those claims.
struct PreparedClaims
{
    std::vector<ClaimRequests> claims;
    std::optional<SetupError> error;
};

// "driver/pool/device".
std::string deviceText(const Cluster &cluster, int device);

} // namespace dra::alloc::detail
