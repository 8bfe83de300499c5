// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/workload_builder.h"

#include <algorithm>
#include <optional>
#include <random>

#include "core/sandbox/serving_objects.h"
#include "core/sandbox/slice_builder.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

// One device a claim got: request name, driver, pool (= node) and device.
struct Pick
{
    std::string request;
    std::string_view driver;
    std::string device;
};

// How a pod names one of its claims: through a template (a claim is stamped for it) or directly.
struct PodClaim
{
    std::string name;
    std::string templateName; // empty for a directly named claim
    std::string claimName; // the claim it ends up using
};

// Devices already handed out on a node, so scenarios never give one device twice and MIG
// placements never overlap.
struct NodeUse
{
    const NodePlan *plan = nullptr;
    std::vector<bool> gpu;
    std::vector<bool> nic;
    std::vector<uint32_t> memorySlices; // per GPU, bit i = memory slice i taken by a MIG device
    std::vector<int> multiprocessors; // per GPU, SMs taken by MIG devices
};

json selector(const std::string &cel)
{
    return { { "cel", { { "expression", cel } } } };
}

json request(const std::string &name, std::string_view deviceClass, int count,
    const std::optional<std::string> &cel = std::nullopt)
{
    json exactly = { { "deviceClassName", deviceClass }, { "allocationMode", "ExactCount" },
        { "count", count } };
    if (cel)
        exactly["selectors"] = json::array({ selector(*cel) });
    return { { "name", name }, { "exactly", std::move(exactly) } };
}

std::string productIs(std::string_view product)
{
    return "device.attributes['gpu.nvidia.com'].productName == '" + std::string(product) + "'";
}

std::string profileIs(std::string_view profile)
{
    return "device.attributes['gpu.nvidia.com'].profile == '" + std::string(profile) + "'";
}

class Builder
{
public:
    Builder(const ObjectFactory &factory, const ClusterPlan &plan, uint64_t seed);
    Workloads run();

private:
    std::vector<NodeUse *> nodesWith(const GpuModel &model);
    void addTemplate(const std::string &ns, const std::string &name, json devices);
    // A Running pod on `node` (or Pending when null) whose template claims are stamped with
    // `picks` as their allocation; directly named claims must already be in m_claims.
    void addPod(const std::string &ns, const std::string &name, const NodeUse *node,
        std::vector<PodClaim> claims, const json &templateDevices, const std::vector<Pick> &picks,
        std::string_view image);
    json claim(const std::string &ns, const std::string &name, json devices);
    static void allocate(json &claim, const NodeUse &node, const std::vector<Pick> &picks);
    void reserve(const std::string &ns, const std::string &claimName, const std::string &podName);
    std::vector<Pick> wholeGpus(NodeUse &node, const std::string &request, int count);
    std::optional<Pick> migDevice(
        NodeUse &node, const std::string &request, const MigProfile &profile);

    void inference();
    void training();
    void l40s();
    void mig();
    void devicePlugin();
    void monitoring(const NodeUse &node);
    void negativeControl();

    const ObjectFactory &m_factory;
    std::vector<NodeUse> m_nodes;
    std::mt19937_64 m_random;
    Workloads m_out;
    int m_podCount = 0;
};

Builder::Builder(const ObjectFactory &factory, const ClusterPlan &plan, uint64_t seed)
    : m_factory(factory)
    , m_random(seed)
{
    m_nodes.reserve(plan.size());
    for (const NodePlan &node : plan) {
        const int gpus = node.shape->gpus;
        m_nodes.push_back({ &node, std::vector<bool>(size_t(gpus)), std::vector<bool>(size_t(gpus)),
            std::vector<uint32_t>(size_t(gpus)), std::vector<int>(size_t(gpus)) });
    }
}

// DRA nodes with GPUs of one model, in a seed-dependent order (a partial shuffle: the scenarios
// only look at the first few, and a full shuffle of the scale preset would be wasted work).
std::vector<NodeUse *> Builder::nodesWith(const GpuModel &model)
{
    std::vector<NodeUse *> nodes;
    for (NodeUse &node : m_nodes) {
        if (node.plan->shape->model == &model && node.plan->stack == GpuStack::Dra)
            nodes.push_back(&node);
    }
    for (size_t i = 0; i < std::min<size_t>(nodes.size(), 16); ++i)
        std::swap(nodes[i], nodes[i + m_random() % (nodes.size() - i)]);
    return nodes;
}

