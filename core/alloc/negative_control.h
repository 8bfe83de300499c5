// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/alloc/cluster.h"
#include "core/release/kubernetes_release.h"
#include "core/common/result.h"

namespace dra::alloc {

// One request (or firstAvailable subrequest) of a claim and its negative control.
struct NegativeRequest
{
    std::string name; // "gpu", or "gpu/h100" for a subrequest
    std::string deviceClass;
    std::vector<std::string> originalSelectors;
    std::string negativeSelector;
    std::string method; // how the negative selector was built (see negative_control.cpp)
    int originalMatches = 0; // devices of the class the original selectors match
    int negativeMatches = 0; // ... and the negative selector
    std::vector<std::string> errors; // selectors that do not compile or fail on some device
};

// A claim and "the same claim with a selector that must not match": the generated manifest and
// the check that it proves something about the inventory it was made for.
struct NegativeControl
{
    std::string kind, ns, name; // of the original
    nlohmann::json manifest; // the negative control, ready to apply
    std::vector<NegativeRequest> requests;
    int originalMatches = 0; // distinct devices some original request matches
    int negativeMatches = 0; // distinct devices some negative request matches
    bool negativeAllocated = false; // the allocator placed the negative control (it must not)
    std::string pendingReason; // why the allocator leaves the negative control Pending

    // Every original request matches a device, the negative control matches none and stays
    // Pending: only then does the control show the selectors are a real boundary.
    bool proves() const;
    // One sentence on what the check shows, or why it proves nothing.
    std::string verdict() const;
};

// Builds and checks the negative control of `object`, a ResourceClaimTemplate or ResourceClaim
// (any served resource.k8s.io version; the manifest keeps it), against `cluster`. Fails only when
// `object` is not such a claim; problems of its selectors are reported in the requests. Any thread.
[[nodiscard]] Result<NegativeControl> negativeControl(const Cluster &cluster,
    const release::KubernetesRelease &release, const nlohmann::json &object);

// The check as JSON (the manifest left out): what `dractl negative-control -o json` prints.
nlohmann::json negativeControlJson(const NegativeControl &control);

} // namespace dra::alloc
