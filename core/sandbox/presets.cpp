// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/presets.h"

#include <algorithm>
#include <cstdio>

#include "core/common/json_text.h"
#include "core/sandbox/object_factory.h"
#include "core/sandbox/serving_objects.h"
#include "core/sandbox/slice_builder.h"
#include "core/sandbox/workload_builder.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

// Above this a demo stops being a demo; it also keeps ordinals well inside int.
constexpr int kMaxNodes = 100000;

struct Preset
{
    std::string_view name;
    std::string_view description;
    int defaultNodes;
};

constexpr Preset kPresets[] = {
    { "mixed",
        "8 H100 nodes with NICs, 2 A100 MIG nodes, 2 L40S nodes and 3 device-plugin nodes "
        "shared by inference, training and batch",
        8 },
    { "h100-sxm",
        "H100 80GB SXM nodes (default 4), 8 GPUs on 4 PCIe roots and 2 NUMA nodes, one "
        "RDMA NIC per GPU",
        4 },
    { "a100-mig",
        "A100 80GB SXM4 nodes (default 2) with every MIG placement published as "
        "partitionable devices",
        2 },
    { "l40s-pcie", "L40S 48GB PCIe nodes (default 4), 4 GPUs each, one per PCIe root", 4 },
    { "scale", "H100 nodes (default 5000), 8 GPUs each, for benchmarks", 5000 },
};

std::string nodeName(std::string_view prefix, int index, int count)
{
    const int width = count > 1000 ? 5 : 3;
    char digits[16];
    std::snprintf(digits, sizeof digits, "%0*d", width, index);
    return std::string(prefix) + digits;
}

void addNodes(ClusterPlan &plan, std::string_view prefix, int count, const NodeShape &shape,
    GpuStack stack = GpuStack::Dra)
{
    for (int i = 0; i < count; ++i)
        plan.push_back({ nodeName(prefix, i, count), &shape, stack, int(plan.size()) });
}

ClusterPlan planFor(std::string_view preset, int nodes)
{
    ClusterPlan plan;
    plan.reserve(size_t(nodes) + 8);
    if (preset == "mixed") {
        addNodes(plan, "h100-", nodes, h100Shape());
        addNodes(plan, "a100-mig-", 2, a100MigShape());
        addNodes(plan, "l40s-", 2, l40sShape());
        addNodes(plan, "legacy-h100-", 3, h100Shape(), GpuStack::DevicePlugin);
    } else if (preset == "h100-sxm") {
        addNodes(plan, "h100-", nodes, h100Shape());
    } else if (preset == "a100-mig") {
        addNodes(plan, "a100-mig-", nodes, a100MigShape());
    } else if (preset == "l40s-pcie") {
        addNodes(plan, "l40s-", nodes, l40sShape());
    } else {
        // Benchmarks measure GPU inventory at scale: the same H100 nodes without the NIC pool.
        static const NodeShape scaleShape = [] {
            NodeShape shape = h100Shape();
            shape.nicPerGpu = false;
            return shape;
        }();
        addNodes(plan, "node-", nodes, scaleShape);
    }
    return plan;
}

} // namespace

std::vector<std::pair<std::string, std::string>> presetNames()
{
    std::vector<std::pair<std::string, std::string>> names;
    for (const Preset &preset : kPresets)
        names.emplace_back(preset.name, preset.description);
    return names;
}

dra::Result<json> generateInventory(const PresetOptions &options)
{
    const Preset *preset = nullptr;
    for (const Preset &candidate : kPresets) {
        if (candidate.name == options.preset)
            preset = &candidate;
    }
    if (!preset) {
        QString known;
        for (const Preset &candidate : kPresets)
            known += (known.isEmpty() ? QString() : QStringLiteral(", "))
                + common::qs(candidate.name);
        return dra::fail(common::Error::Code::Invalid,
            QStringLiteral("unknown preset \"%1\"; choose one of: %2")
                .arg(common::qs(options.preset), known));
    }
    if (options.nodes < 0 || options.nodes > kMaxNodes)
        return dra::fail(common::Error::Code::Invalid,
            QStringLiteral("--nodes must be between 1 and %1 (0 for the preset's default)")
                .arg(kMaxNodes));
    const int nodes = options.nodes == 0 ? preset->defaultNodes : options.nodes;
    const ClusterPlan plan = planFor(preset->name, nodes);
    ObjectFactory factory(options.seed);
    bool withNics = false;
    for (const NodePlan &node : plan)
        withNics = withNics || (node.shape->nicPerGpu && node.stack == GpuStack::Dra);

    json items = json::array();
    auto &list = items.get_ref<json::array_t &>();
    list.reserve(plan.size() * 3 + 64);
    for (const std::string &ns : kWorkloadNamespaces)
        list.push_back(factory.namespaceObject(ns));
    list.push_back(factory.namespaceObject(kGpuOperatorNamespace));
    Workloads workloads = buildWorkloads(factory, plan, options.seed);
    // Prometheus comes with the serving stack it measures.
    if (std::any_of(workloads.apps.begin(), workloads.apps.end(), [](const json &app) {
            return app["metadata"].value("namespace", "") == kMonitoringNamespace;
        }))
        list.push_back(factory.namespaceObject(kMonitoringNamespace));
    for (const NodePlan &node : plan)
        list.push_back(factory.node(node));
    for (json &deviceClass : deviceClasses(factory, withNics))
        list.push_back(std::move(deviceClass));
    SliceBuilder slices(factory);
    for (const NodePlan &node : plan)
        slices.appendNodeSlices(items, node);
    for (json *group :
        { &workloads.templates, &workloads.claims, &workloads.pods, &workloads.apps }) {
        for (json &object : *group)
            list.push_back(std::move(object));
    }
    return json { { "apiVersion", "v1" }, { "kind", "List" },
        { "metadata", { { "resourceVersion", "" } } }, { "items", std::move(items) } };
}

} // namespace dra::sandbox
