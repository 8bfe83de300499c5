// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/sandbox/control_pass.h"

namespace dra::sandbox {

// The annotation Kubernetes puts on a claim made from a template: the pod's name for it.
inline constexpr const char *kPodClaimNameAnnotation = "resource.kubernetes.io/pod-claim-name";

// The ResourceClaims of a pod, in the order of spec.resourceClaims.
struct PodClaims
{
    std::vector<nlohmann::json> claims;
    // Why the pod cannot have its claims yet ("resourceclaimtemplate \"x\" not found"), or empty.
    std::string problem;
};

// As Kubernetes' resourceclaim controller: makes the claims of a pod's
// resourceClaimTemplateName entries ("<pod>-<claim>-<5 characters>", owned by the pod, with
// the pod-claim-name annotation), records them in `pod`'s status.resourceClaimStatuses (the
// caller stores the pod), and returns all the pod's claims, named ones included.
PodClaims ensurePodClaims(ControlPass &pass, nlohmann::json &pod);

// The pod's claims that exist, without making any. With `container`, only those that container
// names in its resources.claims (what its process sees).
std::vector<nlohmann::json> existingPodClaims(
    const ObjectView &view, const nlohmann::json &pod, const std::string &container = {});

} // namespace dra::sandbox