void Builder::addTemplate(const std::string &ns, const std::string &name, json devices)
{
    json object = m_factory.object("resource.k8s.io/v1", "ResourceClaimTemplate", name, ns);
    object["spec"] = { { "spec", { { "devices", std::move(devices) } } } };
    m_out.templates.push_back(std::move(object));
}

json Builder::claim(const std::string &ns, const std::string &name, json devices)
{
    json object = m_factory.object("resource.k8s.io/v1", "ResourceClaim", name, ns);
    object["spec"] = { { "devices", std::move(devices) } };
    object["status"] = json::object();
    return object;
}

void Builder::allocate(json &claim, const NodeUse &node, const std::vector<Pick> &picks)
{
    json results = json::array();
    for (const Pick &pick : picks)
        results.push_back({ { "request", pick.request }, { "driver", pick.driver },
            { "pool", node.plan->name }, { "device", pick.device } });
    claim["metadata"]["finalizers"] = json::array({ "resource.kubernetes.io/delete-protection" });
    claim["status"]["allocation"] = { { "devices", { { "results", std::move(results) } } },
        { "nodeSelector",
            { { "nodeSelectorTerms",
                json::array({ { { "matchFields",
                    json::array({ { { "key", "metadata.name" }, { "operator", "In" },
                        { "values", json::array({ node.plan->name }) } } }) } } }) } } },
        { "allocationTimestamp", kCreationTimestamp } };
}

void Builder::reserve(
    const std::string &ns, const std::string &claimName, const std::string &podName)
{
    for (json &claim : m_out.claims) {
        if (claim["metadata"]["namespace"] == ns && claim["metadata"]["name"] == claimName) {
            claim["status"]["reservedFor"].push_back({ { "resource", "pods" }, { "name", podName },
                { "uid", m_factory.uid("Pod", podName, ns) } });
            return;
        }
    }
}

void Builder::addPod(const std::string &ns, const std::string &name, const NodeUse *node,
    std::vector<PodClaim> claims, const json &templateDevices, const std::vector<Pick> &picks,
    std::string_view image)
{
    const bool stamped = std::any_of(
        claims.begin(), claims.end(), [](const PodClaim &c) { return !c.templateName.empty(); });
    if (stamped && picks.empty())
        node = nullptr; // not enough free devices on a small cluster: the pod waits, honestly
    json pod = m_factory.object("v1", "Pod", name, ns);
    pod["metadata"]["labels"] = { { "app.kubernetes.io/name", name.substr(0, name.rfind('-')) } };
    json containerClaims = json::array();
    json podClaims = json::array();
    json claimStatuses = json::array();
    for (PodClaim &podClaim : claims) {
        containerClaims.push_back({ { "name", podClaim.name } });
        if (podClaim.templateName.empty()) {
            podClaims.push_back(
                { { "name", podClaim.name }, { "resourceClaimName", podClaim.claimName } });
            continue;
        }
        // The resource claim controller stamps <pod>-<claim>-<suffix>, owned by the pod.
        const std::string prefix = name + '-' + podClaim.name + '-';
        podClaim.claimName = prefix + m_factory.nameSuffix(ns + '/' + prefix);
        podClaims.push_back(
            { { "name", podClaim.name }, { "resourceClaimTemplateName", podClaim.templateName } });
        claimStatuses.push_back(
            { { "name", podClaim.name }, { "resourceClaimName", podClaim.claimName } });
        json stamped = claim(ns, podClaim.claimName, templateDevices);
        stamped["metadata"]["generateName"] = prefix;
        stamped["metadata"]["annotations"]
            = { { "resource.kubernetes.io/pod-claim-name", podClaim.name } };
        stamped["metadata"]["ownerReferences"] = json::array({ { { "apiVersion", "v1" },
            { "kind", "Pod" }, { "name", name }, { "uid", m_factory.uid("Pod", name, ns) },
            { "controller", true }, { "blockOwnerDeletion", true } } });
        if (node)
            allocate(stamped, *node, picks);
        m_out.claims.push_back(std::move(stamped));
    }
    json container = { { "name", "main" }, { "image", image } };
    if (!containerClaims.empty())
        container["resources"] = { { "claims", std::move(containerClaims) } };
    pod["spec"] = { { "containers", json::array({ std::move(container) }) },
        { "restartPolicy", "Always" }, { "schedulerName", "default-scheduler" },
        { "tolerations",
            json::array({ { { "key", "nvidia.com/gpu" }, { "operator", "Exists" },
                { "effect", "NoSchedule" } } }) } };
    if (!podClaims.empty())
        pod["spec"]["resourceClaims"] = std::move(podClaims);
    json status;
    if (node) {
        pod["spec"]["nodeName"] = node->plan->name;
        for (const PodClaim &podClaim : claims)
            reserve(ns, podClaim.claimName, name);
        status = { { "phase", "Running" }, { "hostIP", nodeInternalIp(node->plan->ordinal) },
            { "podIP", podIp(node->plan->ordinal, m_podCount) },
            { "startTime", kCreationTimestamp },
            { "conditions",
                json::array({ { { "type", "PodScheduled" }, { "status", "True" } },
                    { { "type", "Ready" }, { "status", "True" } } }) } };
    } else {
        status = { { "phase", "Pending" },
            { "conditions",
                json::array({ { { "type", "PodScheduled" }, { "status", "False" },
                    { "reason", "Unschedulable" },
                    { "message",
                        "0/" + std::to_string(m_nodes.size())
                            + " nodes are available: cannot allocate all claims." } } }) } };
    }
    if (!claimStatuses.empty())
        status["resourceClaimStatuses"] = std::move(claimStatuses);
    pod["status"] = std::move(status);
    m_out.pods.push_back(std::move(pod));
    ++m_podCount;
}

