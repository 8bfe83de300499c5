// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>

#include "core/kube/stream_health.h"

namespace dra::server {

// A live mirror's streams in Prometheus' text format, labelled by kind and namespace: the state
// (one series per state, 1 for the current one), objects in the last list, seconds behind the
// cluster, watch restarts and relists since the mirror started.
std::string mirrorMetrics(const kube::StreamHealth &health, int64_t nowMs);

} // namespace dra::server
