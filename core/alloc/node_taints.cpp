// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/node_taints.h"

#include <set>

#include <nlohmann/json.hpp>

#include "core/alloc/legacy_workloads.h"
#include "core/inventory/snapshot.h"

namespace dra::alloc {

using nlohmann::json;

std::vector<model::DeviceTaint> nodeTaints(
    const inventory::Snapshot &snapshot, const std::string &node)
{
    std::vector<model::DeviceTaint> taints;
    const model::Object *object = snapshot.object(model::Kind::Node, "", node);
    if (!object || !object->raw)
        return taints;
    const json &spec = object->raw->value("spec", json::object());
    for (const json &taint : spec.value("taints", json::array()))
        if (taint.is_object())
            taints.push_back({ taint.value("key", ""), taint.value("value", ""),
                taint.value("effect", ""), {} });
    if (spec.value("unschedulable", false))
        taints.push_back({ "node.kubernetes.io/unschedulable", "", "NoSchedule", {} });
    return taints;
}

std::vector<model::Toleration> extendedResourceTolerations(const json &podSpec)
{
    std::set<std::string> resources;
    for (const char *list : { "initContainers", "containers" })
        for (const json &container : podSpec.value(list, json::array()))
            for (const char *kind : { "limits", "requests" }) {
                const json &values
                    = container.value("resources", json::object()).value(kind, json::object());
                if (values.is_object())
                    for (const auto &[name, value] : values.items())
                        if (isExtendedResourceName(name))
                            resources.insert(name);
            }
    std::vector<model::Toleration> out;
    for (const std::string &resource : resources)
        out.push_back({ resource, "Exists", "", "NoSchedule" });
    return out;
}

} // namespace dra::alloc
