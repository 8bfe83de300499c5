// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The objects a rollout's mutations write, built from the plan and the live objects they
// change. Pure functions: the executor fetches, these build, the executor previews and applies.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/rollout/rollout_plan.h"

namespace dra::rollout {

// On every object and pod a rollout creates: which rollout it belongs to.
inline constexpr std::string_view kRolloutLabel = "draconsole.io/rollout";
// On the canary's pods (and in its selector): "dra".
inline constexpr std::string_view kTrackLabel = "draconsole.io/track";

// The plan's ResourceClaimTemplate in the baseline's namespace, labelled with the rollout.
nlohmann::json claimTemplateManifest(const RolloutPlan &plan);

// The canary Deployment: the baseline's pod template with the plan's change (the removed
// resources gone from requests and limits, the pod's resourceClaims naming the template, the
// chosen containers' resources.claims, the DRA pool's nodeSelector) under the canary's own name.
// With an HTTPRoute the canary's pods carry the canary's name in place of the values of the
// baseline's selector labels, so neither the baseline's selector nor its Service picks them up;
// with replica ratios they keep those labels (one Service serves both) and are told apart by
// kTrackLabel. Fails when the baseline has no pod template.
[[nodiscard]] Result<nlohmann::json> canaryDeploymentManifest(
    const RolloutPlan &plan, const nlohmann::json &baseline, int replicas);

// The label selector of the canary's pods: "draconsole.io/rollout=NAME,draconsole.io/track=dra".
std::string canaryPodSelector(const RolloutPlan &plan);

// The route's canary backend: the baseline Service's ports and type under the canary Service's
// name, selecting the canary's pods (by the rollout and track labels), labelled with the rollout.
nlohmann::json canaryServiceManifest(
    const RolloutPlan &plan, const nlohmann::json &baselineService);

// On an HTTPRoute whose weights the rollout changed: the baseline backendRef's weight before
// (empty when it had none), to put back when the canary gets no traffic again.
inline constexpr std::string_view kBaselineWeightBeforeAnnotation
    = "draconsole.io/baseline-weight-before";

// {"spec":{"replicas":N}}.
nlohmann::json replicasPatch(int replicas);

// `route` (a live HTTPRoute) as this rollout wants it applied. With weights, every rule sending
// to the baseline Service gets them (a canary backendRef is added beside the baseline's, same
// port, where missing) and the baseline's weight before is kept in an annotation; a canary
// weight of 0 instead restores the route as it was (canary backendRefs removed, the baseline's
// weight put back, the annotation dropped). With `mirrorPercent` a RequestMirror filter to the
// canary Service is set on each such rule, with `removeMirror` those filters go. Volatile
// metadata and status are dropped. Fails when no rule sends to the baseline.
[[nodiscard]] Result<nlohmann::json> routeManifest(const RolloutPlan &plan,
    const nlohmann::json &route, std::optional<int> baselineWeight, std::optional<int> canaryWeight,
    std::optional<int> mirrorPercent, bool removeMirror);

// The weights the route gives the baseline and canary Services (first rule that names them);
// nullopt for a backend the route does not name.
std::pair<std::optional<int>, std::optional<int>> routeWeights(
    const RolloutPlan &plan, const nlohmann::json &route);
// Whether a rule of `route` copies requests to the canary Service (a RequestMirror filter).
bool routeMirrorsToCanary(const RolloutPlan &plan, const nlohmann::json &route);

// The percentage of the route's traffic that goes to the baseline (100 without a canary
// backendRef or with its weight 0); nullopt when the route does not send to the baseline.
std::optional<int> baselineTrafficPercent(const RolloutPlan &plan, const nlohmann::json &route);

// The negative-control ResourceClaim: one request of the plan's device class with a selector
// no device satisfies, so it must stay unallocated with a reason.
nlohmann::json negativeControlClaimManifest(const RolloutPlan &plan, const std::string &name);

} // namespace dra::rollout
