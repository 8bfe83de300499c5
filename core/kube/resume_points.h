// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <string>
#include <utility>

#include "core/kube/mirror.h"
#include "core/store/cache_db.h"

namespace dra::kube {

using ResumePoints = std::map<std::pair<model::Kind, std::string>, ResumePoint>;

// Where each stream of `cluster` got to in an earlier run, as the cache recorded it, for
// MirrorOptions::resumeFrom: resuming with a watch from there costs far less than listing again.
// Forbidden streams are left out (they are tried afresh); an unreadable record only costs a list.
ResumePoints resumePointsOf(store::CacheDb &cache, const std::string &cluster);

} // namespace dra::kube
