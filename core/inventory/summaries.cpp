// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/summaries.h"

#include <algorithm>
#include <map>
#include <set>

namespace dra::inventory {

namespace {

common::ObjectKey claimKey(const std::string &ns, const std::string &name)
{
    return { std::string(model::kResourceGroup), "ResourceClaim", ns, name };
}

} // namespace

std::vector<NodeSummary> nodeSummaries(const Snapshot &snapshot)
{
    std::map<std::string, NodeSummary> nodes;
    for (const auto &object : snapshot.objects(model::Kind::Node)) {
        NodeSummary &summary = nodes[object->meta.name];
        summary.name = object->meta.name;
        summary.node = object.get();
        if (const auto *node = object->as<model::Node>()) {
            summary.status = node->status();
            summary.devicePluginGpus = node->devicePluginGpus();
        }
    }
    for (const std::string &name : snapshot.deviceNodes()) {
        NodeSummary &summary = nodes[name];
        summary.name = name;
        std::set<std::string> drivers;
        for (const Device *device : snapshot.devicesOnNode(name)) {
            ++summary.devices;
            drivers.insert(device->key.driver);
            const DeviceState state = snapshot.state(*device);
            summary.allocated += state == DeviceState::Allocated ? 1 : 0;
            summary.free += state == DeviceState::Free ? 1 : 0;
        }
        summary.drivers.assign(drivers.begin(), drivers.end());
    }
    for (const auto &object : snapshot.objects(model::Kind::Pod))
        if (const auto *pod = object->as<model::Pod>(); pod && !pod->nodeName.empty())
            if (const auto it = nodes.find(pod->nodeName); it != nodes.end())
                ++it->second.pods;
    std::vector<NodeSummary> result;
    result.reserve(nodes.size());
    for (auto &[name, summary] : nodes)
        result.push_back(std::move(summary));
    return result;
}

std::vector<ClaimSummary> claimSummaries(const Snapshot &snapshot)
{
    const bool podsMirrored = !snapshot.objects(model::Kind::Pod).empty();
    std::vector<ClaimSummary> result;
    for (const auto &object : snapshot.objects(model::Kind::ResourceClaim)) {
        const auto *claim = object->as<model::ResourceClaim>();
        if (!claim)
            continue;
        ClaimSummary summary;
        summary.claim = object.get();
        summary.state = claim->state(!object->meta.deletionTimestamp.empty());
        if (claim->allocation) {
            std::set<std::string> nodes;
            for (const model::DeviceRequestAllocationResult &result : claim->allocation->results) {
                summary.devices.push_back({ result.driver, result.pool, result.device });
                const Device *device = snapshot.device(summary.devices.back());
                nodes.insert(device ? device->node : std::string());
            }
            if (nodes.size() == 1)
                summary.node = *nodes.begin();
        }
        for (const model::ResourceClaimConsumerReference &ref : claim->reservedFor) {
            if (ref.resource != "pods" || !ref.apiGroup.empty())
                continue;
            summary.pods.push_back(ref.name);
            const model::Object *pod = snapshot.object(model::Kind::Pod, object->meta.ns, ref.name);
            if (podsMirrored && (!pod || (!ref.uid.empty() && pod->meta.uid != ref.uid)))
                summary.missingPods.push_back(ref.name);
        }
        result.push_back(std::move(summary));
    }
    return result;
}

std::vector<PodSummary> podSummaries(const Snapshot &snapshot)
{
    std::vector<PodSummary> result;
    for (const auto &object : snapshot.objects(model::Kind::Pod)) {
        const auto *pod = object->as<model::Pod>();
        if (!pod || pod->resourceClaims.empty())
            continue;
        PodSummary summary;
        summary.pod = object.get();
        for (const model::PodResourceClaim &podClaim : pod->resourceClaims) {
            std::string name = podClaim.resourceClaimName;
            if (name.empty())
                for (const model::PodResourceClaimStatus &status : pod->resourceClaimStatuses)
                    if (status.name == podClaim.name)
                        name = status.resourceClaimName;
            if (name.empty() || !snapshot.object(model::Kind::ResourceClaim, object->meta.ns, name))
                summary.pendingClaims.push_back(podClaim.name);
            else
                summary.claims.push_back(claimKey(object->meta.ns, name));
        }
        result.push_back(std::move(summary));
    }
    return result;
}

std::map<std::string, int, std::less<>> classRequestCounts(const Snapshot &snapshot)
{
    std::map<std::string, int, std::less<>> requests;
    const auto count = [&](const model::ResourceClaimSpec &spec) {
        std::set<std::string> named;
        for (const model::DeviceRequest &request : spec.requests) {
            if (request.exactly)
                named.insert(request.exactly->deviceClassName);
            for (const model::DeviceRequestSpec &sub : request.firstAvailable)
                named.insert(sub.deviceClassName);
        }
        for (const std::string &name : named)
            ++requests[name];
    };
    for (const auto &object : snapshot.objects(model::Kind::ResourceClaim))
        if (const auto *claim = object->as<model::ResourceClaim>())
            count(claim->spec);
    for (const auto &object : snapshot.objects(model::Kind::ResourceClaimTemplate))
        if (const auto *claimTemplate = object->as<model::ResourceClaimTemplate>())
            count(claimTemplate->spec);
    return requests;
}

std::vector<ClassSummary> classSummaries(const Snapshot &snapshot)
{
    const std::map<std::string, int, std::less<>> requests = classRequestCounts(snapshot);
    std::vector<ClassSummary> result;
    for (const auto &object : snapshot.objects(model::Kind::DeviceClass)) {
        ClassSummary summary;
        summary.deviceClass = object.get();
        const auto match = snapshot.classMatch(object->meta.name);
        summary.devices = int(match->devices.size());
        summary.selectorErrors = !match->errors.empty();
        for (const Device *device : match->devices)
            summary.free += snapshot.state(*device) == DeviceState::Free ? 1 : 0;
        if (const auto it = requests.find(object->meta.name); it != requests.end())
            summary.requestedBy = it->second;
        result.push_back(summary);
    }
    return result;
}

} // namespace dra::inventory
