// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/presets.h"

#include <algorithm>
#include <cstdio>

#include "core/common/json_text.h"
#include "core/release/kubernetes_release.h"
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
    // The nodes planFor() lays out ("" = the preset's own name), and the release the cluster
    // runs ("" = kDemoKubernetesVersion): the release presets are the mixed cluster on an
    // older Kubernetes, for what changes with the release (API versions, gates, kubelets).
    std::string_view plan = {};
    std::string_view kubernetesVersion = {};
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
    { "mixed-1.32",
        "the mixed cluster on Kubernetes 1.32, DRA switched on (beta there: "
        "resource.k8s.io/v1beta1)",
        8, "mixed", "v1.32.5" },
    { "mixed-1.34", "the mixed cluster on Kubernetes 1.34 (resource.k8s.io/v1, DRA GA)", 8, "mixed",
        "v1.34.2" },
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

const Preset *presetNamed(std::string_view name)
{
    for (const Preset &candidate : kPresets) {
        if (candidate.name == name)
            return &candidate;
    }
    return nullptr;
}

Result<const Preset *> findPreset(const std::string &name)
{
    if (const Preset *preset = presetNamed(name))
        return preset;
    QString known;
    for (const Preset &candidate : kPresets)
        known += (known.isEmpty() ? QString() : QStringLiteral(", ")) + common::qs(candidate.name);
    return dra::fail(common::Error::Code::Invalid,
        QStringLiteral("unknown preset \"%1\"; choose one of: %2").arg(common::qs(name), known));
}

// Kubelets one minor behind their control plane ("v1.36.0" -> "v1.35.2"), as clusters
// upgrade the control plane first; within every release's supported skew.
std::string kubeletVersionFor(const std::string &gitVersion)
{
    const int minor = release::KubernetesRelease::parse(gitVersion)
                          .value_or(release::KubernetesRelease::newest())
                          .minor;
    return "v1." + std::to_string(minor - 1) + ".2";
}

} // namespace

std::vector<std::pair<std::string, std::string>> presetNames()
{
    std::vector<std::pair<std::string, std::string>> names;
    for (const Preset &preset : kPresets)
        names.emplace_back(preset.name, preset.description);
    return names;
}

dra::Result<std::string> presetKubernetesVersion(const PresetOptions &options)
{
    Result<const Preset *> preset = findPreset(options.preset);
    if (!preset)
        return dra::fail(preset.error());
    if (options.kubernetesVersion.empty())
        return std::string((*preset)->kubernetesVersion.empty() ? kDemoKubernetesVersion
                                                                : (*preset)->kubernetesVersion);
    Result<release::KubernetesRelease> asked
        = release::KubernetesRelease::parse(options.kubernetesVersion);
    if (!asked)
        return dra::fail(asked.error());
    if (options.kubernetesVersion.starts_with('v'))
        return options.kubernetesVersion;
    // "1.34" as /version says it: the release's first patch.
    return "v1." + std::to_string(asked->minor) + ".0";
}

dra::Result<json> generateInventory(const PresetOptions &options)
{
    Result<const Preset *> found = findPreset(options.preset);
    if (!found)
        return dra::fail(found.error());
    const Preset *preset = *found;
    Result<std::string> kubernetesVersion = presetKubernetesVersion(options);
    if (!kubernetesVersion)
        return dra::fail(kubernetesVersion.error());
    if (options.nodes < 0 || options.nodes > kMaxNodes)
        return dra::fail(common::Error::Code::Invalid,
            QStringLiteral("--nodes must be between 1 and %1 (0 for the preset's default)")
                .arg(kMaxNodes));
    const int nodes = options.nodes == 0 ? preset->defaultNodes : options.nodes;
    const ClusterPlan plan = planFor(preset->plan.empty() ? preset->name : preset->plan, nodes);
    ObjectFactory factory(options.seed);
    factory.setKubeletVersion(kubeletVersionFor(*kubernetesVersion));
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
