// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/workloads.h"

#include <map>

#include "core/common/json_text.h"
#include "core/model/object.h"

namespace dra::alloc {

namespace {

using common::Error;
using common::qs;
using nlohmann::json;

std::string text(const json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const json *path(const json &object, std::initializer_list<const char *> keys)
{
    const json *at = &object;
    for (const char *key : keys) {
        if (!at->is_object())
            return nullptr;
        const auto it = at->find(key);
        if (it == at->end())
            return nullptr;
        at = &*it;
    }
    return at;
}

std::vector<PodToPlace::Claim> podClaims(const json *podSpec)
{
    std::vector<PodToPlace::Claim> claims;
    if (!podSpec)
        return claims;
    const json *list = path(*podSpec, { "resourceClaims" });
    if (!list || !list->is_array())
        return claims;
    for (const json &entry : *list)
        claims.push_back({ text(entry, "name"), text(entry, "resourceClaimName"),
            text(entry, "resourceClaimTemplateName") });
    return claims;
}

int64_t intAt(const json &object, std::initializer_list<const char *> keys, int64_t fallback)
{
    const json *value = path(object, keys);
    return value && value->is_number_integer() ? value->get<int64_t>() : fallback;
}

const ClaimToAllocate *findIn(
    const std::vector<ClaimToAllocate> &list, const std::string &ns, const std::string &name)
{
    for (const ClaimToAllocate &claim : list)
        if (claim.ns == ns && claim.name == name)
            return &claim;
    return nullptr;
}

} // namespace

Result<SimulationInput> readSimulationInput(const std::vector<json> &documents)
{
    SimulationInput input;
    for (json document : documents) {
        const std::string kind = text(document, "kind");
        const json *meta = path(document, { "metadata" });
        const std::string name = meta ? text(*meta, "name") : std::string();
        std::string ns = meta ? text(*meta, "namespace") : std::string();
        if (ns.empty())
            ns = "default";
        if (kind == "ResourceClaim" || kind == "ResourceClaimTemplate") {
            document["metadata"]["namespace"] = ns;
            Result<model::Object> object = model::decodeObject(std::move(document));
            if (!object)
                return dra::fail(object.error());
            if (const auto *claim = object->as<model::ResourceClaim>())
                input.claims.push_back({ ns, name, claim->spec });
            else if (const auto *claimTemplate = object->as<model::ResourceClaimTemplate>())
                input.templates.push_back({ ns, name, claimTemplate->spec });
            continue;
        }
        const json *podSpec = nullptr;
        int64_t replicas = 1;
        if (kind == "Pod") {
            podSpec = path(document, { "spec" });
        } else if (kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet") {
            podSpec = path(document, { "spec", "template", "spec" });
            replicas = intAt(document, { "spec", "replicas" }, 1);
        } else if (kind == "Job") {
            podSpec = path(document, { "spec", "template", "spec" });
            replicas = intAt(document, { "spec", "parallelism" }, 1);
        }
        const std::vector<PodToPlace::Claim> claims = podClaims(podSpec);
        if (claims.empty()) {
            input.ignored.push_back(
                kind + " " + (kind == "Namespace" ? name : objectRef(ns, name)));
            continue;
        }
        if (kind == "Pod") {
            input.pods.push_back({ ns, name, claims });
            continue;
        }
        for (int64_t i = 0; i < replicas; ++i)
            input.pods.push_back({ ns, name + "-" + std::to_string(i), claims });
    }
    return input;
}

std::vector<PodPlacement> simulatePods(
    Simulator &simulator, const SimulationInput &input, const SimulationOptions &options)
{
    const Cluster &cluster = simulator.cluster();
    // Claims allocated in this simulation, by "ns/name": the node selector they impose.
    std::map<std::string, nlohmann::json> allocated;
    std::vector<PodPlacement> out;
    for (const PodToPlace &pod : input.pods) {
        PodPlacement placement;
        placement.ns = pod.ns;
        placement.name = pod.name;
        SimulationOptions podOptions = options;
        std::vector<std::string> named; // claims allocated for this pod that later pods may share
        for (const PodToPlace::Claim &ref : pod.claims) {
            if (!ref.templateName.empty()) {
                const ClaimToAllocate *spec = findIn(input.templates, pod.ns, ref.templateName);
                ClaimToAllocate fromCluster;
                if (!spec) {
                    if (const model::Object *object = cluster.findObject(
                            model::Kind::ResourceClaimTemplate, pod.ns, ref.templateName)) {
                        fromCluster = { pod.ns, ref.templateName,
                            object->as<model::ResourceClaimTemplate>()->spec };
                        spec = &fromCluster;
                    }
                }
                if (!spec) {
                    placement.placement.error = "pod " + objectRef(pod.ns, pod.name)
                        + ": ResourceClaimTemplate " + objectRef(pod.ns, ref.templateName)
                        + " not found, so its claim cannot be created";
                    break;
                }
                placement.claims.push_back(
                    { pod.ns, pod.name + "-" + ref.podClaimName, spec->spec });
                continue;
            }
            const std::string claimRef = objectRef(pod.ns, ref.claimName);
            if (const auto it = allocated.find(claimRef); it != allocated.end()) {
                podOptions.requiredNodeSelectors.push_back(it->second);
                placement.shared.push_back(claimRef);
                continue;
            }
            if (const ClaimToAllocate *claim = findIn(input.claims, pod.ns, ref.claimName)) {
                if (!findIn(placement.claims, pod.ns, ref.claimName)) {
                    placement.claims.push_back(*claim);
                    named.push_back(claimRef);
                }
                continue;
            }
            const model::Object *object
                = cluster.findObject(model::Kind::ResourceClaim, pod.ns, ref.claimName);
            if (!object) {
                placement.placement.error = "pod " + objectRef(pod.ns, pod.name)
                    + ": ResourceClaim " + claimRef + " not found";
                break;
            }
            const auto *claim = object->as<model::ResourceClaim>();
            if (claim->allocation) {
                podOptions.requiredNodeSelectors.push_back(claim->allocation->nodeSelector);
                placement.shared.push_back(claimRef);
            } else if (!findIn(placement.claims, pod.ns, ref.claimName)) {
                placement.claims.push_back({ pod.ns, ref.claimName, claim->spec });
                named.push_back(claimRef);
            }
        }
        if (!placement.placement.error.empty()) {
            placement.claims.clear();
            out.push_back(std::move(placement));
            continue;
        }
        if (placement.claims.empty()) {
            // Only claims allocated before: the pod goes where they allow.
            for (const NodeInfo &node : cluster.nodes()) {
                bool ok = true;
                for (const nlohmann::json &selector : podOptions.requiredNodeSelectors) {
                    Result<bool> match = selector.is_null() ? Result<bool>(true)
                                                            : nodeSelectorMatches(selector, node);
                    ok = ok && match && *match;
                }
                if (ok && (options.node.empty() || options.node == node.name)) {
                    placement.placed = true;
                    placement.node = node.name;
                    break;
                }
            }
            if (!placement.placed)
                placement.placement.error
                    = "no node satisfies the node selectors of the pod's allocated claims";
            out.push_back(std::move(placement));
            continue;
        }
        placement.placement = simulator.place(placement.claims, podOptions);
        if (placement.placement.allocated) {
            placement.placed = true;
            placement.node = cluster.nodes()[size_t(placement.placement.node)].name;
            placement.results = placement.placement.claims;
            for (size_t i = 0; i < placement.claims.size(); ++i) {
                const std::string ref = placement.claims[i].ref();
                if (std::find(named.begin(), named.end(), ref) != named.end())
                    allocated[ref] = placement.results[i].nodeSelector;
            }
        }
        out.push_back(std::move(placement));
    }
    return out;
}

} // namespace dra::alloc
