// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/traffic_metrics.h"

#include <cstdio>

namespace dra::sandbox {

namespace {

Labels podLabels(const std::string &name, const std::string &ns, const std::string &deployment,
    const std::string &pod)
{
    return { { "__name__", name }, { "namespace", ns }, { "deployment", deployment },
        { "pod", pod } };
}

// Prometheus' spelling of a bucket bound: "0.005", "1", "+Inf".
std::string boundText(double bound)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", bound);
    return text;
}

} // namespace

TrafficMetrics::TrafficMetrics(int64_t retentionMs)
    : m_retentionMs(retentionMs)
{
}

const std::vector<double> &TrafficMetrics::bucketBounds()
{
    static const std::vector<double> bounds { 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
        10 };
    return bounds;
}

double &TrafficMetrics::counter(Labels labels)
{
    return m_current[std::move(labels)];
}

void TrafficMetrics::ensurePod(
    const std::string &ns, const std::string &deployment, const std::string &pod)
{
    for (const char *code : { "200", "500" }) {
        Labels labels = podLabels("http_requests_total", ns, deployment, pod);
        labels["code"] = code;
        counter(std::move(labels));
    }
    for (const char *suffix : { "_sum", "_count" })
        counter(
            podLabels(std::string("http_request_duration_seconds") + suffix, ns, deployment, pod));
    Labels bucket = podLabels("http_request_duration_seconds_bucket", ns, deployment, pod);
    for (double bound : bucketBounds()) {
        bucket["le"] = boundText(bound);
        counter(bucket);
    }
    bucket["le"] = "+Inf";
    counter(bucket);
}

void TrafficMetrics::observe(const std::string &ns, const std::string &deployment,
    const std::string &pod, int code, double seconds)
{
    ensurePod(ns, deployment, pod);
    Labels requests = podLabels("http_requests_total", ns, deployment, pod);
    requests["code"] = std::to_string(code);
    counter(std::move(requests)) += 1;
    counter(podLabels("http_request_duration_seconds_sum", ns, deployment, pod)) += seconds;
    counter(podLabels("http_request_duration_seconds_count", ns, deployment, pod)) += 1;
    Labels bucket = podLabels("http_request_duration_seconds_bucket", ns, deployment, pod);
    for (double bound : bucketBounds()) {
        if (seconds <= bound) {
            bucket["le"] = boundText(bound);
            counter(bucket) += 1;
        }
    }
    bucket["le"] = "+Inf";
    counter(bucket) += 1;
}

void TrafficMetrics::scrape(int64_t nowMs)
{
    for (const auto &[labels, value] : m_current) {
        auto [at, added] = m_index.try_emplace(labels, m_series.size());
        if (added)
            m_series.push_back({ labels, {} });
        m_series[at->second].samples.emplace_back(nowMs, value);
    }
    bool emptied = false;
    for (SeriesSamples &series : m_series) {
        while (!series.samples.empty() && series.samples.front().first < nowMs - m_retentionMs)
            series.samples.pop_front();
        emptied = emptied || series.samples.empty();
    }
    if (emptied) {
        std::erase_if(m_series, [](const SeriesSamples &series) { return series.samples.empty(); });
        m_index.clear();
        for (size_t i = 0; i < m_series.size(); ++i)
            m_index.emplace(m_series[i].labels, i);
    }
}

void TrafficMetrics::retainPods(const std::set<std::string> &live)
{
    std::erase_if(m_current, [&](const auto &entry) {
        const Labels &labels = entry.first;
        return !live.contains(labels.at("namespace") + '/' + labels.at("pod"));
    });
}

} // namespace dra::sandbox
