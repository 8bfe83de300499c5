// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/object_factory.h"

#include <array>

namespace dra::sandbox {

using nlohmann::json;

namespace {

uint64_t splitMix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

void appendHex(std::string &out, uint64_t value, int digits)
{
    static constexpr char kHex[] = "0123456789abcdef";
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
        out += kHex[(value >> shift) & 0xf];
}

json condition(std::string_view type, std::string_view status, std::string_view reason,
    std::string_view message)
{
    return { { "type", type }, { "status", status }, { "lastHeartbeatTime", kCreationTimestamp },
        { "lastTransitionTime", kCreationTimestamp }, { "reason", reason },
        { "message", message } };
}

json deviceClass(const ObjectFactory &factory, const std::string &name, const std::string &cel)
{
    json object = factory.object("resource.k8s.io/v1", "DeviceClass", name);
    object["spec"]["selectors"] = json::array({ { { "cel", { { "expression", cel } } } } });
    return object;
}

} // namespace

ObjectFactory::ObjectFactory(uint64_t seed)
    : m_seed(splitMix(seed))
{
}

uint64_t ObjectFactory::hash(std::string_view key) const
{
    uint64_t h = 0xcbf29ce484222325ULL; // FNV-1a, then mixed with the seed
    for (const char c : key) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return splitMix(h ^ m_seed);
}

std::string ObjectFactory::uuid(std::string_view key) const
{
    const uint64_t high = hash(key);
    const uint64_t low = splitMix(high ^ 0x5bd1e9955bd1e995ULL);
    std::string out;
    out.reserve(36);
    appendHex(out, high >> 32, 8);
    out += '-';
    appendHex(out, (high >> 16) & 0xffff, 4);
    out += '-';
    appendHex(out, 0x4000 | (high & 0x0fff), 4);
    out += '-';
    appendHex(out, 0x8000 | ((low >> 48) & 0x3fff), 4);
    out += '-';
    appendHex(out, low & 0xffffffffffffULL, 12);
    return out;
}

std::string ObjectFactory::nameSuffix(std::string_view key, int length) const
{
    static constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
    uint64_t bits = hash(key);
    std::string out;
    for (int i = 0; i < length; ++i) {
        out += kAlphabet[bits % kAlphabet.size()];
        bits /= kAlphabet.size();
    }
    return out;
}

std::string ObjectFactory::gpuUuid(std::string_view node, int minor) const
{
    std::string key = "gpu/";
    key += node;
    key += '/';
    key += std::to_string(minor);
    return "GPU-" + uuid(key);
}

std::string ObjectFactory::uid(
    std::string_view kind, const std::string &name, const std::string &ns) const
{
    std::string key(kind);
    key += '/';
    key += ns;
    key += '/';
    key += name;
    return uuid(key);
}

json ObjectFactory::object(std::string_view apiVersion, std::string_view kind,
    const std::string &name, const std::string &ns) const
{
    json metadata = { { "name", name }, { "uid", uid(kind, name, ns) }, { "resourceVersion", "1" },
        { "generation", 1 }, { "creationTimestamp", kCreationTimestamp } };
    if (!ns.empty())
        metadata["namespace"] = ns;
    return { { "apiVersion", apiVersion }, { "kind", kind }, { "metadata", std::move(metadata) } };
}

json ObjectFactory::namespaceObject(const std::string &name) const
{
    json object = this->object("v1", "Namespace", name);
    object["metadata"]["labels"] = { { "kubernetes.io/metadata.name", name } };
    object["spec"] = { { "finalizers", json::array({ "kubernetes" }) } };
    object["status"] = { { "phase", "Active" } };
    return object;
}

json ObjectFactory::nodePrototype(const NodeShape &shape, GpuStack stack) const
{
    const bool devicePlugin = stack == GpuStack::DevicePlugin;
    json object = this->object("v1", "Node", std::string());
    object["metadata"]["labels"] = {
        { "kubernetes.io/os", "linux" },
        { "kubernetes.io/arch", "amd64" },
        { "node.kubernetes.io/instance-type", shape.instanceType },
        { "topology.kubernetes.io/region", "us-east-1" },
        { "nvidia.com/gpu.present", "true" },
        { "nvidia.com/gpu.product", shape.model->gfdProduct },
        { "nvidia.com/gpu.count", std::to_string(shape.gpus) },
        { "nvidia.com/gpu.memory", std::to_string(shape.model->memoryMiB) },
        { "nvidia.com/gpu.deploy.device-plugin", devicePlugin ? "true" : "false" },
        // Says plainly which stack owns the GPUs: never both on one node during a migration.
        { "sandbox.dra-console.io/gpu-stack", devicePlugin ? "device-plugin" : "dra" },
    };
    object["spec"]["taints"] = json::array(
        { { { "key", "nvidia.com/gpu" }, { "value", "present" }, { "effect", "NoSchedule" } } });
    json capacity = { { "cpu", std::to_string(shape.cpus) }, { "memory", shape.memory },
        { "pods", "110" }, { "ephemeral-storage", "7499362304Ki" }, { "hugepages-1Gi", "0" },
        { "hugepages-2Mi", "0" } };
    json allocatable = capacity;
    allocatable["cpu"] = std::to_string(shape.cpus * 1000 - 500) + "m";
    allocatable["ephemeral-storage"] = "6911380232753";
    if (devicePlugin) {
        capacity["nvidia.com/gpu"] = std::to_string(shape.gpus);
        allocatable["nvidia.com/gpu"] = std::to_string(shape.gpus);
    }
    json status;
    status["capacity"] = std::move(capacity);
    status["allocatable"] = std::move(allocatable);
    status["conditions"]
        = json::array({ condition("MemoryPressure", "False", "KubeletHasSufficientMemory",
                            "kubelet has sufficient memory available"),
            condition("DiskPressure", "False", "KubeletHasNoDiskPressure",
                "kubelet has no disk pressure"),
            condition("PIDPressure", "False", "KubeletHasSufficientPID",
                "kubelet has sufficient PID available"),
            condition("Ready", "True", "KubeletReady", "kubelet is posting ready status") });
    status["daemonEndpoints"] = { { "kubeletEndpoint", { { "Port", 10250 } } } };
    status["nodeInfo"] = { { "kernelVersion", "6.8.0-1024-nvidia" },
        { "osImage", "Ubuntu 24.04.2 LTS" }, { "containerRuntimeVersion", "containerd://2.0.5" },
        { "kubeletVersion", m_kubeletVersion }, { "kubeProxyVersion", m_kubeletVersion },
        { "operatingSystem", "linux" }, { "architecture", "amd64" } };
    object["status"] = std::move(status);
    return object;
}

json ObjectFactory::node(const NodePlan &plan)
{
    const auto key = std::make_pair(plan.shape, plan.stack);
    auto cached = m_nodePrototypes.find(key);
    if (cached == m_nodePrototypes.end())
        cached = m_nodePrototypes.emplace(key, nodePrototype(*plan.shape, plan.stack)).first;
    json object = cached->second;
    static constexpr std::array<std::string_view, 3> kZones
        = { "us-east-1a", "us-east-1b", "us-east-1c" };
    json &metadata = object["metadata"];
    metadata["name"] = plan.name;
    metadata["uid"] = uid("Node", plan.name);
    metadata["labels"]["kubernetes.io/hostname"] = plan.name;
    metadata["labels"]["topology.kubernetes.io/zone"]
        = kZones[size_t(plan.ordinal) % kZones.size()];
    object["spec"]["podCIDR"] = podSubnetPrefix(plan.ordinal) + ".0/24";
    json &status = object["status"];
    status["addresses"]
        = json::array({ { { "type", "InternalIP" }, { "address", nodeInternalIp(plan.ordinal) } },
            { { "type", "Hostname" }, { "address", plan.name } } });
    std::string machineId = uuid("machine/" + plan.name);
    std::erase(machineId, '-');
    json &nodeInfo = status["nodeInfo"];
    nodeInfo["machineID"] = std::move(machineId);
    nodeInfo["systemUUID"] = uuid("system/" + plan.name);
    nodeInfo["bootID"] = uuid("boot/" + plan.name);
    return object;
}

json deviceClasses(const ObjectFactory &factory, bool withNics)
{
    const std::string gpu
        = "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == ";
    const std::string domain = "device.driver == 'compute-domain.nvidia.com' && "
                               "device.attributes['compute-domain.nvidia.com']";
    json classes = json::array();
    classes.push_back(
        deviceClass(factory, "compute-domain-daemon.nvidia.com", domain + ".type == 'daemon'"));
    classes.push_back(deviceClass(factory, "compute-domain-default-channel.nvidia.com",
        domain
            + ".type == 'channel' && "
              "device.attributes['compute-domain.nvidia.com'].id == 0"));
    json gpuClass = deviceClass(factory, "gpu.nvidia.com", gpu + "'gpu'");
    // The chart adds this on resource.k8s.io/v1, so pods asking for nvidia.com/gpu get DRA GPUs.
    gpuClass["spec"]["extendedResourceName"] = "nvidia.com/gpu";
    classes.push_back(std::move(gpuClass));
    classes.push_back(deviceClass(factory, "mig.nvidia.com", gpu + "'mig'"));
    classes.push_back(deviceClass(factory, "vfio.gpu.nvidia.com", gpu + "'vfio'"));
    if (withNics)
        classes.push_back(
            deviceClass(factory, std::string(kNicDeviceClass), "device.driver == 'dra.net'"));
    return classes;
}

} // namespace dra::sandbox