std::vector<Pick> Builder::wholeGpus(NodeUse &node, const std::string &request, int count)
{
    std::vector<Pick> picks;
    for (size_t minor = 0; minor < node.gpu.size() && int(picks.size()) < count; ++minor) {
        if (node.gpu[minor] || node.memorySlices[minor] != 0)
            continue;
        node.gpu[minor] = true;
        picks.push_back({ request, kGpuDriver, "gpu-" + std::to_string(minor) });
    }
    return int(picks.size()) == count ? picks : std::vector<Pick> {};
}

std::optional<Pick> Builder::migDevice(
    NodeUse &node, const std::string &request, const MigProfile &profile)
{
    const GpuModel &model = *node.plan->shape->model;
    int fullSms = 0;
    for (const MigProfile &p : model.migProfiles)
        fullSms = std::max(fullSms, p.multiprocessors);
    for (size_t minor = 0; minor < node.gpu.size(); ++minor) {
        if (node.gpu[minor] || node.multiprocessors[minor] + profile.multiprocessors > fullSms)
            continue;
        for (const int start : profile.placementStarts) {
            const uint32_t mask = ((1u << profile.memorySliceCount) - 1u) << start;
            if ((node.memorySlices[minor] & mask) != 0
                || start + profile.memorySliceCount > model.memorySlices)
                continue;
            node.memorySlices[minor] |= mask;
            node.multiprocessors[minor] += profile.multiprocessors;
            return Pick { request, kGpuDriver, migDeviceName(int(minor), profile, start) };
        }
    }
    return std::nullopt;
}

// Production inference: one tensor-parallel-8 server holding a whole H100 node.
void Builder::inference()
{
    const std::vector<NodeUse *> nodes = nodesWith(h100Sxm());
    if (nodes.empty())
        return;
    const json devices = { { "requests",
        json::array({ request("gpus", "gpu.nvidia.com", 8, productIs(h100Sxm().productName)) }) } };
    addTemplate("inference", "tensor-parallel-8", devices);
    NodeUse &node = *nodes.front();
    addPod("inference", "llm-tp8-0", &node, { { "gpus", "tensor-parallel-8", {} } }, devices,
        wholeGpus(node, "gpus", 8), "vllm/vllm-openai:v0.9.1");
}

