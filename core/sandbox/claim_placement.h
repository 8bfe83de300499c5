// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/sandbox/object_view.h"

namespace dra::alloc {
class Cluster;
class Simulator;
} // namespace dra::alloc

namespace dra::sandbox {

// Allocates the ResourceClaims of pods as kube-scheduler's DRA plugin does, through
// core/alloc: every claim of one pod together, on one node. Built on the objects of one pass;
// what it allocates is remembered for the next pod of the pass. Thread of the control plane.
class ClaimPlacement final
{
public:
    explicit ClaimPlacement(const ObjectView &view);
    ~ClaimPlacement();

    struct Outcome
    {
        bool placed = false;
        std::string node;
        // Per claim (in input order): the status.allocation to write, null for a claim that
        // was allocated already.
        std::vector<nlohmann::json> allocations;
        // When not placed: the scheduler's summary ("0/8 nodes are available: ...").
        std::string message;
    };
    // Tries `nodes` (already filtered by the pod's selector, taints and device-plugin GPUs)
    // in order, and takes the first where every claim fits.
    Outcome place(const std::vector<nlohmann::json> &claims, const std::vector<std::string> &nodes);

private:
    [[nodiscard]] Result<void> build();

    const ObjectView &m_view;
    std::shared_ptr<const alloc::Cluster> m_cluster;
    std::unique_ptr<alloc::Simulator> m_simulator;
    std::string m_buildError;
};

} // namespace dra::sandbox
