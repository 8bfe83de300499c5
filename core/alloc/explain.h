// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include "core/alloc/allocator.h"

namespace dra::alloc {

// The step of the funnel where a node lost the claims.
enum class FunnelStep {
    Pools, // no usable pool: none publishes devices for the node, or they are incomplete / invalid
    Class, // no device of the request's DeviceClass
    Selectors, // too few devices of the class match the request's selectors
    Free, // too few matching devices are free (allocated, tainted, counters, capacity)
    Constraints, // enough devices each, but not together under the claim's constraints
    Together, // enough devices per request, but the requests compete for the same ones
    Error, // the allocator reported an error on this node
    TimedOut, // the search ran out of time
};

// "pools", "class", "selectors", "free", "constraints", "together", "error", "timed-out".
const char *funnelStepName(FunnelStep step);

// How many devices of a selector list one clause (a top-level `&&` operand) eliminated.
struct ClauseBlame
{
    std::string source; // "class gpu.nvidia.com" or "request gpu"
    std::string clause;
    int eliminated = 0;
};

// Why one node cannot take the claims: the funnel of the first request that fails.
struct NodeExplanation
{
    std::string node;
    FunnelStep failedAt = FunnelStep::Pools;
    std::string claim; // "ns/name" of the claim the failing request belongs to
    std::string request; // "gpu" or "gpu/large"
    int visible = 0; // devices in usable pools for the node
    int ofClass = 0; // ... of the DeviceClass
    int matching = 0; // ... also matching the request's selectors
    int free = 0; // ... also free, untainted, with counters and capacity left
    int needed = 0; // devices the request needs (the count, or every matching one for All)
    // Why matching devices are not free, as counts.
    int allocated = 0, tainted = 0, noCounters = 0, noCapacity = 0;
    std::vector<std::string> holders; // claims holding matching devices (up to a few)
    std::vector<ClauseBlame> clauses; // selector clauses that eliminated devices
    std::string reason; // one sentence
};

// Explains why `claims` do not fit on node `node`, following the funnel class -> selectors ->
// free -> constraints for every request. Call it after allocateOnNode() found no allocation.
NodeExplanation explainNode(Session &session, const AllocatedState &state, int node,
    const std::vector<ClaimToAllocate> &claims, const AllocateOptions &options = {});

} // namespace dra::alloc
