// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/cel/cost_estimator.h"
#include "core/cel/declarations.h"
#include "core/cel/env.h"

namespace dra::cel {

// Kubernetes' limits for a device selector (resource.k8s.io CELSelectorExpressionMaxLength
// and CELSelectorExpressionMaxCost).
inline constexpr size_t kSelectorMaxExpressionBytes = 10 * 1024;
inline constexpr uint64_t kSelectorMaxCost = 1000000;

// The environment Kubernetes compiles selectors in: the `device` variable and the libraries
// of its base environment. Shared, immutable.
const Environment &selectorEnvironment();

// The declarations the checker uses for selectors: the standard and extension functions, and
// `device` of type kubernetes.DRADevice with `driver` (string), `allowMultipleAllocations`
// (bool), `attributes` (map(string, map(string, dyn)): an attribute is an int, bool, string or
// version, which Kubernetes declares as a value of unknown type) and `capacity`
// (map(string, map(string, kubernetes.Quantity))).
const Declarations &selectorDeclarations();

// The size bounds Kubernetes declares for what a selector reads: at most 32 domains and 32
// names per domain, domains of 63 characters, names of 32, attribute values of 64 and driver
// names of 63.
const SizeEstimator &selectorSizeEstimator();

} // namespace dra::cel
