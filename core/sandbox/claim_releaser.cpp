// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/claim_releaser.h"

#include <set>

#include "core/sandbox/controller_support.h"

namespace dra::sandbox {

using nlohmann::json;

void ClaimReleaser::reconcile(ControlPass &pass)
{
    std::set<std::string> livePods;
    for (const json &pod : pass.view.all(model::Kind::Pod)) {
        const std::string uid = metaText(pod, "uid");
        livePods.insert(uid);
        if (const std::string deployment = pass.deploymentOf(pod); !deployment.empty())
            m_podDeployments[uid] = metaText(pod, "namespace") + '/' + deployment;
    }
    auto keptByFault = [&](const std::string &ns, const std::string &podUid) {
        const auto it = m_podDeployments.find(podUid);
        const std::string deployment = it == m_podDeployments.end()
            ? std::string()
            : it->second.substr(it->second.find('/') + 1);
        return pass.faults.applies(FaultKind::ClaimNotReleased, ns, deployment);
    };
    for (json &claim : pass.view.all(model::Kind::ResourceClaim)) {
        const std::string ns = metaText(claim, "namespace");
        bool changed = false;
        if (claim.contains("/status/reservedFor"_json_pointer)) {
            json &reservedFor = claim["status"]["reservedFor"];
            json kept = json::array();
            for (const json &entry : reservedFor) {
                const std::string uid = entry.value("uid", "");
                const bool gone = entry.value("resource", "") == "pods" && !uid.empty()
                    && !livePods.contains(uid) && !keptByFault(ns, uid);
                if (gone)
                    changed = true;
                else
                    kept.push_back(entry);
            }
            if (changed) {
                if (kept.empty())
                    claim["status"].erase("reservedFor");
                else
                    reservedFor = std::move(kept);
                pass.view.put(claim);
                continue; // deleted on a later pass, once the release is stored
            }
        }
        const json *owner = controllerOf(claim);
        if (!owner || owner->value("kind", "") != "Pod")
            continue;
        const std::string ownerUid = owner->value("uid", "");
        if (livePods.contains(ownerUid) || keptByFault(ns, ownerUid)
            || claim.contains("/status/reservedFor"_json_pointer))
            continue;
        // A preseeded claim may name its pod without the pod's current uid: look by name too.
        if (const json *pod = pass.view.find(model::Kind::Pod, ns, owner->value("name", ""));
            pod && (ownerUid.empty() || metaText(*pod, "uid") == ownerUid))
            continue;
        pass.view.remove(model::Kind::ResourceClaim, ns, metaText(claim, "name"));
    }
}

} // namespace dra::sandbox
