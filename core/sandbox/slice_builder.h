// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>

#include <nlohmann/json.hpp>

#include "core/sandbox/cluster_plan.h"
#include "core/sandbox/object_factory.h"

namespace dra::sandbox {

// Limits of resource.k8s.io/v1 the generated slices respect: devices per slice when any device
// consumes counters, and counter sets per slice.
inline constexpr int kMaxDevicesWithCounters = 64;
inline constexpr int kMaxCounterSetsPerSlice = 8;

// The memory-slice counter name the driver uses for slice `index`.
std::string memorySliceCounter(int index);
// The driver's shared counter set of physical GPU `minor`.
std::string counterSetName(int minor);

// Writes the ResourceSlices a DRA node publishes: the GPU driver's pool (one slice, or for MIG
// nodes a counter slice plus device slices of at most 64 devices) and, on nodes with NICs, the
// NIC driver's pool. Device-plugin nodes publish nothing. One builder per generation: it caches
// the devices that are identical on every node of a shape.
class SliceBuilder final
{
public:
    explicit SliceBuilder(const ObjectFactory &factory);

    void appendNodeSlices(nlohmann::json &items, const NodePlan &plan);

private:
    void appendGpuPool(nlohmann::json &items, const NodePlan &plan);
    void appendNicPool(nlohmann::json &items, const NodePlan &plan);

    const ObjectFactory &m_factory;
    std::map<const NodeShape *, nlohmann::json> m_gpuDevices; // without uuids
    std::map<const NodeShape *, nlohmann::json> m_nicDevices;
};

// The NIC device name (its interface name) for GPU `minor`'s neighbour.
std::string nicDeviceName(const NodeShape &shape, int minor);

} // namespace dra::sandbox