// Training: a gang of four pods, each a whole node with its eight RDMA NICs, and a fine-tune
// pod asking for one GPU and the NIC on the same PCIe root.
void Builder::training()
{
    std::vector<NodeUse *> free;
    for (NodeUse *node : nodesWith(h100Sxm())) {
        if (node->plan->shape->nicPerGpu && !node->gpu[0])
            free.push_back(node);
    }
    if (free.empty())
        return;
    const json gang = { { "requests",
        json::array({ request("gpus", "gpu.nvidia.com", 8),
            request("nics", kNicDeviceClass, 8, "device.attributes['dra.net'].rdma == true") }) } };
    addTemplate("training", "gpus-and-nics-8", gang);
    const size_t trainers = free.size() > 1 ? std::min<size_t>(4, free.size() - 1) : 0;
    for (size_t i = 0; i < trainers; ++i) {
        NodeUse &node = *free[i];
        std::vector<Pick> picks = wholeGpus(node, "gpus", 8);
        for (int minor = 0; minor < 8; ++minor) {
            node.nic[size_t(minor)] = true;
            picks.push_back({ "nics", kNicDriver, nicDeviceName(*node.plan->shape, minor) });
        }
        addPod("training", "trainer-" + std::to_string(i), &node,
            { { "devices", "gpus-and-nics-8", {} } }, gang, picks,
            "nvcr.io/nvidia/pytorch:25.04-py3");
    }
    const json pair = { { "requests",
                            json::array({ request("gpu", "gpu.nvidia.com", 1),
                                request("nic", kNicDeviceClass, 1) }) },
        { "constraints",
            json::array({ { { "requests", json::array({ "gpu", "nic" }) },
                { "matchAttribute", "resource.kubernetes.io/pcieRoot" } } }) } };
    addTemplate("training", "gpu-nic-same-root", pair);
    NodeUse &node = *free[trainers];
    int minor = 0;
    while (node.gpu[size_t(minor)])
        ++minor;
    std::vector<Pick> picks = wholeGpus(node, "gpu", 1); // takes `minor`, the first free GPU
    node.nic[size_t(minor)] = true;
    picks.push_back({ "nic", kNicDriver, nicDeviceName(*node.plan->shape, minor) });
    addPod("training", "finetune-0", &node, { { "devices", "gpu-nic-same-root", {} } }, pair, picks,
        "nvcr.io/nvidia/pytorch:25.04-py3");
}

// Smaller inference on L40S: single-GPU embedders, and one claim shared by two rerankers.
void Builder::l40s()
{
    const std::vector<NodeUse *> nodes = nodesWith(l40sPcie());
    if (nodes.empty())
        return;
    const json one = { { "requests",
        json::array({ request("gpu", "gpu.nvidia.com", 1, productIs(l40sPcie().productName)) }) } };
    addTemplate("inference", "single-l40s", one);
    for (int i = 0; i < 2; ++i) {
        NodeUse &node = *nodes[size_t(i) % nodes.size()];
        addPod("inference", "embedder-" + std::to_string(i), &node,
            { { "gpu", "single-l40s", {} } }, one, wholeGpus(node, "gpu", 1),
            "ghcr.io/huggingface/text-embeddings-inference:1.7");
    }
    NodeUse &node = *nodes.front();
    json shared = claim("inference", "shared-l40s", one);
    allocate(shared, node, wholeGpus(node, "gpu", 1));
    m_out.claims.push_back(std::move(shared));
    for (int i = 0; i < 2; ++i)
        addPod("inference", "reranker-" + std::to_string(i), &node,
            { { "gpu", {}, "shared-l40s" } }, one, {},
            "ghcr.io/huggingface/text-embeddings-inference:1.7");
}

// Batch: many small jobs on MIG slices, two evaluations on 3g.40gb, one job on a whole A100.
void Builder::mig()
{
    const std::vector<NodeUse *> nodes = nodesWith(a100Sxm80());
    if (nodes.empty())
        return;
    const auto profile = [](std::string_view name) -> const MigProfile & {
        for (const MigProfile &p : a100Sxm80().migProfiles) {
            if (p.name == name)
                return p;
        }
        return a100Sxm80().migProfiles.front();
    };
    const json small = { { "requests",
        json::array({ request("mig", "mig.nvidia.com", 1, profileIs("1g.10gb")) }) } };
    const json eval = { { "requests",
        json::array({ request("mig", "mig.nvidia.com", 1, profileIs("3g.40gb")) }) } };
    const json whole = { { "requests",
        json::array(
            { request("gpu", "gpu.nvidia.com", 1, productIs(a100Sxm80().productName)) }) } };
    addTemplate("batch", "mig-1g-10gb", small);
    addTemplate("batch", "mig-3g-40gb", eval);
    addTemplate("batch", "whole-a100", whole);
    NodeUse &node = *nodes.front();
    for (int i = 0; i < 5; ++i) {
        if (const auto pick = migDevice(node, "mig", profile("1g.10gb")))
            addPod("batch", "batch-job-" + std::to_string(i), &node,
                { { "mig", "mig-1g-10gb", {} } }, small, { *pick },
                "nvcr.io/nvidia/cuda:12.9.0-base-ubuntu24.04");
    }
    for (int i = 0; i < 2; ++i) {
        if (const auto pick = migDevice(node, "mig", profile("3g.40gb")))
            addPod("batch", "batch-eval-" + std::to_string(i), &node,
                { { "mig", "mig-3g-40gb", {} } }, eval, { *pick },
                "nvcr.io/nvidia/cuda:12.9.0-base-ubuntu24.04");
    }
    NodeUse &last = *nodes.back();
    addPod("batch", "batch-full-0", &last, { { "gpu", "whole-a100", {} } }, whole,
        wholeGpus(last, "gpu", 1), "nvcr.io/nvidia/cuda:12.9.0-base-ubuntu24.04");
}

