// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The demo traffic source sends requests through HTTPRoutes to real pod sockets, and the demo
// Prometheus answers queries about them through the API server's service proxy.
#include "core/sandbox/traffic_source.h"

#include "core/sandbox/control_plane.h"
#include "core/sandbox/metric_query.h"
#include "core/sandbox/service_proxy.h"
#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "tests/core/sandbox/control_plane_harness.h"
#include "tests/support/api_test_support.h"

namespace dra::test {
namespace {

using nlohmann::json;

constexpr const char *kProxyToken = "proxy-token";

json route(const std::string &ns, const std::string &name,
    const std::vector<std::pair<std::string, int>> &backends, const std::string &mirror = {},
    int mirrorPercent = 100)
{
    json refs = json::array();
    for (const auto &[service, weight] : backends)
        refs.push_back({ { "name", service }, { "port", 80 }, { "weight", weight } });
    json rule = { { "backendRefs", std::move(refs) } };
    if (!mirror.empty())
        rule["filters"] = json::array({ { { "type", "RequestMirror" },
            { "requestMirror",
                { { "backendRef", { { "name", mirror }, { "port", 80 } } },
                    { "percent", mirrorPercent } } } } });
    return { { "apiVersion", "gateway.networking.k8s.io/v1" }, { "kind", "HTTPRoute" },
        { "metadata", { { "name", name }, { "namespace", ns } } },
        { "spec", { { "rules", json::array({ rule }) } } } };
}

class TrafficSourceTest : public ControlPlaneHarness
{
protected:
    void SetUp() override
    {
        m_options.podResponders = true;
        m_options.trafficRequestsPerSecond = 0; // rounds are sent by hand
        ControlPlaneHarness::SetUp();
    }

