// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The PromQL that rollout gates ask of Prometheus, evaluated over the demo cluster's traffic
// metrics, so a rollout plan written for a production Prometheus runs unchanged on the demo.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/sandbox/traffic_metrics.h"

namespace dra::sandbox {

// An instant vector (with the labels of each element) or a scalar.
struct QueryValue
{
    struct Element
    {
        Labels labels;
        double value = 0;
    };
    bool scalar = false;
    double scalarValue = 0;
    std::vector<Element> vector;
};

// Evaluates `query` at `atMs`. The language covered: number literals; vector selectors with
// label matchers (=, !=, =~, !~ with RE2 syntax, anchored) and range selectors ([30s], [5m]);
// rate() and increase() (the change of a counter over the range divided by the time between the
// first and last samples in it, counter resets handled, without Prometheus' extrapolation);
// sum, avg, min, max and count with `by` / `without`; histogram_quantile(); vector(); unary
// minus; + - * / between scalars and vectors (one-to-one on identical labels), with the usual
// precedence and parentheses. Anything else fails with the position and what was expected.
Result<QueryValue> evaluateQuery(
    const std::string &query, const TrafficMetrics &metrics, int64_t atMs);

// The Prometheus HTTP API's answer to GET /api/v1/query?query=...[&time=...]: HTTP status and
// body (`{"status":"success","data":{"resultType":"vector"|"scalar","result":...}}`, or
// `{"status":"error","errorType":"bad_data","error":...}` with 400).
std::pair<int, nlohmann::json> prometheusQueryApi(
    const std::string &query, const TrafficMetrics &metrics, int64_t atMs);

} // namespace dra::sandbox
