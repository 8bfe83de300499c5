// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/node_fit.h"

#include <map>

#include "core/sandbox/controller_support.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

int64_t gpuCountOf(const json &value)
{
    try {
        if (value.is_number_integer())
            return value.get<int64_t>();
        if (value.is_string())
            return std::stoll(value.get<std::string>());
    } catch (const std::exception &) {
    }
    return 0;
}

bool toleratesTaint(const json &tolerations, const json &taint)
{
    if (!tolerations.is_array())
        return false;
    for (const json &toleration : tolerations) {
        const std::string key = toleration.value("key", "");
        const std::string op = toleration.value("operator", "Equal");
        const std::string effect = toleration.value("effect", "");
        if (!effect.empty() && effect != taint.value("effect", ""))
            continue;
        if (op == "Exists" && (key.empty() || key == taint.value("key", "")))
            return true;
        if (op == "Equal" && key == taint.value("key", "")
            && toleration.value("value", "") == taint.value("value", ""))
            return true;
    }
    return false;
}

bool untoleratedTaint(const json &node, const json &pod)
{
    const json taints = node.value("/spec/taints"_json_pointer, json::array());
    const json tolerations = pod.value("/spec/tolerations"_json_pointer, json::array());
    for (const json &taint : taints) {
        const std::string effect = taint.value("effect", "");
        if ((effect == "NoSchedule" || effect == "NoExecute")
            && !toleratesTaint(tolerations, taint))
            return true;
    }
    return false;
}

bool nodeLabelsMatchSelector(const json &node, const json &pod)
{
    const json selector = pod.value("/spec/nodeSelector"_json_pointer, json::object());
    const json labels = node.value("/metadata/labels"_json_pointer, json::object());
    for (const auto &[key, value] : selector.items()) {
        if (!labels.contains(key) || labels[key] != value)
            return false;
    }
    return true;
}

bool podHoldsItsNode(const json &pod)
{
    const std::string phase = textAt(pod, "/status/phase");
    return phase != "Succeeded" && phase != "Failed";
}

} // namespace

int64_t devicePluginGpus(const json &pod)
{
    int64_t total = 0;
    for (const json &container : pod.value("/spec/containers"_json_pointer, json::array())) {
        const json resources = container.value("resources", json::object());
        int64_t most = 0;
        for (const char *field : { "requests", "limits" }) {
            if (resources.contains(field) && resources[field].contains(kDevicePluginGpu))
                most = std::max(most, gpuCountOf(resources[field][kDevicePluginGpu]));
        }
        total += most;
    }
    return total;
}

bool nodeAdmits(const json &node, const json &pod)
{
    return nodeLabelsMatchSelector(node, pod) && !untoleratedTaint(node, pod);
}

NodeFit fitNodes(const ObjectView &view, const json &pod)
{
    NodeFit fit;
    const int64_t wanted = devicePluginGpus(pod);
    std::map<std::string, int64_t> taken;
    if (wanted > 0) {
        for (const json &other : view.all(model::Kind::Pod)) {
            const std::string node = textAt(other, "/spec/nodeName");
            if (!node.empty() && podHoldsItsNode(other))
                taken[node] += devicePluginGpus(other);
        }
    }
    int unselected = 0, tainted = 0, cordoned = 0, short_ = 0;
    for (const json &node : view.all(model::Kind::Node)) {
        ++fit.nodeCount;
        const std::string name = metaText(node, "name");
        if (!nodeLabelsMatchSelector(node, pod)) {
            ++unselected;
        } else if (node.value("/spec/unschedulable"_json_pointer, false)) {
            ++cordoned;
        } else if (untoleratedTaint(node, pod)) {
            ++tainted;
        } else if (wanted > 0
            && gpuCountOf(node.value("/status/allocatable"_json_pointer, json::object())
                              .value(kDevicePluginGpu, json(0)))
                    - taken[name]
                < wanted) {
            ++short_;
        } else {
            fit.nodes.push_back(name);
        }
    }
    if (!fit.nodes.empty())
        return fit;
    std::string reasons;
    auto add = [&](int count, const char *what) {
        if (count > 0)
            reasons += (reasons.empty() ? " " : ", ") + std::to_string(count) + what;
    };
    add(short_, " Insufficient nvidia.com/gpu");
    add(unselected, " node(s) didn't match Pod's node affinity/selector");
    add(tainted, " node(s) had untolerated taint");
    add(cordoned, " node(s) were unschedulable");
    fit.summary = "0/" + std::to_string(fit.nodeCount) + " nodes are available:" + reasons + ".";
    return fit;
}

} // namespace dra::sandbox
