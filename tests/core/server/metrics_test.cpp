// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// /metrics in Prometheus' text format: request counts and latency, a mirror's streams.
#include <gtest/gtest.h>

#include "core/server/mirror_metrics.h"
#include "core/server/request_metrics.h"

namespace dra::server {
namespace {

bool hasLine(const std::string &text, const std::string &line)
{
    return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

TEST(RequestMetricsTest, CountsByVerbResourceAndCodeWithCumulativeBuckets)
{
    RequestMetrics metrics;
    // Binary fractions, so that the sum is exact.
    metrics.record("LIST", "resourceslices.resource.k8s.io", 200, 0.00390625);
    metrics.record("LIST", "resourceslices.resource.k8s.io", 200, 0.25);
    metrics.record("LIST", "resourceslices.resource.k8s.io", 403, 0.0009765625);
    metrics.record("GET", "", 200, 120);
    const std::string text = metrics.text();

    EXPECT_TRUE(hasLine(text, "# TYPE draconsole_apiserver_request_total counter")) << text;
    EXPECT_TRUE(hasLine(text,
        R"(draconsole_apiserver_request_total{verb="LIST",resource="resourceslices.resource.k8s.io",code="200"} 2)"))
        << text;
    EXPECT_TRUE(hasLine(text,
        R"(draconsole_apiserver_request_total{verb="LIST",resource="resourceslices.resource.k8s.io",code="403"} 1)"));
    const std::string list = R"(verb="LIST",resource="resourceslices.resource.k8s.io")";
    // Buckets count every request at or below their bound.
    EXPECT_TRUE(hasLine(
        text, "draconsole_apiserver_request_duration_seconds_bucket{" + list + R"(,le="0.001"} 1)"))
        << text;
    EXPECT_TRUE(hasLine(text,
        "draconsole_apiserver_request_duration_seconds_bucket{" + list + R"(,le="0.005"} 2)"));
    EXPECT_TRUE(hasLine(
        text, "draconsole_apiserver_request_duration_seconds_bucket{" + list + R"(,le="0.1"} 2)"));
    EXPECT_TRUE(hasLine(
        text, "draconsole_apiserver_request_duration_seconds_bucket{" + list + R"(,le="0.25"} 3)"));
    EXPECT_TRUE(hasLine(
        text, "draconsole_apiserver_request_duration_seconds_bucket{" + list + R"(,le="+Inf"} 3)"));
    EXPECT_TRUE(
        hasLine(text, "draconsole_apiserver_request_duration_seconds_count{" + list + "} 3"));
    EXPECT_TRUE(hasLine(
        text, "draconsole_apiserver_request_duration_seconds_sum{" + list + "} 0.2548828125"))
        << text;
    // Past the last bound: only +Inf holds it.
    EXPECT_TRUE(hasLine(text,
        R"(draconsole_apiserver_request_duration_seconds_bucket{verb="GET",resource="",le="60"} 0)"));
    EXPECT_TRUE(hasLine(text,
        R"(draconsole_apiserver_request_duration_seconds_bucket{verb="GET",resource="",le="+Inf"} 1)"));
}

TEST(RequestMetricsTest, LabelValuesAreEscaped)
{
    EXPECT_EQ(prometheus::escapeLabel("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
}

TEST(MirrorMetricsTest, EachStreamHasItsStateObjectsLagAndCounters)
{
    kube::StreamHealth health;
    kube::StreamStatus claims;
    claims.kind = model::Kind::ResourceClaim;
    claims.ns = "ml";
    claims.state = kube::StreamState::Watching;
    claims.objects = 7;
    health.update(claims, 1'000);
    claims.state = kube::StreamState::Stale;
    health.update(claims, 2'000);
    const std::string text = mirrorMetrics(health, 3'500);
    const std::string labels = R"(kind="ResourceClaim",namespace="ml")";
    EXPECT_TRUE(hasLine(text, "draconsole_mirror_stream_state{" + labels + R"(,state="stale"} 1)"))
        << text;
    EXPECT_TRUE(
        hasLine(text, "draconsole_mirror_stream_state{" + labels + R"(,state="watching"} 0)"));
    EXPECT_TRUE(hasLine(text, "draconsole_mirror_stream_objects{" + labels + "} 7"));
    EXPECT_TRUE(hasLine(text, "draconsole_mirror_stream_lag_seconds{" + labels + "} 1.5")) << text;
    EXPECT_TRUE(hasLine(text, "draconsole_mirror_stream_watch_restarts_total{" + labels + "} 1"));
    EXPECT_TRUE(hasLine(text, "draconsole_mirror_stream_relists_total{" + labels + "} 0"));
}

} // namespace
} // namespace dra::server
