// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/alloc/capacity.h"
#include "core/alloc/cluster.h"

namespace dra::alloc {

// Which devices are taken, as the scheduler tracks it from allocated ResourceClaims: devices
// allocated exclusively, and the capacity consumed on shareable devices (results with a
// shareID). Results with adminAccess take nothing. A plain value; copy it to branch off.
class AllocatedState final
{
public:
    AllocatedState() = default;
    explicit AllocatedState(const Cluster &cluster);

    // The state of `cluster`'s allocated claims, leaving out the claims named in `exclude`
    // ("ns/name"), whose allocation is being simulated again.
    static AllocatedState fromClaims(
        const Cluster &cluster, const std::set<std::string> &exclude = {});

    bool isAllocated(int id) const
    {
        return id >= 0 && size_t(id) < m_exclusive.size() && m_exclusive[size_t(id)] >= 0;
    }
    // The claim ("ns/name") holding device `id` exclusively, or nullptr.
    const std::string *holder(int id) const;
    // Capacity allocated claims consume on shareable device `id`, or nullptr when none does.
    const ConsumedCapacity *sharedCapacity(int id) const;
    // The claims sharing device `id`.
    std::vector<std::string> sharers(int id) const;

    // Records a device of an allocation result for `claimRef`.
    void addExclusive(int id, const std::string &claimRef);
    void addShared(int id, const std::string &claimRef, const ConsumedCapacity &consumed);

    // Bumped by every add; lets caches derived from the state notice a change.
    uint64_t revision() const { return m_revision; }

private:
    int claimIndex(const std::string &claimRef);

    std::vector<int> m_exclusive; // by device id: index into m_claims, -1 when free
    std::unordered_map<int, ConsumedCapacity> m_shared;
    std::unordered_map<int, std::vector<int>> m_sharers;
    std::vector<std::string> m_claims;
    std::unordered_map<std::string, int> m_claimIndex;
    uint64_t m_revision = 0;
};

} // namespace dra::alloc
