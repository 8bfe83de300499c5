// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <vector>

#include <QString>

#include "core/kube/stream_status.h"

namespace dra::kube {

// How current a mirror is, in one line for a status bar: "live: 9/9 streams watching", or
// "listing 2 of 9 (ResourceSlice 4,200 objects)", or what is wrong and with which kinds:
// "7/9 watching · stale: Pod · forbidden: Event in ml". Never "all fine" while a stream is not.
QString summarizeStreams(const std::vector<StreamStatus> &streams);

} // namespace dra::kube
