// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/kube/stream_status.h"

namespace dra::kube {

// How each stream of a live mirror has fared since the mirror started: its last status, how
// often its watch broke and how often it listed again, and since when it has not followed the
// cluster. What a served mirror's /readyz and /metrics say. Thread of its owner.
class StreamHealth
{
public:
    struct Entry
    {
        StreamStatus status;
        int watchRestarts = 0; // the watch broke (Stale) and was opened again
        int relists = 0; // listed again after its first list
        bool listed = false; // has been current once
        int64_t behindSinceMs = 0; // when it last stopped following the cluster (or was first seen)
    };

    void update(const StreamStatus &status, int64_t nowMs);

    // Whether the stream follows the cluster: listed and watching (forbidden ones count as
    // settled: the user was told at start, and they will not change by waiting).
    static bool isCurrent(StreamState state);
    // Why the mirror is not ready, one line per stream that is not current; empty when ready.
    std::vector<std::string> unready() const;
    // Milliseconds the stream has not followed the cluster: 0 while it does.
    static int64_t lagMs(const Entry &entry, int64_t nowMs);

    const std::map<std::pair<model::Kind, std::string>, Entry> &entries() const
    {
        return m_entries;
    }

private:
    std::map<std::pair<model::Kind, std::string>, Entry> m_entries;
};

} // namespace dra::kube
