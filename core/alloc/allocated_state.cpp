// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/allocated_state.h"

namespace dra::alloc {

AllocatedState::AllocatedState(const Cluster &cluster)
    : m_exclusive(size_t(cluster.deviceIdCount()), -1)
{
}

AllocatedState AllocatedState::fromClaims(
    const Cluster &cluster, const std::set<std::string> &exclude)
{
    AllocatedState state(cluster);
    for (const model::Object *object : cluster.allocatedClaims()) {
        const std::string ref = objectRef(object->meta.ns, object->meta.name);
        if (exclude.contains(ref))
            continue;
        const auto *claim = object->as<model::ResourceClaim>();
        for (const model::DeviceRequestAllocationResult &result : claim->allocation->results) {
            if (result.adminAccess)
                continue; // admin access does not take the device away from others
            const int id = cluster.deviceId(result.driver, result.pool, result.device);
            if (id < 0)
                continue; // a device no slice publishes any more cannot be chosen anyway
            if (!result.shareID.empty())
                state.addShared(id, ref, parseConsumedCapacity(result.consumedCapacity));
            else
                state.addExclusive(id, ref);
        }
    }
    return state;
}

int AllocatedState::claimIndex(const std::string &claimRef)
{
    const auto [it, added] = m_claimIndex.emplace(claimRef, int(m_claims.size()));
    if (added)
        m_claims.push_back(claimRef);
    return it->second;
}

const std::string *AllocatedState::holder(int id) const
{
    return isAllocated(id) ? &m_claims[size_t(m_exclusive[size_t(id)])] : nullptr;
}

const ConsumedCapacity *AllocatedState::sharedCapacity(int id) const
{
    const auto it = m_shared.find(id);
    return it == m_shared.end() ? nullptr : &it->second;
}

std::vector<std::string> AllocatedState::sharers(int id) const
{
    std::vector<std::string> out;
    if (const auto it = m_sharers.find(id); it != m_sharers.end())
        for (const int claim : it->second)
            out.push_back(m_claims[size_t(claim)]);
    return out;
}

void AllocatedState::addExclusive(int id, const std::string &claimRef)
{
    if (id < 0)
        return;
    if (size_t(id) >= m_exclusive.size())
        m_exclusive.resize(size_t(id) + 1, -1);
    m_exclusive[size_t(id)] = claimIndex(claimRef);
    ++m_revision;
}

void AllocatedState::addShared(
    int id, const std::string &claimRef, const ConsumedCapacity &consumed)
{
    if (id < 0)
        return;
    addCapacity(m_shared[id], consumed);
    m_sharers[id].push_back(claimIndex(claimRef));
    ++m_revision;
}

} // namespace dra::alloc
