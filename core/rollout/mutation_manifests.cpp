// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/mutation_manifests.h"

#include <algorithm>

#include "core/common/json_text.h"

namespace dra::rollout {

namespace {

using common::Error;
using common::qs;
using nlohmann::json;

const std::string kDraTrack = "dra";

// Only what identifies an object and what its owner set: the server's bookkeeping (uid,
// resourceVersion, managedFields, status, ...) never goes back in an apply.
json ownMetadata(const json &object)
{
    const json &meta = object.contains("metadata") ? object["metadata"] : json::object();
    json own { { "name", meta.value("name", std::string()) } };
    if (meta.contains("namespace"))
        own["namespace"] = meta["namespace"];
    if (meta.contains("labels") && meta["labels"].is_object())
        own["labels"] = meta["labels"];
    return own;
}

void removeResources(json &requirements, const std::vector<std::string> &names)
{
    for (const char *section : { "requests", "limits" }) {
        if (!requirements.contains(section) || !requirements[section].is_object())
            continue;
        for (const std::string &name : names)
            requirements[section].erase(name);
        if (requirements[section].empty())
            requirements.erase(section);
    }
}

void addClaim(json &container, const std::string &claimName)
{
    json &resources = container["resources"];
    if (!resources.is_object())
        resources = json::object();
    json &claims = resources["claims"];
    if (!claims.is_array())
        claims = json::array();
    for (const json &claim : claims)
        if (claim.is_object() && claim.value("name", std::string()) == claimName)
            return;
    claims.push_back({ { "name", claimName } });
}

json backendRef(const std::string &service, const json &like, int weight)
{
    json ref { { "name", service }, { "weight", weight } };
    if (like.contains("port"))
        ref["port"] = like["port"];
    return ref;
}

bool namesService(const json &ref, const std::string &service)
{
    return ref.is_object() && ref.value("name", std::string()) == service
        && (!ref.contains("kind") || ref["kind"] == "Service");
}

} // namespace

std::string canaryPodSelector(const RolloutPlan &plan)
{
    return std::string(kRolloutLabel) + "=" + plan.name + "," + std::string(kTrackLabel) + "="
        + kDraTrack;
}

json canaryServiceManifest(const RolloutPlan &plan, const json &baselineService)
{
    json ports = json::array();
    for (const json &port : baselineService.value("/spec/ports"_json_pointer, json::array())) {
        json copy = json::object();
        for (const char *field : { "name", "port", "targetPort", "protocol", "appProtocol" })
            if (port.contains(field))
                copy[field] = port[field];
        ports.push_back(std::move(copy));
    }
    json spec = { { "selector",
                      { { std::string(kRolloutLabel), plan.name },
                          { std::string(kTrackLabel), kDraTrack } } },
        { "ports", std::move(ports) } };
    if (const std::string type = baselineService.value("/spec/type"_json_pointer, std::string());
        type == "ClusterIP" || type == "NodePort")
        spec["type"] = type; // not a LoadBalancer: the route is the canary's only way in
    return { { "apiVersion", "v1" }, { "kind", "Service" },
        { "metadata",
            { { "name", plan.traffic.canaryService }, { "namespace", plan.baseline.ns },
                { "labels", { { std::string(kRolloutLabel), plan.name } } } } },
        { "spec", std::move(spec) } };
}

json claimTemplateManifest(const RolloutPlan &plan)
{
    json manifest = plan.variant.templateManifest;
    manifest["metadata"]["name"] = plan.variant.templateName;
    manifest["metadata"]["namespace"] = plan.baseline.ns;
    manifest["metadata"]["labels"][std::string(kRolloutLabel)] = plan.name;
    return manifest;
}

static Result<json> buildCanaryDeployment(
    const RolloutPlan &plan, const json &baseline, int replicas)
{
    const QString baselineName = qs(plan.workloadKey());
    if (!baseline.contains("spec") || !baseline["spec"].contains("template")
        || !baseline["spec"]["template"].is_object())
        return fail(Error::Code::Invalid,
            QStringLiteral("Deployment %1 has no pod template to copy").arg(baselineName));
    const json &baselineSpec = baseline["spec"];
    json matchLabels = json::object();
    if (baselineSpec.contains("selector") && baselineSpec["selector"].contains("matchLabels"))
        matchLabels = baselineSpec["selector"]["matchLabels"];
    if (!matchLabels.is_object())
        return fail(Error::Code::Invalid,
            QStringLiteral("Deployment %1: spec.selector.matchLabels is not a map")
                .arg(baselineName));

    json podTemplate = baselineSpec["template"];
    json podLabels
        = podTemplate["metadata"].is_object() && podTemplate["metadata"].contains("labels")
        ? podTemplate["metadata"]["labels"]
        : json::object();
    json selector = json::object();
    for (const auto &[key, value] : matchLabels.items()) {
        // Behind one Service the canary must keep the labels it selects; behind a route it must
        // not.
        const json own
            = plan.traffic.mode == TrafficMode::HttpRoute ? json(plan.variant.deployment) : value;
        podLabels[key] = own;
        selector[key] = own;
    }
    podLabels[std::string(kRolloutLabel)] = plan.name;
    podLabels[std::string(kTrackLabel)] = kDraTrack;
    selector[std::string(kRolloutLabel)] = plan.name;
    selector[std::string(kTrackLabel)] = kDraTrack;
    json podMeta { { "labels", podLabels } };
    if (podTemplate["metadata"].is_object() && podTemplate["metadata"].contains("annotations"))
        podMeta["annotations"] = podTemplate["metadata"]["annotations"];
    podTemplate["metadata"] = podMeta;

    json &pod = podTemplate["spec"];
    if (!pod.is_object())
        return fail(Error::Code::Invalid,
            QStringLiteral("Deployment %1 has an empty pod spec").arg(baselineName));
    const PodTemplateChange &change = plan.variant.podTemplate;
    bool anyContainer = false;
    if (pod.contains("containers") && pod["containers"].is_array())
        for (json &container : pod["containers"]) {
            const std::string name = container.value("name", std::string());
            const bool chosen = change.containers.empty()
                || std::find(change.containers.begin(), change.containers.end(), name)
                    != change.containers.end();
            if (container.contains("resources"))
                removeResources(container["resources"], change.removeResources);
            if (chosen) {
                addClaim(container, change.claimName);
                anyContainer = true;
            }
        }
    if (!anyContainer)
        return fail(Error::Code::Invalid,
            QStringLiteral("Deployment %1: none of its containers is named in the plan's "
                           "podTemplate.containers")
                .arg(baselineName));
    json claims = json::array();
    if (pod.contains("resourceClaims") && pod["resourceClaims"].is_array())
        for (const json &claim : pod["resourceClaims"])
            if (claim.value("name", std::string()) != change.claimName)
                claims.push_back(claim);
    claims.push_back({ { "name", change.claimName },
        { "resourceClaimTemplateName", plan.variant.templateName } });
    pod["resourceClaims"] = claims;
    // The baseline's nodeSelector picks the device-plugin pool; the plan's, when it names one,
    // picks the DRA pool instead of adding to it (keys of the two pools rarely coincide).
    if (!change.nodeSelector.empty()) {
        pod["nodeSelector"] = json::object();
        for (const auto &[key, value] : change.nodeSelector)
            pod["nodeSelector"][key] = value;
    }

    json metadata = ownMetadata(baseline);
    metadata["name"] = plan.variant.deployment;
    metadata["namespace"] = plan.baseline.ns;
    metadata["labels"][std::string(kRolloutLabel)] = plan.name;
    json spec { { "replicas", replicas }, { "selector", { { "matchLabels", selector } } },
        { "template", podTemplate } };
    for (const char *kept :
        { "strategy", "minReadySeconds", "progressDeadlineSeconds", "revisionHistoryLimit" })
        if (baselineSpec.contains(kept))
            spec[kept] = baselineSpec[kept];
    return json { { "apiVersion", "apps/v1" }, { "kind", "Deployment" }, { "metadata", metadata },
        { "spec", spec } };
}

json replicasPatch(int replicas)
{
    return { { "spec", { { "replicas", replicas } } } };
}

static Result<json> buildRoute(const RolloutPlan &plan, const json &route,
    std::optional<int> baselineWeight, std::optional<int> canaryWeight,
    std::optional<int> mirrorPercent, bool removeMirror)
{
    const Traffic &traffic = plan.traffic;
    const QString routeName = qs(plan.baseline.ns + "/" + traffic.route);
    if (!route.contains("spec") || !route["spec"].contains("rules")
        || !route["spec"]["rules"].is_array())
        return fail(
            Error::Code::Invalid, QStringLiteral("HTTPRoute %1 has no rules").arg(routeName));
    const json liveAnnotations = route.contains("metadata")
        ? route["metadata"].value("annotations", json::object())
        : json::object();
    const std::string annotation(kBaselineWeightBeforeAnnotation);
    std::optional<std::string>
        before; // the baseline's weight before the rollout: "1", or "" for none
    if (liveAnnotations.is_object() && liveAnnotations.contains(annotation)
        && liveAnnotations[annotation].is_string())
        before = liveAnnotations[annotation].get<std::string>();
    // No traffic to the canary is the route as it was: the canary's backendRefs go and the
    // baseline's weight returns to what it was before the rollout, so a rollback leaves the
    // route exactly as found.
    const bool restore = canaryWeight && *canaryWeight == 0;
    json rules = route["spec"]["rules"];
    bool sendsToBaseline = false;
    for (json &rule : rules) {
        if (!rule.contains("backendRefs") || !rule["backendRefs"].is_array())
            continue;
        json &refs = rule["backendRefs"];
        const auto baseline = std::find_if(refs.begin(), refs.end(),
            [&](const json &ref) { return namesService(ref, traffic.baselineService); });
        if (baseline == refs.end())
            continue;
        sendsToBaseline = true;
        const json baselineRef = *baseline;
        if (!before && canaryWeight && !restore) // the first change of weights notes the original
            before = baselineRef.contains("weight") ? baselineRef["weight"].dump() : std::string();
        if (canaryWeight) {
            json kept = json::array();
            bool hasCanary = false;
            for (json &ref : refs) {
                if (namesService(ref, traffic.canaryService)) {
                    if (restore)
                        continue;
                    hasCanary = true;
                    ref["weight"] = *canaryWeight;
                }
                if (namesService(ref, traffic.baselineService)) {
                    if (!restore)
                        ref["weight"] = baselineWeight.value_or(100 - *canaryWeight);
                    else if (before && before->empty())
                        ref.erase("weight");
                    else if (before)
                        ref["weight"] = std::stoi(*before);
                }
                kept.push_back(ref);
            }
            if (!hasCanary && !restore)
                kept.push_back(backendRef(traffic.canaryService, baselineRef, *canaryWeight));
            refs = kept;
        }
        if (mirrorPercent || removeMirror) {
            json filters = json::array();
            if (rule.contains("filters") && rule["filters"].is_array())
                for (const json &filter : rule["filters"]) {
                    const bool ours = filter.value("type", std::string()) == "RequestMirror"
                        && filter.contains("requestMirror")
                        && filter["requestMirror"].contains("backendRef")
                        && namesService(
                            filter["requestMirror"]["backendRef"], traffic.canaryService);
                    if (!ours)
                        filters.push_back(filter);
                }
            if (mirrorPercent) {
                json backend { { "name", traffic.canaryService } };
                if (baselineRef.contains("port"))
                    backend["port"] = baselineRef["port"];
                filters.push_back({ { "type", "RequestMirror" },
                    { "requestMirror",
                        { { "backendRef", backend }, { "percent", *mirrorPercent } } } });
            }
            if (filters.empty())
                rule.erase("filters");
            else
                rule["filters"] = filters;
        }
    }
    if (!sendsToBaseline)
        return fail(Error::Code::Invalid,
            QStringLiteral("HTTPRoute %1: no rule sends traffic to the baseline Service %2")
                .arg(routeName, qs(traffic.baselineService)));
    json spec = route["spec"];
    spec["rules"] = rules;
    json metadata = ownMetadata(route);
    // Applied by our field manager only while the rollout has changed the weights: dropping it
    // from a later apply removes it again.
    if (canaryWeight ? !restore : before.has_value())
        metadata["annotations"][annotation] = before.value_or(std::string());
    return json { { "apiVersion",
                      route.value("apiVersion", std::string("gateway.networking.k8s.io/v1")) },
        { "kind", "HTTPRoute" }, { "metadata", metadata }, { "spec", spec } };
}

// A field of the wrong type in an object from the server is an error naming the object, not an
// exception escaping into the event loop.
Result<json> canaryDeploymentManifest(const RolloutPlan &plan, const json &baseline, int replicas)
{
    try {
        return buildCanaryDeployment(plan, baseline, replicas);
    } catch (const json::exception &e) {
        return fail(Error::Code::Parse,
            QStringLiteral("Deployment %1: %2")
                .arg(qs(plan.workloadKey()), QString::fromUtf8(e.what())));
    }
}

Result<json> routeManifest(const RolloutPlan &plan, const json &route,
    std::optional<int> baselineWeight, std::optional<int> canaryWeight,
    std::optional<int> mirrorPercent, bool removeMirror)
{
    try {
        return buildRoute(plan, route, baselineWeight, canaryWeight, mirrorPercent, removeMirror);
    } catch (const std::exception &e) { // json::exception, std::stoi on a bad annotation
        return fail(Error::Code::Parse,
            QStringLiteral("HTTPRoute %1/%2: %3")
                .arg(qs(plan.baseline.ns), qs(plan.traffic.route), QString::fromUtf8(e.what())));
    }
}

std::pair<std::optional<int>, std::optional<int>> routeWeights(
    const RolloutPlan &plan, const json &route)
{
    std::optional<int> baseline, canary;
    if (!route.contains("spec") || !route["spec"].contains("rules")
        || !route["spec"]["rules"].is_array())
        return { baseline, canary };
    for (const json &rule : route["spec"]["rules"]) {
        if (!rule.contains("backendRefs") || !rule["backendRefs"].is_array())
            continue;
        for (const json &ref : rule["backendRefs"]) {
            // A backendRef without a weight has the Gateway API default of 1.
            const int weight = ref.contains("weight") && ref["weight"].is_number_integer()
                ? ref["weight"].get<int>()
                : 1;
            if (!baseline && namesService(ref, plan.traffic.baselineService))
                baseline = weight;
            if (!canary && namesService(ref, plan.traffic.canaryService))
                canary = weight;
        }
    }
    return { baseline, canary };
}

bool routeMirrorsToCanary(const RolloutPlan &plan, const json &route)
{
    for (const json &rule : route.value("/spec/rules"_json_pointer, json::array())) {
        for (const json &filter : rule.value("filters", json::array())) {
            if (filter.value("type", std::string()) == "RequestMirror"
                && namesService(
                    filter.value("/requestMirror/backendRef"_json_pointer, json::object()),
                    plan.traffic.canaryService))
                return true;
        }
    }
    return false;
}

std::optional<int> baselineTrafficPercent(const RolloutPlan &plan, const json &route)
{
    const auto [baseline, canary] = routeWeights(plan, route);
    if (!baseline)
        return std::nullopt;
    const int total = *baseline + canary.value_or(0);
    return total <= 0 ? 0 : (*baseline * 100 + total / 2) / total;
}

json negativeControlClaimManifest(const RolloutPlan &plan, const std::string &name)
{
    json request { { "name", "negative-control" },
        { "exactly",
            { { "deviceClassName", plan.negativeControl.deviceClassName },
                { "selectors",
                    json::array({ { { "cel",
                        { { "expression", plan.negativeControl.selector } } } } }) } } } };
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata",
            { { "name", name }, { "namespace", plan.baseline.ns },
                { "labels", { { std::string(kRolloutLabel), plan.name } } } } },
        { "spec", { { "devices", { { "requests", json::array({ request }) } } } } } };
}

} // namespace dra::rollout
