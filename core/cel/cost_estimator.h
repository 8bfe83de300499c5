// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/cel/checker.h"
#include "core/cel/parser.h"

namespace dra::cel {

// A range of sizes of a string (code points), bytes, list or map.
struct SizeEstimate
{
    uint64_t min = 0;
    uint64_t max = UINT64_MAX;
};

// A range of evaluation costs, in cel-go's cost units. Arithmetic saturates at UINT64_MAX.
struct CostEstimate
{
    uint64_t min = 0;
    uint64_t max = 0;
};

// Bounds the sizes of data reachable from the declared variables, by field path: the variable,
// then field names and "@items" (list elements), "@keys", "@values" (map entries), as cel-go
// names them. Kubernetes derives these bounds from the API's validation limits.
class SizeEstimator
{
public:
    virtual ~SizeEstimator() = default;
    virtual std::optional<SizeEstimate> estimateSize(std::span<const std::string> path) const = 0;
};

// Estimation settings.
struct CostOptions
{
    // cel-go charges 1 for has(); Kubernetes turns that off to keep old expressions valid.
    bool presenceTestHasCost = true;
    // Kubernetes' library estimator (quantity, lists, regex, strings, ip, url) goes first.
    bool kubernetesLibraries = true;
    const SizeEstimator *sizes = nullptr;
};

// The worst- and best-case cost of evaluating a checked expression, computed the way cel-go's
// static estimator does (per-function costs, comprehension costs multiplied by the size of
// their range), so the numbers match what Kubernetes compares with its limits. Any thread.
CostEstimate estimateCost(
    const ParsedExpr &parsed, const CheckedExpr &checked, const CostOptions &options);

} // namespace dra::cel