// Nodes still on the device plugin run the model server Deployment `inference/llm-server`, one
// whole-node replica each: the baseline of the demo rollout (resources/rollouts/). The driver
// DaemonSets cover the nodes of their stack.
void Builder::devicePlugin()
{
    std::vector<NodeUse *> legacy;
    int draNodes = 0;
    for (NodeUse &node : m_nodes) {
        if (node.plan->stack == GpuStack::DevicePlugin)
            legacy.push_back(&node);
        else
            ++draNodes;
    }
    if (draNodes > 0)
        m_out.apps.push_back(driverDaemonSet(m_factory, "nvidia-dra-driver-gpu-kubelet-plugin",
            "nvcr.io/nvidia/k8s-dra-driver-gpu:v25.3.0", "sandbox.dra-console.io/gpu-stack", "dra",
            draNodes));
    if (legacy.empty())
        return;
    m_out.apps.push_back(driverDaemonSet(m_factory, "nvidia-device-plugin-daemonset",
        "nvcr.io/nvidia/k8s-device-plugin:v0.17.1", "sandbox.dra-console.io/gpu-stack",
        "device-plugin", int(legacy.size())));
    const ServingApp app { "inference", "llm-server", "vllm/vllm-openai:v0.8.5", int(legacy.size()),
        legacy.front()->plan->shape->gpus };
    const std::string replicaSet = servingReplicaSetName(m_factory, app);
    for (size_t i = 0; i < legacy.size(); ++i) {
        const std::string name
            = replicaSet + '-' + m_factory.nameSuffix(replicaSet + '/' + std::to_string(i));
        addPod(app.ns, name, legacy[i], {}, json(), {}, app.image);
        json &pod = m_out.pods.back();
        pod["metadata"]["labels"] = servingPodLabels(m_factory, app);
        pod["metadata"]["ownerReferences"] = json::array({ servingPodOwner(m_factory, app) });
        pod["spec"]["containers"][0] = servingContainer(app);
    }
    for (json object : { servingDeployment(m_factory, app), servingReplicaSet(m_factory, app),
             servingService(m_factory, app), servingRoute(m_factory, app) })
        m_out.apps.push_back(std::move(object));
    monitoring(*legacy.front());
}

// The Prometheus that measures the model server (the demo traffic source's requests), as the
// rollout's application gate queries it through the API server's service proxy.
void Builder::monitoring(const NodeUse &node)
{
    const ServingApp app { kMonitoringNamespace, "prometheus",
        "quay.io/prometheus/prometheus:v3.2.1", 1, 0, 9090, 9090 };
    const std::string replicaSet = servingReplicaSetName(m_factory, app);
    addPod(app.ns, replicaSet + '-' + m_factory.nameSuffix(replicaSet + "/0"), &node, {}, json(),
        {}, app.image);
    json &pod = m_out.pods.back();
    pod["metadata"]["labels"] = servingPodLabels(m_factory, app);
    pod["metadata"]["ownerReferences"] = json::array({ servingPodOwner(m_factory, app) });
    pod["spec"]["containers"][0] = servingContainer(app);
    for (json object : { servingDeployment(m_factory, app), servingReplicaSet(m_factory, app),
             servingService(m_factory, app) })
        m_out.apps.push_back(std::move(object));
}

// The negative control of every rollout: a claim nothing can satisfy stays Pending.
void Builder::negativeControl()
{
    const json devices = { { "requests",
        json::array({ request("gpu", "gpu.nvidia.com", 1, productIs("NVIDIA B200")) }) } };
    m_out.claims.push_back(claim("batch", "needs-b200", devices));
    addPod("batch", "b200-probe", nullptr, { { "gpu", {}, "needs-b200" } }, devices, {},
        "nvcr.io/nvidia/cuda:12.9.0-base-ubuntu24.04");
}

Workloads Builder::run()
{
    inference();
    training();
    l40s();
    mig();
    devicePlugin();
    negativeControl();
    return std::move(m_out);
}

} // namespace

Workloads buildWorkloads(const ObjectFactory &factory, const ClusterPlan &plan, uint64_t seed)
{
    return Builder(factory, plan, seed).run();
}

} // namespace dra::sandbox
