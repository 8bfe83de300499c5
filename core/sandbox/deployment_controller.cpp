// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/deployment_controller.h"

#include <algorithm>

#include "core/sandbox/controller_support.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

constexpr const char *kRevisionAnnotation = "deployment.kubernetes.io/revision";
constexpr const char *kHashLabel = "pod-template-hash";

int64_t revisionOf(const json &object)
{
    const std::string text
        = textAt(object, "/metadata/annotations/deployment.kubernetes.io~1revision");
    try {
        return text.empty() ? 0 : std::stoll(text);
    } catch (const std::exception &) {
        return 0;
    }
}

json withHashLabel(json labels, const std::string &hash)
{
    if (!labels.is_object())
        labels = json::object();
    labels[kHashLabel] = hash;
    return labels;
}

// A new ReplicaSet for the Deployment's current template, as the Deployment controller makes it.
json newReplicaSet(const ControlPass &pass, const json &deployment, int64_t revision)
{
    const json &podTemplate = deployment["spec"]["template"];
    const std::string hash = stableNameSuffix(podTemplate.dump(), 10);
    const std::string ns = metaText(deployment, "namespace");
    json replicaSet = newObject(
        "apps/v1", "ReplicaSet", ns, metaText(deployment, "name") + '-' + hash, pass.nowMs);
    json &meta = replicaSet["metadata"];
    meta["labels"]
        = withHashLabel(podTemplate.value("/metadata/labels"_json_pointer, json::object()), hash);
    meta["annotations"] = { { kRevisionAnnotation, std::to_string(revision) } };
    meta["ownerReferences"] = json::array({ controllerReference(deployment) });
    meta["generation"] = 1;
    json selector = deployment["spec"].value("selector", json::object());
    selector["matchLabels"] = withHashLabel(selector.value("matchLabels", json::object()), hash);
    json replicaTemplate = podTemplate;
    replicaTemplate["metadata"]["labels"] = meta["labels"];
    replicaSet["spec"] = { { "replicas", 0 }, { "selector", std::move(selector) },
        { "template", std::move(replicaTemplate) } };
    replicaSet["status"] = { { "replicas", 0 } };
    return replicaSet;
}

} // namespace

json templateWithoutHash(const json &replicaSet)
{
    json podTemplate = replicaSet.value("/spec/template"_json_pointer, json::object());
    if (podTemplate.contains("metadata") && podTemplate["metadata"].contains("labels")) {
        json &labels = podTemplate["metadata"]["labels"];
        if (labels.is_object())
            labels.erase(kHashLabel);
    }
    return podTemplate;
}

void DeploymentController::reconcile(ControlPass &pass)
{
    for (const json &deployment : pass.view.all(model::Kind::Deployment)) {
        if (!textAt(deployment, "/metadata/deletionTimestamp").empty()
            || !deployment.contains("/spec/template"_json_pointer))
            continue;
        reconcileOne(pass, deployment);
    }
}

void DeploymentController::reconcileOne(ControlPass &pass, const json &deployment)
{
    const std::string ns = metaText(deployment, "namespace");
    const json &podTemplate = deployment["spec"]["template"];
    const int64_t replicas = numberAt(deployment, "/spec/replicas", 1);
    std::vector<json> owned;
    for (json &replicaSet : pass.view.all(model::Kind::ReplicaSet, ns)) {
        if (controlledBy(replicaSet, deployment))
            owned.push_back(std::move(replicaSet));
    }
    auto current = std::find_if(owned.begin(), owned.end(),
        [&](const json &replicaSet) { return templateWithoutHash(replicaSet) == podTemplate; });
    if (current == owned.end()) {
        int64_t revision = 0;
        for (const json &replicaSet : owned)
            revision = std::max(revision, revisionOf(replicaSet));
        owned.push_back(newReplicaSet(pass, deployment, revision + 1));
        current = owned.end() - 1;
    }
    const std::string currentName = metaText(*current, "name");

    int64_t total = 0, updated = 0, ready = 0, oldReplicas = 0;
    for (json &replicaSet : owned) {
        const bool isCurrent = metaText(replicaSet, "name") == currentName;
        const int64_t wanted = isCurrent ? replicas : 0;
        if (numberAt(replicaSet, "/spec/replicas", -1) != wanted) {
            replicaSet["spec"]["replicas"] = wanted;
            replicaSet["metadata"]["annotations"]["deployment.kubernetes.io/desired-replicas"]
                = std::to_string(replicas);
            replicaSet["metadata"]["generation"]
                = numberAt(replicaSet, "/metadata/generation", 1) + 1;
        }
        pass.view.put(replicaSet);
        const int64_t count = numberAt(replicaSet, "/status/replicas");
        total += count;
        ready += numberAt(replicaSet, "/status/readyReplicas");
        (isCurrent ? updated : oldReplicas) += count;
    }

    json next = deployment;
    next["metadata"]["annotations"][kRevisionAnnotation] = std::to_string(revisionOf(*current));
    json &status = next["status"];
    if (!status.is_object())
        status = json::object();
    status["observedGeneration"] = numberAt(deployment, "/metadata/generation", 1);
    status["replicas"] = total;
    status["updatedReplicas"] = updated;
    status["readyReplicas"] = ready;
    status["availableReplicas"] = ready;
    if (replicas > ready)
        status["unavailableReplicas"] = replicas - ready;
    else
        status.erase("unavailableReplicas");
    const std::string now = pass.now();
    if (ready >= replicas)
        setCondition(status, "Available", true, "MinimumReplicasAvailable",
            "Deployment has minimum availability.", now);
    else
        setCondition(status, "Available", false, "MinimumReplicasUnavailable",
            "Deployment does not have minimum availability.", now);
    const bool complete = updated == replicas && ready >= replicas && oldReplicas == 0;
    setCondition(status, "Progressing", true,
        complete ? "NewReplicaSetAvailable" : "ReplicaSetUpdated",
        "ReplicaSet \"" + currentName
            + (complete ? "\" has successfully progressed." : "\" is progressing."),
        now);
    pass.view.put(next);
}

} // namespace dra::sandbox
