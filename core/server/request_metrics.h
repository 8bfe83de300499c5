// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

namespace dra::server {

// Prometheus' text exposition format (0.0.4): what /metrics answers.
namespace prometheus {
inline constexpr std::string_view kContentType = "text/plain; version=0.0.4; charset=utf-8";
// `value` as a label value: backslash, double quote and newline escaped.
std::string escapeLabel(std::string_view value);
// The shortest text that reads back as `value` ("0.25", "1e-06").
std::string number(double value);
// "# HELP name help\n# TYPE name type\n".
std::string header(std::string_view name, std::string_view type, std::string_view help);
} // namespace prometheus

// The requests a server answered, by verb (kube-apiserver's: GET, LIST, WATCH, POST, PUT,
// PATCH, APPLY, DELETE; the HTTP method for other paths), resource and status code, with the
// time to the answer's head in a histogram: the figures of kube-apiserver's
// apiserver_request_total and apiserver_request_duration_seconds, under our own names.
// Thread of its server.
class RequestMetrics
{
public:
    // Upper bounds of the histogram's buckets, in seconds (+Inf is implied).
    static constexpr std::array<double, 14> kBuckets { 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
        0.5, 1, 2.5, 5, 10, 30, 60 };

    void record(std::string_view verb, std::string_view resource, int code, double seconds);
    // The counters and the histogram in the exposition format.
    std::string text() const;

private:
    struct Timing
    {
        std::array<uint64_t, kBuckets.size()> buckets {}; // not cumulative here
        uint64_t count = 0;
        double sum = 0;
    };
    std::map<std::tuple<std::string, std::string, int>, uint64_t> m_counts;
    std::map<std::pair<std::string, std::string>, Timing> m_timings;
};

} // namespace dra::server
