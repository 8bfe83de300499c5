// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <QString>

#include "core/kube/stream_status.h"
#include "core/model/object_record.h"

namespace dra::kube {

// The batch that records, when a mirror stops, how current the cache is from then on: every
// stream gets `state` and `reason`, except forbidden or failing ones, whose own reason says more.
model::WatchBatch stoppedStreamsBatch(const std::string &cluster,
    const std::vector<StreamStatus> &streams, StreamState state, const QString &reason);

} // namespace dra::kube
