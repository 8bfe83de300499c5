// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The request metrics of the demo cluster's workloads, kept the way Prometheus keeps what it
// scrapes: cumulative counters and histogram buckets per series, sampled at scrape times.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace dra::sandbox {

using Labels = std::map<std::string, std::string>;

// One series' samples, oldest first: (time in ms, cumulative value).
struct SeriesSamples
{
    Labels labels; // including __name__
    std::deque<std::pair<int64_t, double>> samples;
};

// Counters `http_requests_total{namespace,deployment,pod,code}` and the histogram
// `http_request_duration_seconds{namespace,deployment,pod}` (its _bucket{le}, _sum and _count
// series), as an instrumented model server exports them. observe() counts a request at once;
// scrape() takes a sample of every series, as a Prometheus scrape would, and drops samples older
// than the retention. Queries (metric_query.h) read the samples. Not thread-safe: one thread.
class TrafficMetrics
{
public:
    explicit TrafficMetrics(int64_t retentionMs = 15 * 60 * 1000);

    // The bucket bounds of the duration histogram, in seconds (+Inf is implicit).
    static const std::vector<double> &bucketBounds();

    // A pod seen for the first time gets its series at zero for codes 200 and 500, as
    // instrumented servers initialise their counters, so rates are 0 rather than absent.
    void ensurePod(const std::string &ns, const std::string &deployment, const std::string &pod);
    // One answered request: its HTTP status (0 when the connection failed) and duration.
    void observe(const std::string &ns, const std::string &deployment, const std::string &pod,
        int code, double seconds);
    void scrape(int64_t nowMs);
    // Stops sampling the series of pods not in `live` ("ns/pod"), as Prometheus stops scraping
    // a target that is gone; their samples age out with the retention. A pod that comes back
    // starts from zero, which rate() takes as a counter reset.
    void retainPods(const std::set<std::string> &live);

    // Every series with at least one sample.
    const std::vector<SeriesSamples> &series() const { return m_series; }

private:
    double &counter(Labels labels);

    int64_t m_retentionMs;
    std::map<Labels, double> m_current; // the live cumulative value of every series
    std::map<Labels, size_t> m_index; // series → position in m_series
    std::vector<SeriesSamples> m_series;
};

} // namespace dra::sandbox
