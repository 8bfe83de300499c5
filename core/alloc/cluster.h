// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/alloc/node_selector.h"
#include "core/common/result.h"
#include "core/model/object.h"

namespace dra::alloc {

// The inventory the allocator reads, indexed once: DeviceClasses, ResourceSlices (grouped into
// pools), Nodes, allocated ResourceClaims, DeviceTaintRules, and the Pods, templates and Events
// the Pending diagnosis reads. Immutable after build(); share it between threads freely.
class Cluster final
{
public:
    struct Device
    {
        const model::Device *spec = nullptr;
        int slice = -1; // index into slices()
        int id = -1; // driver/pool/device identity shared by every copy of the device
    };
    struct Slice
    {
        std::string name;
        const model::ResourceSlice *spec = nullptr;
        int pool = -1; // index into pools()
        int firstDevice = 0; // index into devices()
        int deviceCount = 0;
    };
    struct Pool
    {
        std::string driver, name;
        std::vector<int> slices; // every slice of the pool, all generations, in input order
    };
    struct Class
    {
        std::string name;
        const model::DeviceClass *spec = nullptr;
    };

    // Indexes `objects` (any mix of kinds; kinds the allocator does not use are kept for the
    // diagnosis). Nodes are the Node objects plus node names that slices mention without a Node.
    [[nodiscard]] static Result<Cluster> build(std::vector<model::Object> objects);
    // The same over shared objects (a snapshot's), which are kept, not copied.
    [[nodiscard]] static Result<Cluster> build(
        std::vector<std::shared_ptr<const model::Object>> objects);

    Cluster(Cluster &&) noexcept = default;
    Cluster &operator=(Cluster &&) noexcept = default;
    Cluster(const Cluster &) = delete;
    Cluster &operator=(const Cluster &) = delete;
    ~Cluster();

    // Sorted by name.
    const std::vector<NodeInfo> &nodes() const { return m_nodes; }
    int findNode(std::string_view name) const;
    const Class *findClass(std::string_view name) const;
    const std::vector<Class> &classes() const { return m_classes; }

    const std::vector<Device> &devices() const { return m_devices; }
    const std::vector<Slice> &slices() const { return m_slices; }
    const std::vector<Pool> &pools() const { return m_pools; }
    const Slice &sliceOf(int device) const
    {
        return m_slices[size_t(m_devices[size_t(device)].slice)];
    }
    const std::string &driverOf(int device) const { return sliceOf(device).spec->driver; }
    const std::string &poolNameOf(int device) const { return sliceOf(device).spec->pool.name; }

    // The identity of a (driver, pool, device) name, or -1 when no slice has it.
    int deviceId(std::string_view driver, std::string_view pool, std::string_view device) const;
    int deviceIdCount() const { return int(m_idCount); }

    // Slices that name `node` in spec.nodeName.
    const std::vector<int> &slicesOnNode(std::string_view node) const;
    // Slices selected some other way (nodeSelector, allNodes, per-device selection or nothing
    // known), and slices publishing shared counters: checked against every node.
    const std::vector<int> &floatingSlices() const { return m_floating; }

    // Objects of one kind, in input order.
    std::vector<const model::Object *> objectsOf(model::Kind kind) const;
    const model::Object *findObject(
        model::Kind kind, std::string_view ns, std::string_view name) const;
    const std::vector<const model::Object *> &taintRules() const { return m_taintRules; }
    // ResourceClaims with status.allocation.
    const std::vector<const model::Object *> &allocatedClaims() const { return m_allocatedClaims; }

    // The Kubernetes version the inventory came from ("v1.34.2"), empty when unknown.
    const std::string &kubernetesVersion() const { return m_version; }
    void setKubernetesVersion(std::string version) { m_version = std::move(version); }

private:
    Cluster() = default;

    std::vector<std::shared_ptr<const model::Object>> m_objects;
    std::vector<NodeInfo> m_nodes;
    std::unordered_map<std::string, int> m_nodeIndex;
    std::vector<Class> m_classes;
    std::unordered_map<std::string, int> m_classIndex;
    std::vector<Device> m_devices;
    std::vector<Slice> m_slices;
    std::vector<Pool> m_pools;
    std::unordered_map<std::string, int> m_ids;
    size_t m_idCount = 0;
    std::unordered_map<std::string, std::vector<int>> m_slicesByNode;
    std::vector<int> m_floating;
    std::vector<const model::Object *> m_taintRules;
    std::vector<const model::Object *> m_allocatedClaims;
    std::string m_version;
};

// "ns/name", or "name" for a cluster-scoped object, as Kubernetes' klog.KObj prints it.
std::string objectRef(std::string_view ns, std::string_view name);

} // namespace dra::alloc
