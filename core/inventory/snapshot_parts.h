// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The inside of a Snapshot: immutable layers that consecutive snapshots share until what they
// are made of changes. Only core/inventory includes this.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/cel/device_table.h"
#include "core/inventory/snapshot.h"

namespace dra::inventory::detail {

// One stored ResourceSlice as the inventory reads it. Shared by every snapshot until the
// slice changes.
struct SliceData
{
    SliceInfo info; // `stale` is decided by the device layer, not here
    std::string json; // as the cache stores it, for sliceObject()
    std::vector<model::CounterSet> sharedCounters;
    std::vector<Device> devices; // in published order

    bool operator==(const SliceData &other) const;
};
using SlicePtr = std::shared_ptr<const SliceData>;

using PoolId = std::pair<std::string, std::string>; // driver, pool

// A DeviceKey borrowing the strings of the device it names, so that indexing 40,000 devices
// copies no strings.
struct DeviceKeyView
{
    std::string_view driver, pool, device;
    bool operator==(const DeviceKeyView &) const = default;
};

struct DeviceKeyViewHash
{
    size_t operator()(const DeviceKeyView &key) const noexcept;
};

inline DeviceKeyView viewOf(const DeviceKey &key)
{
    return { key.driver, key.pool, key.device };
}

// Everything derived from the slices: which devices count, pools and the device indexes.
// Rebuilt when a slice changes; shared while only claims, pods or nodes do.
struct DeviceLayer
{
    std::map<std::string, SlicePtr, std::less<>> slices; // every stored slice, by name
    std::vector<SliceInfo> sliceInfos; // sorted by name, stale marked
    std::vector<Pool> pools; // sorted by driver, name
    std::vector<const Device *> devices; // current generation only
    std::unordered_map<DeviceKeyView, const Device *, DeviceKeyViewHash> byKey;
    std::map<std::string, std::vector<const Device *>, std::less<>> byNode;
    std::map<std::string, std::vector<const Device *>, std::less<>> byDriver;
    std::map<PoolId, std::vector<const Device *>, std::less<>> byPool;
    // The devices by column for selector sweeps, built on first use (see Snapshot::deviceTable).
    mutable std::once_flag tableOnce;
    mutable std::unique_ptr<const cel::DeviceTable> table;
};

// Who holds which device and what allocated devices consume of shared counters. Rebuilt when
// claims or devices change.
struct HoldLayer
{
    std::unordered_map<DeviceKey, std::vector<DeviceHold>> holds;
    std::map<PoolId, std::vector<CounterSetUsage>, std::less<>> counters;
};

// The decoded objects of one kind, sorted by namespace then name.
struct KindTable
{
    std::vector<std::shared_ptr<const model::Object>> objects;
    // Of the Pod table: its device health reports, read on first use (Snapshot::
    // deviceHealthReports()).
    mutable std::once_flag healthOnce;
    mutable std::vector<DeviceHealthReport> health;
};

inline constexpr size_t kKindCount = size_t(model::Kind::Unknown);

// The cluster objects by kind (ResourceSlices are in the device layer) and the objects that
// could not be read, each table shared until its kind changes.
struct ObjectLayer
{
    std::array<std::shared_ptr<const KindTable>, kKindCount> kinds;
    std::map<common::ObjectKey, std::string> problems;
};

// Builds the layers into a Snapshot; the builder's friend access.
class SnapshotAssembler final
{
public:
    static std::shared_ptr<Snapshot> make(std::string cluster, int64_t rev,
        std::string kubernetesVersion, std::shared_ptr<const DeviceLayer> devices,
        std::shared_ptr<const HoldLayer> holds, std::shared_ptr<const ObjectLayer> objects);
    static const DeviceLayer &devices(const Snapshot &snapshot) { return *snapshot.m_devices; }
    static const HoldLayer &holds(const Snapshot &snapshot) { return *snapshot.m_holds; }
    static const ObjectLayer &objects(const Snapshot &snapshot) { return *snapshot.m_objects; }
    static std::shared_ptr<const DeviceLayer> devicePtr(const Snapshot &s) { return s.m_devices; }
    static std::shared_ptr<const HoldLayer> holdPtr(const Snapshot &s) { return s.m_holds; }
    static std::shared_ptr<const ObjectLayer> objectPtr(const Snapshot &s) { return s.m_objects; }
    // Carries class matches over to a snapshot with the same devices and DeviceClasses.
    static void inheritClassMatches(const Snapshot &from, Snapshot &to);
};

} // namespace dra::inventory::detail
