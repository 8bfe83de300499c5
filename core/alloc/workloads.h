// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What `simulate` takes from a manifest: claims, claim templates, and the pods that use them
// (Pods directly, or the pods of Deployments, ReplicaSets, StatefulSets and Jobs), and the
// pod-by-pod simulation of those pods as kube-scheduler would place them.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/alloc/simulator.h"

namespace dra::alloc {

// A pod to place and the claims it references (spec.resourceClaims).
struct PodToPlace
{
    struct Claim
    {
        std::string podClaimName; // the name the pod uses for it
        std::string claimName; // resourceClaimName: a claim shared by name
        std::string templateName; // resourceClaimTemplateName: one claim per pod
    };
    std::string ns, name;
    std::vector<Claim> claims;
};

struct SimulationInput
{
    std::vector<ClaimToAllocate> claims; // ResourceClaims, in file order
    std::vector<ClaimToAllocate> templates; // ResourceClaimTemplates (name = the template's)
    std::vector<PodToPlace> pods; // in file order; workload replicas numbered from 0
    std::vector<std::string> ignored; // "Namespace gpu-test1": objects simulate does not use
};

// Reads the documents of a manifest (JSON objects). An object without a namespace lands in
// "default", as kubectl apply would put it. Malformed claims and templates are errors naming them.
[[nodiscard]] Result<SimulationInput> readSimulationInput(
    const std::vector<nlohmann::json> &documents);

// The outcome for one pod.
struct PodPlacement
{
    std::string ns, name;
    bool placed = false;
    std::string node;
    std::vector<ClaimToAllocate> claims; // claims allocated for this pod (new ones)
    std::vector<ClaimResult> results; // parallel to `claims`
    std::vector<std::string> shared; // claims it uses that were allocated before
    Placement placement; // error / explanation when not placed
};

// Places `input.pods` one after another. A template gives each pod its own claim
// ("<pod>-<claim>"); a claim named by several pods is allocated once, by the first, and pins
// the later ones to nodes its allocation allows. Claims and templates are looked up in the
// input first, then in the simulator's cluster.
std::vector<PodPlacement> simulatePods(
    Simulator &simulator, const SimulationInput &input, const SimulationOptions &options);

} // namespace dra::alloc
