// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/slice_builder.h"

#include <algorithm>
#include <cctype>

namespace dra::sandbox {

using nlohmann::json;

namespace {

json stringAttr(std::string_view value)
{
    return { { "string", value } };
}
json versionAttr(std::string_view value)
{
    return { { "version", value } };
}
json intAttr(int64_t value)
{
    return { { "int", value } };
}
json quantity(const std::string &value)
{
    return { { "value", value } };
}

// Engine counts of a full MIG-capable GPU: the maxima over its profiles, as the driver computes
// them while walking the profiles, with memory the GPU's total.
struct Engines
{
    int64_t multiprocessors = 0, copyEngines = 0, decoders = 0, encoders = 0, jpegEngines = 0,
            ofaEngines = 0, memoryMiB = 0;
};

Engines fullGpuEngines(const GpuModel &model)
{
    Engines e;
    for (const MigProfile &p : model.migProfiles) {
        e.multiprocessors = std::max<int64_t>(e.multiprocessors, p.multiprocessors);
        e.copyEngines = std::max<int64_t>(e.copyEngines, p.copyEngines);
        e.decoders = std::max<int64_t>(e.decoders, p.decoders);
        e.encoders = std::max<int64_t>(e.encoders, p.encoders);
        e.jpegEngines = std::max<int64_t>(e.jpegEngines, p.jpegEngines);
        e.ofaEngines = std::max<int64_t>(e.ofaEngines, p.ofaEngines);
    }
    e.memoryMiB = model.memoryMiB;
    return e;
}

json engineCapacity(const Engines &e)
{
    return { { "multiprocessors", quantity(std::to_string(e.multiprocessors)) },
        { "copyEngines", quantity(std::to_string(e.copyEngines)) },
        { "decoders", quantity(std::to_string(e.decoders)) },
        { "encoders", quantity(std::to_string(e.encoders)) },
        { "jpegEngines", quantity(std::to_string(e.jpegEngines)) },
        { "ofaEngines", quantity(std::to_string(e.ofaEngines)) },
        { "memory", quantity(mebibytes(e.memoryMiB)) } };
}

// A capacity name as a counter name: camelCase turned into a DNS label ("copyEngines" ->
// "copy-engines"), as the driver does.
std::string counterName(const std::string &capacity)
{
    std::string out;
    for (const char c : capacity) {
        if (std::isupper(static_cast<unsigned char>(c))) {
            out += '-';
            out += char(std::tolower(static_cast<unsigned char>(c)));
        } else {
            out += c;
        }
    }
    return out;
}

// The counters a GPU's counter set holds (or a MIG device consumes): its capacities under their
// counter names, plus one counter per memory slice.
json engineCounters(const Engines &e, int firstSlice, int sliceCount)
{
    const json capacity = engineCapacity(e);
    json counters = json::object();
    for (const auto &[name, value] : capacity.items())
        counters[counterName(name)] = value;
    for (int i = firstSlice; i < firstSlice + sliceCount; ++i)
        counters[memorySliceCounter(i)] = quantity("1");
    return counters;
}

// Attributes a MIG device inherits from its parent, and a full GPU has itself.
json commonGpuAttributes(const GpuModel &model, const PciePlacement &pcie)
{
    return { { "productName", stringAttr(model.productName) }, { "brand", stringAttr("Nvidia") },
        { "architecture", stringAttr(model.architecture) },
        { "cudaComputeCapability", versionAttr(model.cudaComputeCapability) },
        { "driverVersion", versionAttr(kDriverVersion) },
        { "cudaDriverVersion", versionAttr(kCudaDriverVersion) },
        { "resource.kubernetes.io/pciBusID", stringAttr(pcie.gpuBusId) },
        { "resource.kubernetes.io/pcieRoot", stringAttr(pcie.pcieRoot) },
        { "resource.kubernetes.io/numaNode", intAttr(pcie.numaNode) } };
}

json sliceObject(const ObjectFactory &factory, const NodePlan &plan, std::string_view driver,
    int index, int sliceCount)
{
    const std::string prefix = plan.name + '-' + std::string(driver) + '-';
    const std::string name = prefix + factory.nameSuffix(prefix + std::to_string(index));
    json slice = factory.object("resource.k8s.io/v1", "ResourceSlice", name);
    json &metadata = slice["metadata"];
    metadata["generateName"] = prefix;
    metadata["ownerReferences"]
        = json::array({ { { "apiVersion", "v1" }, { "kind", "Node" }, { "name", plan.name },
            { "uid", factory.uid("Node", plan.name) }, { "controller", true } } });
    slice["spec"] = {
        { "driver", driver }, { "nodeName", plan.name },
        { "pool",
            { { "name", plan.name }, { "generation", 1 }, { "resourceSliceCount", sliceCount } } }
    };
    return slice;
}

json gpuDevice(const GpuModel &model, const PciePlacement &pcie, const std::string &uuid, int minor)
{
    json attributes = commonGpuAttributes(model, pcie);
    attributes["type"] = stringAttr("gpu");
    attributes["uuid"] = stringAttr(uuid);
    return { { "name", "gpu-" + std::to_string(minor) }, { "attributes", std::move(attributes) },
        { "capacity", { { "memory", quantity(mebibytes(model.memoryMiB)) } } } };
}

// The full GPU and every placement of every MIG profile, as dynamic MIG advertises them.
void appendPartitionableGpu(json &devices, const GpuModel &model, const PciePlacement &pcie,
    const std::string &uuid, int minor)
{
    const Engines full = fullGpuEngines(model);
    const std::string counterSet = counterSetName(minor);
    json gpu = gpuDevice(model, pcie, uuid, minor);
    gpu["capacity"] = engineCapacity(full);
    gpu["consumesCounters"] = json::array({ { { "counterSet", counterSet },
        { "counters", engineCounters(full, 0, model.memorySlices) } } });
    devices.push_back(std::move(gpu));

    json inherited = commonGpuAttributes(model, pcie);
    inherited["type"] = stringAttr("mig");
    inherited["parentUUID"] = stringAttr(uuid);
    for (const MigProfile &profile : model.migProfiles) {
        const Engines engines { profile.multiprocessors, profile.copyEngines, profile.decoders,
            profile.encoders, profile.jpegEngines, profile.ofaEngines, profile.memoryMiB };
        json attributes = inherited;
        attributes["profile"] = stringAttr(profile.name);
        const json capacity = engineCapacity(engines);
        for (const int start : profile.placementStarts) {
            // Abstract partitions have no MIG UUID until the driver creates them.
            devices.push_back({ { "name", migDeviceName(minor, profile, start) },
                { "attributes", attributes }, { "capacity", capacity },
                { "consumesCounters",
                    json::array({ { { "counterSet", counterSet },
                        { "counters",
                            engineCounters(engines, start, profile.memorySliceCount) } } }) } });
        }
    }
}

} // namespace

SliceBuilder::SliceBuilder(const ObjectFactory &factory)
    : m_factory(factory)
{
}

void SliceBuilder::appendGpuPool(json &items, const NodePlan &plan)
{
    const ObjectFactory &factory = m_factory;
    const NodeShape &shape = *plan.shape;
    const GpuModel &model = *shape.model;
    if (!shape.mig) {
        auto cached = m_gpuDevices.find(&shape);
        if (cached == m_gpuDevices.end()) {
            json devices = json::array();
            for (int minor = 0; minor < shape.gpus; ++minor)
                devices.push_back(
                    gpuDevice(model, pciePlacement(shape, minor), std::string(), minor));
            cached = m_gpuDevices.emplace(&shape, std::move(devices)).first;
        }
        json slice = sliceObject(factory, plan, kGpuDriver, 0, 1);
        json devices = cached->second;
        for (int minor = 0; minor < shape.gpus; ++minor)
            devices[size_t(minor)]["attributes"]["uuid"]["string"]
                = factory.gpuUuid(plan.name, minor);
        slice["spec"]["devices"] = std::move(devices);
        items.push_back(std::move(slice));
        return;
    }
    // Shared counters and devices may not share a slice, and a slice whose devices consume
    // counters holds at most 64 of them: counter slices first, then GPUs packed whole.
    std::vector<json> perGpu;
    json counterSets = json::array();
    const Engines full = fullGpuEngines(model);
    for (int minor = 0; minor < shape.gpus; ++minor) {
        json devices = json::array();
        appendPartitionableGpu(
            devices, model, pciePlacement(shape, minor), factory.gpuUuid(plan.name, minor), minor);
        perGpu.push_back(std::move(devices));
        counterSets.push_back({ { "name", counterSetName(minor) },
            { "counters", engineCounters(full, 0, model.memorySlices) } });
    }
    std::vector<json> deviceSlices;
    for (json &gpuDevices : perGpu) {
        if (deviceSlices.empty()
            || deviceSlices.back().size() + gpuDevices.size() > size_t(kMaxDevicesWithCounters))
            deviceSlices.push_back(json::array());
        for (json &device : gpuDevices)
            deviceSlices.back().push_back(std::move(device));
    }
    const int counterSlices = (shape.gpus + kMaxCounterSetsPerSlice - 1) / kMaxCounterSetsPerSlice;
    const int sliceCount = counterSlices + int(deviceSlices.size());
    for (int i = 0; i < counterSlices; ++i) {
        json slice = sliceObject(factory, plan, kGpuDriver, i, sliceCount);
        json sets = json::array();
        for (int minor = i * kMaxCounterSetsPerSlice;
             minor < std::min(shape.gpus, (i + 1) * kMaxCounterSetsPerSlice); ++minor)
            sets.push_back(std::move(counterSets[size_t(minor)]));
        slice["spec"]["sharedCounters"] = std::move(sets);
        items.push_back(std::move(slice));
    }
    for (size_t i = 0; i < deviceSlices.size(); ++i) {
        json slice = sliceObject(factory, plan, kGpuDriver, counterSlices + int(i), sliceCount);
        slice["spec"]["devices"] = std::move(deviceSlices[i]);
        items.push_back(std::move(slice));
    }
}

void SliceBuilder::appendNicPool(json &items, const NodePlan &plan)
{
    const NodeShape &shape = *plan.shape;
    json slice = sliceObject(m_factory, plan, kNicDriver, 0, 1);
    auto cached = m_nicDevices.find(&shape);
    if (cached != m_nicDevices.end()) {
        slice["spec"]["devices"] = cached->second;
        items.push_back(std::move(slice));
        return;
    }
    json devices = json::array();
    for (int minor = 0; minor < shape.gpus; ++minor) {
        const PciePlacement pcie = pciePlacement(shape, minor);
        const std::string name = nicDeviceName(shape, minor);
        devices.push_back({ { "name", name },
            { "attributes",
                { { "ifName", stringAttr(name) }, { "rdma", { { "bool", true } } },
                    { "pciVendor", stringAttr("Mellanox Technologies") },
                    { "pciDevice", stringAttr("MT2910 Family [ConnectX-7]") },
                    { "numaNode", intAttr(pcie.numaNode) },
                    { "resource.kubernetes.io/pcieRoot", stringAttr(pcie.pcieRoot) },
                    { "resource.kubernetes.io/pciBusID", stringAttr(pcie.nicBusId) } } } });
    }
    m_nicDevices.emplace(&shape, devices);
    slice["spec"]["devices"] = std::move(devices);
    items.push_back(std::move(slice));
}

std::string memorySliceCounter(int index)
{
    return "memory-slice-" + std::to_string(index);
}

std::string counterSetName(int minor)
{
    return "gpu-" + std::to_string(minor) + "-counter-set";
}

std::string nicDeviceName(const NodeShape &shape, int minor)
{
    // InfiniBand netdevs are named after their PCI bus: ibp<bus>s0.
    return "ibp" + std::to_string(pciePlacement(shape, minor).nicBus) + "s0";
}

void SliceBuilder::appendNodeSlices(json &items, const NodePlan &plan)
{
    if (plan.stack != GpuStack::Dra)
        return;
    appendGpuPool(items, plan);
    if (plan.shape->nicPerGpu)
        appendNicPool(items, plan);
}

} // namespace dra::sandbox
