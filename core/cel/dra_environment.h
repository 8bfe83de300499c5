// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/cel/cost_estimator.h"
#include "core/cel/declarations.h"
#include "core/cel/env.h"
#include "core/release/kubernetes_release.h"

namespace dra::cel {

// Kubernetes' limits for a device selector (resource.k8s.io CELSelectorExpressionMaxLength
// and CELSelectorExpressionMaxCost, the latter both the estimated limit of a new selector and
// the runtime limit of every evaluation).
inline constexpr size_t kSelectorMaxExpressionBytes = 10 * 1024;
inline constexpr uint64_t kSelectorMaxCost = 1000000;

// Which CEL environment a selector is compiled in, as Kubernetes chooses it: that of a release,
// for a new expression (kube-apiserver validating an object being created or a selector being
// changed: only what the release's enabled gates declare, rejected over the estimated cost
// limit) or a stored one (already in the cluster, as the scheduler compiles it: everything the
// release's binaries know, whatever its gates, limited only at run time).
struct SelectorOptions
{
    release::KubernetesRelease release = release::KubernetesRelease::newest();
    bool stored = false;
};

// What a selector environment declares, from Kubernetes' dynamic-resource-allocation/cel
// compile.go and apiserver/pkg/cel/environment of the release. New expressions get the base
// libraries of the previous minor version (kube-apiserver's compatibility version), stored
// ones those of the release itself.
struct SelectorFeatures
{
    bool allowMultipleAllocations = false; // device.allowMultipleAllocations (1.34)
    bool includes = false; // includes() (1.36)
    // Attribute values typed dyn, so that list values iterate (1.36); otherwise typed
    // google.protobuf.Any, as before lists existed.
    bool listAttributes = false;
    bool twoVarComprehensions = false; // all(i, v, p), transformList, ... (base 1.32)
    bool semverNormalize = false; // semver(s, true), isSemver(s, true) (base 1.33)
    bool celLists = false; // cel-go lists extension: sort, distinct, first, ... (base 1.34)
    bool estimatedCostLimit = false; // a new selector over the estimate is invalid (1.32)
    bool deviceSizeBounds = false; // the estimate knows the sizes of device fields (1.33)

    bool operator==(const SelectorFeatures &) const = default;
};

// What `options` give a selector.
SelectorFeatures selectorFeatures(const SelectorOptions &options);

// The environment Kubernetes compiles selectors in for `options`: the `device` variable and the
// libraries and functions of that release. Shared, immutable, built once per distinct set of
// features; any thread.
const Environment &selectorEnvironment(const SelectorOptions &options = {});

// The declarations the checker uses for selectors of `options`: the standard and extension
// functions, and `device` of type kubernetes.DRADevice with `driver` (string), `attributes`
// (map(string, map(string, A)) where A is google.protobuf.Any, or dyn with list attributes),
// `capacity` (map(string, map(string, kubernetes.Quantity))) and, where declared,
// `allowMultipleAllocations` (bool).
const Declarations &selectorDeclarations(const SelectorOptions &options = {});

// The type Kubernetes gives an attribute value under `features`: what a selector may evaluate to
// besides bool.
CelType selectorAttributeType(const SelectorFeatures &features);

// The size bounds Kubernetes declares for what a selector reads: at most 32 domains and 32
// names per domain, domains of 63 characters, names of 32, attribute values of 64 and driver
// names of 63.
const SizeEstimator &selectorSizeEstimator();

} // namespace dra::cel
