// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/request_metrics.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace dra::server {

namespace prometheus {

std::string escapeLabel(std::string_view value)
{
    std::string out;
    out.reserve(value.size());
    for (const char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::string number(double value)
{
    if (value == double(int64_t(value)) && std::abs(value) < 1e15)
        return std::to_string(int64_t(value));
    for (int precision = 1; precision < 17; ++precision) {
        char shorter[32];
        std::snprintf(shorter, sizeof shorter, "%.*g", precision, value);
        if (std::strtod(shorter, nullptr) == value)
            return shorter;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

std::string header(std::string_view name, std::string_view type, std::string_view help)
{
    std::string out = "# HELP ";
    out.append(name).append(" ").append(help).append("\n# TYPE ");
    return out.append(name).append(" ").append(type).append("\n");
}

} // namespace prometheus

void RequestMetrics::record(
    std::string_view verb, std::string_view resource, int code, double seconds)
{
    ++m_counts[{ std::string(verb), std::string(resource), code }];
    Timing &timing = m_timings[{ std::string(verb), std::string(resource) }];
    for (std::size_t i = 0; i < kBuckets.size(); ++i) {
        if (seconds <= kBuckets[i]) {
            ++timing.buckets[i];
            break;
        }
    }
    ++timing.count;
    timing.sum += seconds;
}

std::string RequestMetrics::text() const
{
    using prometheus::escapeLabel;
    std::string out = prometheus::header("draconsole_apiserver_request_total", "counter",
        "Requests answered, by verb, resource and HTTP status code.");
    for (const auto &[key, count] : m_counts) {
        const auto &[verb, resource, code] = key;
        out += "draconsole_apiserver_request_total{verb=\"" + escapeLabel(verb) + "\",resource=\""
            + escapeLabel(resource) + "\",code=\"" + std::to_string(code) + "\"} "
            + std::to_string(count) + "\n";
    }
    out += prometheus::header("draconsole_apiserver_request_duration_seconds", "histogram",
        "Time from a complete request to the head of its answer (a watch: to its start).");
    for (const auto &[key, timing] : m_timings) {
        const std::string labels = "verb=\"" + escapeLabel(key.first) + "\",resource=\""
            + escapeLabel(key.second) + "\"";
        uint64_t cumulative = 0;
        for (std::size_t i = 0; i < kBuckets.size(); ++i) {
            cumulative += timing.buckets[i];
            out += "draconsole_apiserver_request_duration_seconds_bucket{" + labels + ",le=\""
                + prometheus::number(kBuckets[i]) + "\"} " + std::to_string(cumulative) + "\n";
        }
        out += "draconsole_apiserver_request_duration_seconds_bucket{" + labels + ",le=\"+Inf\"} "
            + std::to_string(timing.count) + "\n";
        out += "draconsole_apiserver_request_duration_seconds_sum{" + labels + "} "
            + prometheus::number(timing.sum) + "\n";
        out += "draconsole_apiserver_request_duration_seconds_count{" + labels + "} "
            + std::to_string(timing.count) + "\n";
    }
    return out;
}

} // namespace dra::server
