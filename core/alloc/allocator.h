// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/alloc/allocated_state.h"
#include "core/alloc/session.h"
#include "core/model/resource_types.h"

namespace dra::alloc {

namespace detail {
struct PreparedClaims;
}

// A claim to allocate: its identity (for messages and share IDs) and spec.
struct ClaimToAllocate
{
    std::string ns, name;
    model::ResourceClaimSpec spec;

    std::string ref() const { return objectRef(ns, name); }
};

// One entry of status.allocation.devices.results, as Kubernetes writes it.
struct DeviceResult
{
    std::string request; // "gpu", or "gpu/large" for a firstAvailable subrequest
    int device = -1; // index into Cluster::devices()
    std::string driver, pool, name;
    bool adminAccess = false;
    std::string shareID; // set for devices allowing multiple allocations
    ConsumedCapacity consumedCapacity; // idem, every capacity of the device
    nlohmann::json tolerations; // the request's tolerations, null when none
    std::vector<std::string> bindingConditions, bindingFailureConditions;
};

// The allocation of one claim.
struct ClaimResult
{
    std::vector<DeviceResult> devices; // in request order
    nlohmann::json nodeSelector; // null: the devices are usable from every node
};

// The allocator's answer for one node.
struct NodeAllocation
{
    enum class Outcome { Allocated, DoesNotFit, Error };
    Outcome outcome = Outcome::DoesNotFit;
    std::vector<ClaimResult> claims; // when Allocated, one per claim in input order
    std::string error; // when Error, worded as Kubernetes words it
    // The error comes from the claims themselves (unknown class, disabled feature, ...) and
    // would be the same on every node.
    bool claimLevelError = false;
    bool timedOut = false;
    int64_t steps = 0; // candidate placements tried, Kubernetes' numAllocateOneInvocations
};

struct AllocateOptions
{
    // Kubernetes bounds the search per node (DRASchedulerFilterTimeout, 10 s by default).
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    // Leave the claims' constraints out: the explanation asks whether constraints are what
    // keeps a node from fitting.
    bool ignoreConstraints = false;
};

// Allocates all `claims` together on node `node` (index into Cluster::nodes()) with Kubernetes'
// structured allocator semantics: claims in order, requests in order, devices first-fit in pool
// and slice order, backtracking when a later choice fails. `state` holds what other claims use.
// `prepared` (from prepareClaims() for the same claims) saves checking the claims again on
// every node.
NodeAllocation allocateOnNode(Session &session, const AllocatedState &state, int node,
    const std::vector<ClaimToAllocate> &claims, const AllocateOptions &options = {},
    const detail::PreparedClaims *prepared = nullptr);

// Checks the claims once (classes, selectors, counts, feature gates) for allocateOnNode() on
// many nodes. Holds pointers into `claims`, which must outlive it.
std::shared_ptr<const detail::PreparedClaims> prepareClaims(
    Session &session, const std::vector<ClaimToAllocate> &claims);

// Records the allocation of `claims` (as returned for them) in `state`.
void commitAllocation(const Cluster &cluster, AllocatedState &state,
    const std::vector<ClaimToAllocate> &claims, const std::vector<ClaimResult> &results);

// The most devices one claim's allocation may hold (AllocationResultsMaxSize).
inline constexpr int kAllocationResultsMaxSize = 32;

} // namespace dra::alloc