    // Deployments `names` of one pod each behind Services of the same names, running.
    void serve(const std::vector<std::string> &names)
    {
        for (const std::string &name : names) {
            put(webDeployment("inference", name, 1));
            put(service("inference", name));
        }
        settle();
        for (const std::string &name : names) {
            const std::vector<json> pods = podsOf("inference", name);
            ASSERT_EQ(pods.size(), 1u) << name;
            ASSERT_EQ(pods[0]["status"].value("phase", ""), "Running") << pods[0].dump();
        }
    }
    // Sends `rounds` requests through every route and waits for every answer.
    void sendRounds(int rounds)
    {
        ASSERT_TRUE(plane().runPass()); // the traffic source reads the routes of the pass
        for (int i = 0; i < rounds; ++i) {
            plane().traffic().sendRound();
            server::test::spinUntil([&] { return plane().traffic().inFlight() == 0; });
        }
        m_clock.advance(10'000);
        plane().traffic().scrape();
    }
    double requests(const std::string &deployment, const std::string &code)
    {
        Result<sandbox::QueryValue> value = sandbox::evaluateQuery(
            "sum(http_requests_total{deployment=\"" + deployment + "\",code=\"" + code + "\"})",
            plane().metrics(), m_clock.nowMs());
        EXPECT_TRUE(value);
        return value && !value->vector.empty() ? value->vector.front().value : 0;
    }
};

TEST_F(TrafficSourceTest, WeightsSplitRequestsAsTheRouteSays)
{
    serve({ "stable", "canary" });
    put(route("inference", "app", { { "stable", 80 }, { "canary", 20 } }));
    sendRounds(50);
    EXPECT_EQ(requests("stable", "200"), 40);
    EXPECT_EQ(requests("canary", "200"), 10);
    EXPECT_EQ(requests("stable", "500"), 0);
}

TEST_F(TrafficSourceTest, MirrorCopiesItsPercentOfRequests)
{
    serve({ "stable", "shadow" });
    put(route("inference", "app", { { "stable", 1 } }, "shadow", 50));
    sendRounds(40);
    EXPECT_EQ(requests("stable", "200"), 40);
    EXPECT_EQ(requests("shadow", "200"), 20);
}

TEST_F(TrafficSourceTest, AnInjectedHttp500IsMeasuredAsErrors)
{
    serve({ "stable", "canary" });
    put(route("inference", "app", { { "stable", 50 }, { "canary", 50 } }));
    plane().faults().add({ sandbox::FaultKind::Http500, "inference", "canary" });
    sendRounds(20);
    EXPECT_EQ(requests("canary", "500"), 10);
    EXPECT_EQ(requests("canary", "200"), 0);
    EXPECT_EQ(requests("stable", "200"), 10);
}

TEST_F(TrafficSourceTest, PodsThatAreNotReadyGetNoRequests)
{
    plane().faults().add({ sandbox::FaultKind::NeverReady, "inference", "canary" });
    put(webDeployment("inference", "stable", 1));
    put(service("inference", "stable"));
    put(webDeployment("inference", "canary", 1));
    put(service("inference", "canary"));
    settle();
    put(route("inference", "app", { { "stable", 50 }, { "canary", 50 } }));
    sendRounds(20);
    EXPECT_EQ(requests("stable", "200"), 10);
    EXPECT_EQ(requests("canary", "200"), 0); // kube-proxy sends nothing to an unready pod
}

class ServiceProxyTest : public TrafficSourceTest
{
protected:
    void SetUp() override
    {
        TrafficSourceTest::SetUp();
        if (HasFatalFailure())
            return;
        startApiServer(kProxyToken);
    }
    server::test::Reply get(const std::string &target, const std::string &token = kProxyToken)
    {
        return server::test::exchange(
            m_http->port(), server::test::httpRequest("GET", target, token));
    }
};

TEST_F(ServiceProxyTest, PrometheusAnswersThroughTheServiceProxy)
{
    serve({ "stable", "canary", "prometheus" });
    put(route("inference", "app", { { "stable", 3 }, { "canary", 1 } }));
    plane().faults().add({ sandbox::FaultKind::Http500, "inference", "canary" });
    sendRounds(4); // a first sample of every series
    sendRounds(36);
    const std::string query
        = "sum(rate(http_requests_total{deployment=\"canary\",code=~\"5..\"}[1m]))"
          "+/+sum(rate(http_requests_total{deployment=\"canary\"}[1m]))"; // + is a space, as
                                                                          // kubectl sends it
    const server::test::Reply reply = get(
        "/api/v1/namespaces/inference/services/prometheus:80/proxy/api/v1/query?query=" + query);
    ASSERT_EQ(reply.status, 200) << reply.text;
    EXPECT_EQ(reply.body["status"], "success");
    ASSERT_EQ(reply.body["data"]["result"].size(), 1u) << reply.text;
    EXPECT_EQ(reply.body["data"]["result"][0]["value"][1], "1");
    // A bad query is Prometheus' 400, passed through as it is.
    EXPECT_EQ(get("/api/v1/namespaces/inference/services/http:prometheus:http/proxy/api/v1/"
                  "query?query=sum(")
                  .status,
        400);
}

TEST_F(ServiceProxyTest, ReachesAnyPodServiceAndSaysWhenNoneIsReady)
{
    serve({ "stable" });
    const server::test::Reply reply
        = get("/api/v1/namespaces/inference/services/stable/proxy/v1/health");
    ASSERT_EQ(reply.status, 200) << reply.text;
    EXPECT_EQ(reply.body["namespace"], "inference");
    EXPECT_EQ(reply.body["pod"], podsOf("inference", "stable")[0]["metadata"]["name"]);

    const server::test::Reply missing = get("/api/v1/namespaces/inference/services/nobody/proxy/");
    EXPECT_EQ(missing.status, 404);
    EXPECT_EQ(missing.body["message"], "services \"nobody\" not found");
    put(service("inference", "nobody"));
    const server::test::Reply none = get("/api/v1/namespaces/inference/services/nobody/proxy/");
    EXPECT_EQ(none.status, 503);
    EXPECT_EQ(none.body["message"], "no endpoints available for service \"nobody\"");
    // Only the caller with credentials gets through.
    EXPECT_EQ(get("/api/v1/namespaces/inference/services/stable/proxy/", "wrong").status, 401);
    // Other namespaced paths are the API server's own.
    EXPECT_EQ(get("/api/v1/namespaces/inference/services/stable").body["kind"], "Service");
}

TEST(ServiceProxyTargetTest, SplitsSchemeNamePortAndPath)
{
    const auto target = sandbox::serviceProxyTarget(
        "/api/v1/namespaces/monitoring/services/https:prometheus:9090/proxy/api/v1/query");
    ASSERT_TRUE(target);
    EXPECT_EQ(target->ns, "monitoring");
    EXPECT_EQ(target->service, "prometheus");
    EXPECT_EQ(target->port, "9090");
    EXPECT_EQ(target->path, "/api/v1/query");
    EXPECT_EQ(sandbox::serviceProxyTarget("/api/v1/namespaces/monitoring/services/prometheus/proxy")
                  ->path,
        "/");
    EXPECT_FALSE(sandbox::serviceProxyTarget("/api/v1/namespaces/monitoring/services/prometheus"));
    EXPECT_FALSE(
        sandbox::serviceProxyTarget("/api/v1/namespaces/monitoring/pods/prometheus/proxy"));
    EXPECT_FALSE(
        sandbox::serviceProxyTarget("/api/v1/namespaces/monitoring/services/prometheus/proxyx"));
}

} // namespace
} // namespace dra::test
