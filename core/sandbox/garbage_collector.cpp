// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/garbage_collector.h"

#include "core/sandbox/controller_support.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

// Whether the controller of `object`, a `kind`, is gone (absent, or replaced by a namesake).
bool ownerGone(const ControlPass &pass, const json &object, model::Kind kind, const char *kindName)
{
    const json *reference = controllerOf(object);
    if (!reference || reference->value("kind", "") != kindName)
        return false;
    const json *owner
        = pass.view.find(kind, metaText(object, "namespace"), reference->value("name", ""));
    if (!owner)
        return true;
    const std::string uid = reference->value("uid", "");
    return !uid.empty() && uid != metaText(*owner, "uid");
}

} // namespace

void GarbageCollector::reconcile(ControlPass &pass)
{
    for (const json &replicaSet : pass.view.all(model::Kind::ReplicaSet)) {
        if (ownerGone(pass, replicaSet, model::Kind::Deployment, "Deployment"))
            pass.view.remove(model::Kind::ReplicaSet, metaText(replicaSet, "namespace"),
                metaText(replicaSet, "name"));
    }
    for (const json &pod : pass.view.all(model::Kind::Pod)) {
        if (ownerGone(pass, pod, model::Kind::ReplicaSet, "ReplicaSet"))
            pass.view.remove(model::Kind::Pod, metaText(pod, "namespace"), metaText(pod, "name"));
    }
}

} // namespace dra::sandbox
