// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Fuzz target for the PromQL subset that rollout gates ask of the demo cluster's Prometheus
// (core/sandbox/metric_query.h): parsing and evaluation over a small set of series, and the
// HTTP API's answer. The input is a query. The driver: fuzz_driver.h.

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/sandbox/metric_query.h"
#include "core/sandbox/traffic_metrics.h"
#include "tests/fuzz/fuzz_driver.h"

namespace {

// Two deployments of two pods each, scraped every 15 s for two minutes, with a counter reset
// and a pod that goes away.
const dra::sandbox::TrafficMetrics &fuzzMetrics()
{
    static const dra::sandbox::TrafficMetrics metrics = [] {
        dra::sandbox::TrafficMetrics m;
        int64_t now = 1'700'000'000'000;
        for (int scrape = 0; scrape < 8; ++scrape, now += 15'000) {
            for (const char *deployment : { "llm-server", "llm-server-dra" }) {
                for (int pod = 0; pod < 2; ++pod) {
                    const std::string name = std::string(deployment) + "-" + std::to_string(pod);
                    if (scrape == 5 && pod == 1)
                        continue;
                    m.ensurePod("inference", deployment, name);
                    for (int i = 0; i < scrape + pod + 1; ++i)
                        m.observe("inference", deployment, name, i % 7 == 0 ? 500 : 200,
                            0.01 * (i + 1) * (pod + 1));
                }
            }
            if (scrape == 6)
                m.retainPods({ "inference/llm-server-0", "inference/llm-server-dra-0" });
            m.scrape(now);
        }
        return m;
    }();
    return metrics;
}

constexpr int64_t kQueryTime = 1'700'000'000'000 + 7 * 15'000;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string query(reinterpret_cast<const char *>(data), size);
    (void)dra::sandbox::evaluateQuery(query, fuzzMetrics(), kQueryTime);
    (void)dra::sandbox::evaluateQuery(query, fuzzMetrics(), 0);
    (void)dra::sandbox::prometheusQueryApi(query, fuzzMetrics(), kQueryTime).second.dump();
    return 0;
}

#ifndef DRA_FUZZ_NO_MAIN
int main(int argc, char **argv)
{
    return dra::fuzz::runFuzzDriver(argc, argv,
        { "promql_fuzz", &LLVMFuzzerTestOneInput,
            { "http_requests_total", "http_request_duration_seconds_bucket",
                "http_request_duration_seconds_sum", "http_request_duration_seconds_count", "{",
                "}", "(", ")", "[", "]", ",", "=", "!=", "=~", "!~", "\"", "'", "\\",
                "deployment=\"llm-server\"", "code=~\"5..\"", "namespace!~\"\"", "le", "pod",
                "__name__", "[20s]", "[5m]", "[0s]", "[1h]", "[999999999999999d]", "[1m30s]",
                "rate(", "increase(", "sum", "avg", "min", "max", "count", " by ", " without ",
                " by (le) ", "histogram_quantile(", "vector(", "0.95", "1", "0", "-1", "1e308",
                "NaN", "Inf", "-Inf", "0x1F", "+", "-", "*", "/", "%", "^", " and ", " or ",
                " offset 5m", "@ 0", "$deployment", ".*", "(a|b)*", "[[:alpha:]]", "\\d", "(?i)",
                " ", "\n", "\xc3\xa9", "\xff" } });
}
#endif
