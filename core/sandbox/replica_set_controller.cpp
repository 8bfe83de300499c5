// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/replica_set_controller.h"

#include <algorithm>

#include "core/sandbox/controller_support.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

bool newerPodFirst(const json &a, const json &b)
{
    const std::string ta = metaText(a, "creationTimestamp"), tb = metaText(b, "creationTimestamp");
    return ta != tb ? ta > tb : metaText(a, "name") > metaText(b, "name");
}

} // namespace

void ReplicaSetController::reconcile(ControlPass &pass)
{
    for (json &replicaSet : pass.view.all(model::Kind::ReplicaSet))
        reconcileOne(pass, std::move(replicaSet));
}

void ReplicaSetController::reconcileOne(ControlPass &pass, json replicaSet)
{
    const std::string ns = metaText(replicaSet, "namespace");
    std::vector<json> pods;
    for (json &pod : pass.view.all(model::Kind::Pod, ns)) {
        if (controlledBy(pod, replicaSet) && textAt(pod, "/metadata/deletionTimestamp").empty())
            pods.push_back(std::move(pod));
    }
    const int64_t wanted = std::max<int64_t>(0, numberAt(replicaSet, "/spec/replicas", 1));
    while (int64_t(pods.size()) < wanted) {
        pods.push_back(pass.podFromTemplate(replicaSet));
        pass.view.put(pods.back());
    }
    if (int64_t(pods.size()) > wanted) {
        std::sort(pods.begin(), pods.end(), newerPodFirst);
        for (size_t i = 0; i < pods.size() - size_t(wanted); ++i)
            pass.view.remove(model::Kind::Pod, ns, metaText(pods[i], "name"));
        pods.erase(pods.begin(), pods.begin() + std::ptrdiff_t(pods.size() - size_t(wanted)));
    }
    int64_t ready = 0;
    for (const json &pod : pods)
        ready += conditionTrue(pod, "Ready") ? 1 : 0;
    json &status = replicaSet["status"];
    if (!status.is_object())
        status = json::object();
    status["replicas"] = int64_t(pods.size());
    status["fullyLabeledReplicas"] = int64_t(pods.size());
    status["readyReplicas"] = ready;
    status["availableReplicas"] = ready;
    status["observedGeneration"] = numberAt(replicaSet, "/metadata/generation", 1);
    pass.view.put(replicaSet);
}

} // namespace dra::sandbox
