// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The demo Prometheus' PromQL: the queries rollout plans send, with Prometheus' answers.
#include "core/sandbox/metric_query.h"

#include <cmath>

#include <gtest/gtest.h>

namespace dra::test {
namespace {

using sandbox::evaluateQuery;
using sandbox::QueryValue;
using sandbox::TrafficMetrics;

constexpr int64_t kT0 = 1'700'000'000'000;

class MetricQueryTest : public testing::Test
{
protected:
    // `ok` answers of 10 ms and `errors` 500s of 300 ms for each deployment, between two scrapes
    // 10 s apart.
    void traffic(const std::string &deployment, int ok, int errors)
    {
        m_metrics.ensurePod("inference", deployment, deployment + "-pod");
        m_metrics.scrape(m_now);
        for (int i = 0; i < ok; ++i)
            m_metrics.observe("inference", deployment, deployment + "-pod", 200, 0.010);
        for (int i = 0; i < errors; ++i)
            m_metrics.observe("inference", deployment, deployment + "-pod", 500, 0.300);
    }
    void scrapeAfter(int64_t ms)
    {
        m_now += ms;
        m_metrics.scrape(m_now);
    }
    double scalarOf(const std::string &query)
    {
        Result<QueryValue> value = evaluateQuery(query, m_metrics, m_now);
        EXPECT_TRUE(value) << query << ": " << value.error().message.toStdString();
        if (!value)
            return -1;
        if (value->scalar)
            return value->scalarValue;
        EXPECT_EQ(value->vector.size(), 1u) << query;
        return value->vector.empty() ? -1 : value->vector.front().value;
    }
    std::string errorOf(const std::string &query)
    {
        Result<QueryValue> value = evaluateQuery(query, m_metrics, m_now);
        EXPECT_FALSE(value) << query << " should not parse";
        return value ? std::string() : value.error().message.toStdString();
    }

