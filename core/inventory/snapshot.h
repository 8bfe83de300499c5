// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The inventory of one cluster at one cache revision: every device with its attributes, the
// pools they form, who holds what, and the cluster objects around them. Built from the cache
// (snapshot_builder.h) and replaced, never changed: a new revision is a new Snapshot that shares
// every unchanged part with the previous one. Hold it as std::shared_ptr<const Snapshot> and read
// it from any thread without locks; the simulator, CEL sweeps and server requests do.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/object_key.h"
#include "core/common/result.h"
#include "core/inventory/device.h"
#include "core/inventory/device_health_report.h"
#include "core/model/object.h"

namespace dra::cel {
class DeviceTable;
}

namespace dra::inventory {

namespace detail {
struct DeviceLayer;
struct HoldLayer;
struct ObjectLayer;
class SnapshotAssembler;
} // namespace detail

// A pool of ResourceSlices, the unit Kubernetes' allocator takes whole or not at all. Only the
// slices of the highest generation count; older ones are listed as stale.
struct Pool
{
    std::string driver, name;
    std::string node; // the node when all current slices are local to one
    int64_t generation = 0; // the highest generation published
    int64_t resourceSliceCount = 0; // slices the pool declares at that generation
    std::vector<std::string> slices; // current slices, by name
    std::vector<std::string> staleSlices; // slices of older generations, ignored
    std::vector<int64_t> declaredCounts; // the differing resourceSliceCount values, if any
    std::vector<std::string> duplicateDevices; // device names published more than once
    std::vector<std::string> duplicateCounterSets; // counter set names defined more than once
    std::vector<model::CounterSet>
        sharedCounters; // of all current slices, counter names as published
    size_t deviceCount = 0;

    // Every slice of the current generation is present and they agree on the count.
    bool complete() const;
    // No duplicate device or counter set names: Kubernetes refuses to allocate from a pool
    // that has them.
    bool valid() const { return duplicateDevices.empty() && duplicateCounterSets.empty(); }
};

// A ResourceSlice as the inventory saw it.
struct SliceInfo
{
    std::string name, driver, pool;
    std::string node; // nodeName; empty for network-attached slices
    int64_t generation = 0; // the pool generation the slice belongs to
    int64_t resourceSliceCount = 0; // as the slice declares it
    bool stale = false; // an older generation than the pool's current one
    size_t devices = 0;
    int64_t rev = 0; // the cache revision that last wrote it
};

// One allocation of a device to a claim.
struct DeviceHold
{
    common::ObjectKey claim; // the ResourceClaim
    std::string request; // "gpu", or "gpu/h100" for a firstAvailable subrequest
    bool adminAccess = false; // admin access does not make a device allocated
    std::string shareID; // a share of a device that allows multiple allocations
    std::vector<std::pair<std::string, model::Quantity>> consumedCapacity; // qualified names
    std::vector<std::string> pods; // pods (in the claim's namespace) the claim is reserved for
};

// A counter of a shared counter set: what the pool publishes and what allocated devices use.
struct CounterUsage
{
    std::string name;
    model::Quantity total, consumed;
};

struct CounterSetUsage
{
    std::string name;
    std::vector<CounterUsage> counters;

    const CounterUsage *counter(std::string_view name) const;
};

// Why a device can or cannot be given to a new claim right now.
enum class DeviceState {
    Free, // not allocated, its counters fit, no NoSchedule/NoExecute taint
    Allocated, // held by a claim (admin access aside); shareable devices stay Free
    Blocked, // not allocated, but allocated siblings use the counters it needs
    Tainted, // not allocated, but tainted NoSchedule or NoExecute
};

// "free", "allocated", "blocked", "tainted".
std::string_view deviceStateName(DeviceState state);

// The devices a DeviceClass selects (all of its selectors), with the selector problems found.
struct ClassMatch
{
    bool classExists = false;
    std::vector<const Device *> devices; // in Snapshot::devices() order
    std::vector<std::string> errors; // compile errors, and the first evaluation errors
};

// What a snapshot is made of, for messages and `dractl bench snapshot`.
struct SnapshotStats
{
    size_t slices = 0, devices = 0, pools = 0, objects = 0;
};

class Snapshot final
{
public:
    ~Snapshot();
    Snapshot(const Snapshot &) = delete;
    Snapshot &operator=(const Snapshot &) = delete;

