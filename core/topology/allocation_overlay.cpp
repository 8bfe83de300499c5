// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The allocation overlay of NodeTopology, apart from the graph build so a live view can re-apply
// claims without rebuilding the graph.
#include "core/topology/node_topology.h"

#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "core/common/json_text.h"
#include "core/inventory/snapshot.h"

namespace dra::topology {

using common::qs;

namespace {

using HolderOf
    = std::function<Holder(const QString &driver, const QString &pool, const QString &device)>;

void overlay(NodeTopology &topology, const HolderOf &holderOf)
{
    for (GpuNode &gpu : topology.gpus) {
        if (gpu.device.isEmpty())
            continue;
        gpu.holder = holderOf(gpu.driver, gpu.pool, gpu.device);
        std::set<int> taken;
        for (MigDevice &mig : gpu.migs) {
            mig.holder = holderOf(gpu.driver, gpu.pool, mig.device);
            if (mig.holder.isHeld())
                for (int s = mig.sliceStart; s >= 0 && s < mig.sliceStart + mig.sliceCount; ++s)
                    taken.insert(s);
        }
        for (MigDevice &mig : gpu.migs) {
            bool overlaps = false;
            for (int s = mig.sliceStart; s >= 0 && s < mig.sliceStart + mig.sliceCount; ++s)
                overlaps = overlaps || taken.contains(s);
            // Without published slices, any held sibling may overlap: not claimed free.
            const bool unknown = mig.sliceStart < 0 && !taken.empty();
            mig.free = !mig.holder.isHeld() && !gpu.holder.isHeld() && !overlaps && !unknown;
        }
    }
    for (NicNode &nic : topology.nics)
        if (!nic.device.isEmpty())
            nic.holder = holderOf(nic.driver, nic.pool, nic.device);
}

} // namespace

void overlayAllocations(NodeTopology &topology, std::span<const model::Object> claims)
{
    std::map<std::tuple<QString, QString, QString>, Holder> holders;
    for (const model::Object &object : claims) {
        const model::ResourceClaim *claim = object.as<model::ResourceClaim>();
        if (!claim || !claim->allocation)
            continue;
        Holder holder;
        holder.claim = qs(object.meta.ns) + u'/' + qs(object.meta.name);
        for (const model::ResourceClaimConsumerReference &ref : claim->reservedFor)
            if (ref.resource == "pods")
                holder.pods.append(qs(ref.name));
        for (const model::DeviceRequestAllocationResult &result : claim->allocation->results)
            holders[{ qs(result.driver), qs(result.pool), qs(result.device) }] = holder;
    }
    overlay(topology, [&](const QString &driver, const QString &pool, const QString &device) {
        const auto found = holders.find({ driver, pool, device });
        return found == holders.end() ? Holder {} : found->second;
    });
}

void overlayAllocations(NodeTopology &topology, const inventory::Snapshot &snapshot)
{
    overlay(topology, [&](const QString &driver, const QString &pool, const QString &device) {
        Holder holder;
        const inventory::DeviceKey key { driver.toStdString(), pool.toStdString(),
            device.toStdString() };
        for (const inventory::DeviceHold &hold : snapshot.holds(key)) {
            if (holder.claim.isEmpty())
                holder.claim = qs(hold.claim.ns) + u'/' + qs(hold.claim.name);
            for (const std::string &pod : hold.pods)
                if (!holder.pods.contains(qs(pod)))
                    holder.pods.append(qs(pod));
        }
        return holder;
    });
}

} // namespace dra::topology
