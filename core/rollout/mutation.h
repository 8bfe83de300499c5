// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dra::rollout {

// One change a transition intends to make to the cluster, as data: the state machine decides
// them, the controller previews (server-side dry-run), applies and audits them, in order.
struct Mutation
{
    enum class Kind {
        CreateClaimTemplate, // name = the plan's ResourceClaimTemplate
        DeleteClaimTemplate,
        CreateCanaryDeployment, // name = the canary, from the baseline's template with the DRA
                                // change
        DeleteDeployment,
        CreateCanaryService, // name = the route's canary backend, selecting the canary's pods
        DeleteService,
        ScaleDeployment, // replicas
        SetRouteWeights, // name = HTTPRoute; baselineWeight / canaryWeight
        SetRequestMirror, // name = HTTPRoute; mirrorPercent to the canary backend
        RemoveRequestMirror,
        CreateNegativeControlClaim, // name = the claim; its selector cannot match
        DeleteClaim,
        MarkVariantRejected, // recorded in the state file, not the cluster
    };
    Kind kind = Kind::ScaleDeployment;
    std::string ns, name;
    int replicas = 0;
    int baselineWeight = 0, canaryWeight = 0;
    int mirrorPercent = 0;

    // "scale Deployment inference/llm to 0", for previews and the audit log.
    std::string describe() const;
    bool operator==(const Mutation &) const = default;
};

const char *mutationKindName(Mutation::Kind kind); // "scale-deployment", ...
nlohmann::json mutationJson(const Mutation &mutation);
nlohmann::json mutationsJson(const std::vector<Mutation> &mutations);
// Reads what mutationJson wrote; nullopt for anything else.
std::optional<Mutation> mutationFromJson(const nlohmann::json &json);

} // namespace dra::rollout