    // The cluster and the cache revision this snapshot reflects.
    const std::string &cluster() const { return m_cluster; }
    int64_t rev() const { return m_rev; }
    // The Kubernetes version the cluster reported ("v1.34.2"), as the cache recorded it; empty
    // when unknown (an inventory file, a cache filled before the version was recorded).
    const std::string &kubernetesVersion() const { return m_kubernetesVersion; }
    SnapshotStats stats() const;

    // --- Devices: those of the current generation of every pool, in slice-name order and the
    // order each slice publishes them. Pointers stay valid as long as the snapshot.
    const std::vector<const Device *> &devices() const;
    const Device *device(const DeviceKey &key) const;
    std::span<const Device *const> devicesOnNode(
        std::string_view node) const; // "" network-attached
    std::span<const Device *const> devicesOfDriver(std::string_view driver) const;
    std::span<const Device *const> devicesInPool(
        std::string_view driver, std::string_view pool) const;
    // Nodes that have node-local devices, sorted.
    std::vector<std::string> deviceNodes() const;
    // devices() by column, for sweeping selectors (index i is devices()[i]). Built on first use
    // and shared by every snapshot with the same devices. Thread-safe.
    const cel::DeviceTable &deviceTable() const;

    // --- Pools, sorted by driver then name.
    const std::vector<Pool> &pools() const;
    const Pool *pool(std::string_view driver, std::string_view name) const;
    // Every stored ResourceSlice (stale generations too), sorted by name.
    std::span<const SliceInfo> slices() const;
    const SliceInfo *slice(std::string_view name) const;
    // The whole ResourceSlice object, decoded on demand from the JSON the cache holds.
    [[nodiscard]] Result<model::Object> sliceObject(std::string_view name) const;

    // --- Allocation: the claims whose allocation results name a device.
    std::span<const DeviceHold> holds(const DeviceKey &key) const;
    // Shared counter sets of a pool with what allocated devices consume; empty without any.
    std::span<const CounterSetUsage> counterUsage(
        std::string_view driver, std::string_view pool) const;
    DeviceState state(const Device &device) const;
    // The device's taints plus those DeviceTaintRules add.
    std::vector<model::DeviceTaint> effectiveTaints(const Device &device) const;

    // --- DeviceClass matching, evaluated with CEL on first use and kept. Thread-safe.
    std::shared_ptr<const ClassMatch> classMatch(std::string_view className) const;

    // --- The cluster objects: Nodes, Pods, DeviceClasses, ResourceClaims, templates, ...
    // sorted by namespace then name. Objects that did not decode are left out (see problems()).
    std::span<const std::shared_ptr<const model::Object>> objects(model::Kind kind) const;
    // What the kubelets report of each allocated device's health in the pods' container
    // statuses (device_health.h), read on first use and kept while the pods do not change, so
    // a view asking on each selection does not walk every pod.
    const std::vector<DeviceHealthReport> &deviceHealthReports() const;
    const model::Object *object(model::Kind kind, std::string_view ns, std::string_view name) const;
    // Objects the snapshot had to skip, with why ("ResourceClaim ns/name: reason").
    struct Problem
    {
        common::ObjectKey object;
        std::string message;
    };
    std::vector<Problem> problems() const;

private:
    friend class detail::SnapshotAssembler;
    Snapshot();

    std::string m_cluster;
    int64_t m_rev = 0;
    std::string m_kubernetesVersion;
    std::shared_ptr<const detail::DeviceLayer> m_devices;
    std::shared_ptr<const detail::HoldLayer> m_holds;
    std::shared_ptr<const detail::ObjectLayer> m_objects;
    mutable std::mutex m_classMutex;
    mutable std::map<std::string, std::shared_ptr<const ClassMatch>, std::less<>> m_classMatches;
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

} // namespace dra::inventory
