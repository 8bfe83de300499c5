// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/stopped_streams.h"

namespace dra::kube {

model::WatchBatch stoppedStreamsBatch(const std::string &cluster,
    const std::vector<StreamStatus> &streams, StreamState state, const QString &reason)
{
    model::WatchBatch batch;
    batch.cluster = cluster;
    for (StreamStatus status : streams) {
        if (status.state == StreamState::Forbidden || status.state == StreamState::Error)
            continue;
        status.state = state;
        status.reason = reason;
        batch.streams.push_back(status.record());
    }
    return batch;
}

} // namespace dra::kube
