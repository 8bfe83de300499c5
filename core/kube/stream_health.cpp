// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/stream_health.h"

#include <algorithm>

namespace dra::kube {

bool StreamHealth::isCurrent(StreamState state)
{
    return state == StreamState::Synced || state == StreamState::Watching
        || state == StreamState::Forbidden;
}

void StreamHealth::update(const StreamStatus &status, int64_t nowMs)
{
    const auto key = std::pair { status.kind, status.ns };
    auto found = m_entries.find(key);
    if (found == m_entries.end()) {
        found = m_entries.emplace(key, Entry { status, 0, 0, false, nowMs }).first;
    } else {
        Entry &entry = found->second;
        const StreamState before = entry.status.state;
        if (status.state == StreamState::Stale && before != StreamState::Stale)
            ++entry.watchRestarts;
        if (status.state == StreamState::Listing && before != StreamState::Listing && entry.listed)
            ++entry.relists;
        if (isCurrent(before) && !isCurrent(status.state))
            entry.behindSinceMs = nowMs;
        entry.status = status;
    }
    if (isCurrent(status.state) && status.state != StreamState::Forbidden)
        found->second.listed = true;
}

std::vector<std::string> StreamHealth::unready() const
{
    std::vector<std::string> reasons;
    for (const auto &[key, entry] : m_entries) {
        if (isCurrent(entry.status.state))
            continue;
        std::string line = entry.status.label().toStdString() + ": "
            + std::string(streamStateName(entry.status.state));
        if (!entry.status.reason.isEmpty())
            line += ": " + entry.status.reason.toStdString();
        reasons.push_back(std::move(line));
    }
    return reasons;
}

int64_t StreamHealth::lagMs(const Entry &entry, int64_t nowMs)
{
    return isCurrent(entry.status.state) ? 0 : std::max<int64_t>(0, nowMs - entry.behindSinceMs);
}

} // namespace dra::kube