    TrafficMetrics m_metrics;
    int64_t m_now = kT0;
};

TEST_F(MetricQueryTest, ErrorRateQueryOfARolloutPlan)
{
    traffic("llm-server", 95, 5);
    traffic("llm-server-dra", 40, 10);
    scrapeAfter(10'000);
    const std::string query = R"(sum(rate(http_requests_total{deployment="$",code=~"5.."}[1m])) / )"
                              R"(sum(rate(http_requests_total{deployment="$"}[1m])))";
    auto forDeployment = [&](const std::string &name) {
        std::string text = query;
        for (size_t at = text.find('$'); at != std::string::npos; at = text.find('$'))
            text.replace(at, 1, name);
        return text;
    };
    EXPECT_NEAR(scalarOf(forDeployment("llm-server")), 0.05, 1e-12);
    EXPECT_NEAR(scalarOf(forDeployment("llm-server-dra")), 0.20, 1e-12);
    // rate() is per second over the samples in the range: 100 requests in 10 s.
    EXPECT_NEAR(
        scalarOf(R"(sum(rate(http_requests_total{deployment="llm-server"}[1m])))"), 10.0, 1e-9);
    EXPECT_NEAR(scalarOf(R"(sum(increase(http_requests_total{deployment="llm-server"}[1m])))"),
        100.0, 1e-9);
}

TEST_F(MetricQueryTest, LatencyQuantileInterpolatesInsideTheBucket)
{
    traffic("llm-server", 90, 10); // 90 × 10 ms (bucket ≤ 0.01), 10 × 300 ms (bucket ≤ 0.5)
    scrapeAfter(10'000);
    // p50: rank 50 of the 90 in (0.005, 0.01]: 0.005 + 0.005 × 50/90.
    EXPECT_NEAR(
        scalarOf("histogram_quantile(0.5, sum by (le) "
                 "(rate(http_request_duration_seconds_bucket{deployment=\"llm-server\"}[1m])))"),
        0.005 + 0.005 * 50.0 / 90.0, 1e-12);
    // p95: rank 95 lies among the 10 slow ones in (0.25, 0.5]: 0.25 + 0.25 × 5/10.
    EXPECT_NEAR(scalarOf("histogram_quantile(0.95, "
                         "sum(rate(http_request_duration_seconds_bucket[1m])) by (le))"),
        0.375, 1e-12);
}

TEST_F(MetricQueryTest, NoRequestsInTheWindowIsNaNNotZero)
{
    traffic("llm-server", 0, 0);
    scrapeAfter(10'000);
    const double rate = scalarOf(
        R"(sum(rate(http_requests_total{code="500"}[1m])) / sum(rate(http_requests_total[1m])))");
    EXPECT_TRUE(std::isnan(rate));
    const auto [status, body]
        = sandbox::prometheusQueryApi("sum(rate(http_requests_total[1m])) / 0", m_metrics, m_now);
    EXPECT_EQ(status, 200);
    EXPECT_EQ(body["data"]["result"][0]["value"][1], "NaN");
}

TEST_F(MetricQueryTest, ARateNeedsTwoSamplesInTheRange)
{
    traffic("llm-server", 10, 0);
    scrapeAfter(10'000);
    // 5s covers only the last scrape: no rate at all, as in Prometheus.
    Result<QueryValue> value = evaluateQuery("rate(http_requests_total[5s])", m_metrics, m_now);
    ASSERT_TRUE(value);
    EXPECT_TRUE(value->vector.empty());
}

TEST_F(MetricQueryTest, APodThatComesBackIsACounterResetNotANegativeIncrease)
{
    for (int i = 0; i < 10; ++i)
        m_metrics.observe("inference", "a", "a-1", 200, 0.001);
    m_metrics.scrape(kT0);
    m_metrics.retainPods({}); // gone from the Service: no longer sampled
    m_metrics.scrape(kT0 + 1000);
    for (int i = 0; i < 3; ++i) // back, counting from zero
        m_metrics.observe("inference", "a", "a-1", 200, 0.001);
    m_metrics.scrape(kT0 + 2000);
    Result<QueryValue> value
        = evaluateQuery(R"(increase(http_requests_total{code="200"}[1m]))", m_metrics, kT0 + 2000);
    ASSERT_TRUE(value);
    ASSERT_EQ(value->vector.size(), 1u);
    EXPECT_DOUBLE_EQ(value->vector.front().value, 3.0);
}

TEST_F(MetricQueryTest, AggregationsArithmeticAndMatchers)
{
    traffic("a", 10, 0);
    traffic("b", 30, 10);
    scrapeAfter(10'000);
    EXPECT_DOUBLE_EQ(scalarOf("1 + 2 * 3"), 7);
    EXPECT_DOUBLE_EQ(scalarOf("(1 + 2) * 3"), 9);
    EXPECT_DOUBLE_EQ(scalarOf("-2 * -3"), 6);
    EXPECT_DOUBLE_EQ(scalarOf(R"(sum(http_requests_total{deployment!="a"}))"), 40);
    EXPECT_DOUBLE_EQ(scalarOf(R"(count(http_requests_total{code!~"2.."}))"), 2);
    EXPECT_DOUBLE_EQ(scalarOf(R"(max(http_requests_total{code="200"}))"), 30);
    EXPECT_DOUBLE_EQ(scalarOf("vector(3) * 2"), 6);
    Result<QueryValue> byDeployment
        = evaluateQuery("sum by (deployment) (http_requests_total)", m_metrics, m_now);
    ASSERT_TRUE(byDeployment);
    ASSERT_EQ(byDeployment->vector.size(), 2u);
    EXPECT_EQ(byDeployment->vector[0].labels.at("deployment"), "a");
    EXPECT_DOUBLE_EQ(byDeployment->vector[0].value, 10);
    EXPECT_DOUBLE_EQ(byDeployment->vector[1].value, 40);
    Result<QueryValue> without
        = evaluateQuery("sum without (pod, code) (http_requests_total)", m_metrics, m_now);
    ASSERT_TRUE(without);
    ASSERT_EQ(without->vector.size(), 2u);
    EXPECT_EQ(without->vector[1].labels,
        (sandbox::Labels { { "deployment", "b" }, { "namespace", "inference" } }));
}

TEST_F(MetricQueryTest, ErrorsSayWhereAndWhat)
{
    EXPECT_EQ(errorOf("sum(rate(http_requests_total[5m])"),
        "parse error at char 34: expected \")\", found the end");
    EXPECT_NE(errorOf("rate(http_requests_total)").find("expected \"[\""), std::string::npos);
    EXPECT_NE(errorOf("http_requests_total[5m]").find("needs a function such as rate()"),
        std::string::npos);
    EXPECT_NE(errorOf("rate(x[5])").find("needs a unit"), std::string::npos);
    // A range too long to count in milliseconds is refused, not wrapped around.
    EXPECT_NE(
        errorOf("rate(x[99999999999999999999y])").find("longer than 100 years"), std::string::npos);
    EXPECT_NE(errorOf("rate(x[101y])").find("longer than 100 years"), std::string::npos);
    EXPECT_NE(errorOf("rate(x[100y1d])").find("longer than 100 years"), std::string::npos);
    EXPECT_TRUE(evaluateQuery("rate(x[100y])", m_metrics, m_now));
    EXPECT_NE(errorOf(R"(x{code=~"(5"})").find("invalid regular expression"), std::string::npos);
    const auto [status, body] = sandbox::prometheusQueryApi("sum(", m_metrics, m_now);
    EXPECT_EQ(status, 400);
    EXPECT_EQ(body["status"], "error");
    EXPECT_EQ(body["errorType"], "bad_data");
}

TEST_F(MetricQueryTest, InstantSelectorsSeeTheLatestSampleWithinLookback)
{
    traffic("a", 5, 0);
    scrapeAfter(10'000);
    EXPECT_DOUBLE_EQ(scalarOf(R"(http_requests_total{code="200"})"), 5);
    // Older than the 5-minute lookback: gone.
    Result<QueryValue> stale
        = evaluateQuery(R"(http_requests_total{code="200"})", m_metrics, m_now + 6 * 60'000);
    ASSERT_TRUE(stale);
    EXPECT_TRUE(stale->vector.empty());
}

} // namespace
} // namespace dra::test
