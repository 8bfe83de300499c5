// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/kind.h"
#include "core/release/kubernetes_release.h"
#include "core/store/cache_db.h"

namespace dra::server {

// What kube-apiserver accepts but can never work as the cluster stands, for a claim or
// template (resource.k8s.io/v1 shape): a request naming a DeviceClass that does not exist, or
// whose class and own selectors match no device any ResourceSlice publishes. One sentence per
// problem, naming the field; the write still succeeds and the sentences go out as `Warning`
// headers, which kubectl prints. Selectors are those of `release` (the served one): the class's
// as stored expressions, the request's as new ones. Reads `cache` (cluster `cluster`); its
// thread.
std::vector<std::string> allocationWarnings(const nlohmann::json &object,
    const model::KindInfo &kind, store::CacheDb &cache, const std::string &cluster,
    const release::KubernetesRelease &release = release::KubernetesRelease::newest());

} // namespace dra::server
