// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/mutation.h"

namespace dra::rollout {

namespace {

std::string ref(const Mutation &m)
{
    return m.ns.empty() ? m.name : m.ns + "/" + m.name;
}

} // namespace

std::string Mutation::describe() const
{
    switch (kind) {
    case Kind::CreateClaimTemplate:
        return "create ResourceClaimTemplate " + ref(*this);
    case Kind::DeleteClaimTemplate:
        return "delete ResourceClaimTemplate " + ref(*this);
    case Kind::CreateCanaryDeployment:
        return "create Deployment " + ref(*this) + " with " + std::to_string(replicas)
            + " replica(s) on DRA";
    case Kind::DeleteDeployment:
        return "delete Deployment " + ref(*this);
    case Kind::CreateCanaryService:
        return "create Service " + ref(*this) + " in front of the canary's pods";
    case Kind::DeleteService:
        return "delete Service " + ref(*this);
    case Kind::ScaleDeployment:
        return "scale Deployment " + ref(*this) + " to " + std::to_string(replicas);
    case Kind::SetRouteWeights:
        return "set HTTPRoute " + ref(*this) + " weights baseline " + std::to_string(baselineWeight)
            + " / canary " + std::to_string(canaryWeight);
    case Kind::SetRequestMirror:
        return "mirror " + std::to_string(mirrorPercent) + "% of HTTPRoute " + ref(*this)
            + " to the canary";
    case Kind::RemoveRequestMirror:
        return "remove the mirror from HTTPRoute " + ref(*this);
    case Kind::CreateNegativeControlClaim:
        return "create negative-control ResourceClaim " + ref(*this);
    case Kind::DeleteClaim:
        return "delete ResourceClaim " + ref(*this);
    case Kind::MarkVariantRejected:
        return "mark variant " + name + " of " + ns + " rejected";
    }
    return "?";
}

const char *mutationKindName(Mutation::Kind kind)
{
    switch (kind) {
    case Mutation::Kind::CreateClaimTemplate:
        return "create-claim-template";
    case Mutation::Kind::DeleteClaimTemplate:
        return "delete-claim-template";
    case Mutation::Kind::CreateCanaryDeployment:
        return "create-canary-deployment";
    case Mutation::Kind::DeleteDeployment:
        return "delete-deployment";
    case Mutation::Kind::CreateCanaryService:
        return "create-canary-service";
    case Mutation::Kind::DeleteService:
        return "delete-service";
    case Mutation::Kind::ScaleDeployment:
        return "scale-deployment";
    case Mutation::Kind::SetRouteWeights:
        return "set-route-weights";
    case Mutation::Kind::SetRequestMirror:
        return "set-request-mirror";
    case Mutation::Kind::RemoveRequestMirror:
        return "remove-request-mirror";
    case Mutation::Kind::CreateNegativeControlClaim:
        return "create-negative-control-claim";
    case Mutation::Kind::DeleteClaim:
        return "delete-claim";
    case Mutation::Kind::MarkVariantRejected:
        return "mark-variant-rejected";
    }
    return "?";
}

nlohmann::json mutationJson(const Mutation &m)
{
    nlohmann::json json { { "kind", mutationKindName(m.kind) }, { "namespace", m.ns },
        { "name", m.name }, { "description", m.describe() } };
    switch (m.kind) {
    case Mutation::Kind::CreateCanaryDeployment:
    case Mutation::Kind::ScaleDeployment:
        json["replicas"] = m.replicas;
        break;
    case Mutation::Kind::SetRouteWeights:
        json["baselineWeight"] = m.baselineWeight;
        json["canaryWeight"] = m.canaryWeight;
        break;
    case Mutation::Kind::SetRequestMirror:
        json["mirrorPercent"] = m.mirrorPercent;
        break;
    default:
        break;
    }
    return json;
}

nlohmann::json mutationsJson(const std::vector<Mutation> &mutations)
{
    nlohmann::json list = nlohmann::json::array();
    for (const Mutation &m : mutations)
        list.push_back(mutationJson(m));
    return list;
}

std::optional<Mutation> mutationFromJson(const nlohmann::json &json)
{
    if (!json.is_object() || !json.contains("kind") || !json["kind"].is_string())
        return std::nullopt;
    const std::string kind = json["kind"].get<std::string>();
    Mutation m;
    bool known = false;
    for (int k = 0; k <= int(Mutation::Kind::MarkVariantRejected); ++k)
        if (kind == mutationKindName(Mutation::Kind(k))) {
            m.kind = Mutation::Kind(k);
            known = true;
        }
    if (!known)
        return std::nullopt;
    try { // value() throws on a field of the wrong type
        m.ns = json.value("namespace", std::string());
        m.name = json.value("name", std::string());
        m.replicas = json.value("replicas", 0);
        m.baselineWeight = json.value("baselineWeight", 0);
        m.canaryWeight = json.value("canaryWeight", 0);
        m.mirrorPercent = json.value("mirrorPercent", 0);
    } catch (const nlohmann::json::exception &) {
        return std::nullopt;
    }
    return m;
}

} // namespace dra::rollout
