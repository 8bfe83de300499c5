// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/model/kind.h"
#include "core/release/kubernetes_release.h"
#include "core/server/field_errors.h"

namespace dra::server {

// Fills in the defaults kube-apiserver stores for resource.k8s.io/v1 objects: an exact device
// request without allocationMode is ExactCount, and ExactCount without count asks for one.
void applyDefaults(nlohmann::json &object, const model::KindInfo &kind);

// Validates a new object (resource.k8s.io/v1 shape) the way kube-apiserver does for that kind:
// metadata names and labels; for claims and templates the requests (names, exactly one of
// `exactly`/`firstAvailable`, device class names, allocation mode and count, the size limits),
// constraints and config; CEL selectors of claims, templates and classes must compile and
// return bool; for slices the driver, pool and device names and the device attributes
// (validateDeviceAttributes). Field paths are the v1 ones. Selectors compile as new ones in
// `release`, the one the server serves: what a 1.33 kube-apiserver refuses is refused.
FieldErrors validateCreate(const nlohmann::json &object, const model::KindInfo &kind,
    const release::KubernetesRelease &release = release::KubernetesRelease::newest());

// Validates an update: the new object as on create (CEL expressions already stored are not
// compiled again), and what may not change (a claim's or template's spec).
FieldErrors validateUpdate(const nlohmann::json &object, const nlohmann::json &old,
    const model::KindInfo &kind,
    const release::KubernetesRelease &release = release::KubernetesRelease::newest());

// The problems of a DNS-1123 label / subdomain / label key or value, worded as apimachinery
// words them; empty when the text is valid.
std::vector<std::string> dnsLabelProblems(const std::string &text);
std::vector<std::string> dnsSubdomainProblems(const std::string &text);

} // namespace dra::server
