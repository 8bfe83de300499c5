// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/baseline_facts.h"

#include <map>
#include <set>

namespace dra::rollout {

using nlohmann::json;

namespace {

json daemonSetFacts(const BaselineEvidence &evidence)
{
    json list = json::array();
    for (const model::Object &object : evidence.daemonSets) {
        const auto *daemonSet = object.as<model::DaemonSet>();
        if (!daemonSet)
            continue;
        std::set<std::string> images;
        for (const model::PodContainer &container : daemonSet->podTemplate.pod.containers)
            images.insert(container.image);
        list.push_back({ { "namespace", object.meta.ns }, { "name", object.meta.name },
            { "desired", daemonSet->desiredNumberScheduled }, { "ready", daemonSet->numberReady },
            { "images", images } });
    }
    return list;
}

} // namespace

json baselineFacts(const BaselineEvidence &evidence)
{
    json baseline { { "replicas", evidence.baseline.replicas },
        { "readyReplicas", evidence.baseline.readyReplicas } };
    if (evidence.baselineMetrics) {
        baseline["errorRate"] = evidence.baselineMetrics->errorRate;
        baseline["latencyP95Ms"] = evidence.baselineMetrics->latencyP95Ms;
    }

    // Per node: the device plugin's GPUs and the DRA drivers publishing devices there.
    std::map<std::string, std::set<std::string>> drivers;
    json devices = json::array();
    size_t leftOut = 0;
    for (const model::Object &object : evidence.slices) {
        const auto *slice = object.as<model::ResourceSlice>();
        if (!slice || slice->devices.empty())
            continue;
        const std::string node = slice->nodeName.empty() ? "(not node-local)" : slice->nodeName;
        drivers[node].insert(slice->driver);
        for (const model::Device &device : slice->devices) {
            if (devices.size() >= kBaselineFactDevices) {
                ++leftOut;
                continue;
            }
            const model::DeviceAttribute *id
                = device.attribute(evidence.identityAttribute, slice->driver);
            devices.push_back(
                { { "node", node }, { "driver", slice->driver }, { "pool", slice->pool.name },
                    { "name", device.name }, { "uuid", id ? id->display() : std::string() } });
        }
    }
    json nodes = json::array();
    for (const model::Object &object : evidence.nodes) {
        const auto *node = object.as<model::Node>();
        if (!node)
            continue;
        const auto found = drivers.find(object.meta.name);
        if (node->devicePluginGpus() == 0 && found == drivers.end())
            continue;
        nodes.push_back(
            { { "name", object.meta.name }, { "devicePluginGpus", node->devicePluginGpus() },
                { "drivers", found == drivers.end() ? std::set<std::string>() : found->second } });
    }

    json facts { { "versions",
                     { { "kubernetes", evidence.kubernetesVersion },
                         { "resource.k8s.io", evidence.servedResourceVersions } } },
        { "baseline", std::move(baseline) }, { "nodes", std::move(nodes) },
        { "devices", std::move(devices) }, { "devicesLeftOut", leftOut } };
    if (evidence.daemonSetsError.empty())
        facts["daemonSets"] = daemonSetFacts(evidence);
    else
        facts["daemonSetsUnknown"] = evidence.daemonSetsError;
    return facts;
}

} // namespace dra::rollout
