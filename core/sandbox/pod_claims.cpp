// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/pod_claims.h"

#include <set>

#include "core/sandbox/controller_support.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

// The claim name recorded for the pod's claim entry `entry`, empty when none yet.
std::string recordedClaimName(const json &pod, const std::string &entry)
{
    for (const json &status :
        pod.value("/status/resourceClaimStatuses"_json_pointer, json::array())) {
        if (status.value("name", "") == entry)
            return status.value("resourceClaimName", "");
    }
    return {};
}

json claimFromTemplate(
    const ControlPass &pass, const json &pod, const std::string &entry, const json &claimTemplate)
{
    const std::string ns = metaText(pod, "namespace");
    const std::string prefix = metaText(pod, "name") + '-' + entry + '-';
    std::string name;
    do
        name = prefix + randomNameSuffix();
    while (pass.view.find(model::Kind::ResourceClaim, ns, name));
    json claim = newObject("resource.k8s.io/v1", "ResourceClaim", ns, name, pass.nowMs);
    json &meta = claim["metadata"];
    meta["generateName"] = prefix;
    const json templateMeta = claimTemplate.value("/spec/metadata"_json_pointer, json::object());
    if (templateMeta.contains("labels"))
        meta["labels"] = templateMeta["labels"];
    meta["annotations"] = templateMeta.value("annotations", json::object());
    meta["annotations"][kPodClaimNameAnnotation] = entry;
    meta["ownerReferences"] = json::array({ controllerReference(pod) });
    claim["spec"] = claimTemplate.value("/spec/spec"_json_pointer, json::object());
    return claim;
}

} // namespace

PodClaims ensurePodClaims(ControlPass &pass, json &pod)
{
    PodClaims out;
    const std::string ns = metaText(pod, "namespace");
    for (const json &entry : pod.value("/spec/resourceClaims"_json_pointer, json::array())) {
        const std::string entryName = entry.value("name", "");
        if (const std::string named = entry.value("resourceClaimName", ""); !named.empty()) {
            if (const json *claim = pass.view.find(model::Kind::ResourceClaim, ns, named))
                out.claims.push_back(*claim);
            else
                out.problem = "resourceclaim \"" + named + "\" not found";
            continue;
        }
        const std::string templateName = entry.value("resourceClaimTemplateName", "");
        if (const std::string recorded = recordedClaimName(pod, entryName); !recorded.empty()) {
            if (const json *claim = pass.view.find(model::Kind::ResourceClaim, ns, recorded)) {
                out.claims.push_back(*claim);
                continue;
            }
        }
        const json *claimTemplate
            = pass.view.find(model::Kind::ResourceClaimTemplate, ns, templateName);
        if (!claimTemplate) {
            out.problem = "resourceclaimtemplate \"" + templateName + "\" not found";
            continue;
        }
        json claim = claimFromTemplate(pass, pod, entryName, *claimTemplate);
        json &statuses = pod["status"]["resourceClaimStatuses"];
        if (!statuses.is_array())
            statuses = json::array();
        json kept = json::array();
        for (const json &status : statuses) {
            if (status.value("name", "") != entryName)
                kept.push_back(status);
        }
        statuses = std::move(kept);
        statuses.push_back(
            { { "name", entryName }, { "resourceClaimName", metaText(claim, "name") } });
        pass.view.put(claim);
        out.claims.push_back(std::move(claim));
    }
    return out;
}

std::vector<json> existingPodClaims(
    const ObjectView &view, const json &pod, const std::string &container)
{
    std::set<std::string> used; // the pod's claim entries the container names
    for (const json &spec : pod.value("/spec/containers"_json_pointer, json::array()))
        if (spec.value("name", "") == container)
            for (const json &ref : spec.value("/resources/claims"_json_pointer, json::array()))
                used.insert(ref.value("name", ""));
    std::vector<json> out;
    const std::string ns = metaText(pod, "namespace");
    for (const json &entry : pod.value("/spec/resourceClaims"_json_pointer, json::array())) {
        if (!container.empty() && !used.contains(entry.value("name", "")))
            continue;
        std::string name = entry.value("resourceClaimName", "");
        if (name.empty())
            name = recordedClaimName(pod, entry.value("name", ""));
        if (const json *claim
            = name.empty() ? nullptr : view.find(model::Kind::ResourceClaim, ns, name))
            out.push_back(*claim);
    }
    return out;
}

} // namespace dra::sandbox
