// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/rest_client.h"

#include <QElapsedTimer>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/kube/discovery.h"
#include "core/kube/watch_stream.h"
#include "core/server/http_message.h"
#include "tests/support/kube_fixture.h"
#include "tests/support/test_cluster.h"

namespace dra::kube {
namespace {

using test::headerLines;
using test::KubeconfigFixtures;
using test::slice;
using test::spinUntil;
using test::TestCluster;

Result<RestResponse> fetch(RestClient &client, const QString &path, const QUrlQuery &query = {})
{
    std::optional<Result<RestResponse>> result;
    QObject context;
    client.get(
        path, query, &context, [&](const Result<RestResponse> &response) { result = response; });
    EXPECT_TRUE(spinUntil([&] { return result.has_value(); }));
    return result.value_or(fail(common::Error::Code::Internal, QStringLiteral("no answer")));
}

std::string message(const Result<RestResponse> &response)
{
    return response ? std::string("(succeeded)") : response.error().message.toStdString();
}

TEST(RestClientTest, TalksTlsVerifiedAgainstTheClusterCaWithTheToken)
{
    TestCluster cluster;
    RestClient client(cluster.clientConfig());
    Result<RestResponse> version = fetch(client, QStringLiteral("/version"));
    ASSERT_TRUE(version.has_value()) << message(version);
    EXPECT_NE(version->body.indexOf("gitVersion"), -1);
    // Gzip is asked for (Qt inflates transparently).
    EXPECT_NE(cluster.requestLog.back().header("accept-encoding").find("gzip"), std::string::npos);
    EXPECT_EQ(
        cluster.requestLog.back().header("authorization"), std::string("Bearer ") + test::kToken);
}

TEST(RestClientTest, AServerCertificateFromAnotherCaIsRefusedNamingTheContext)
{
    TestCluster cluster;
    ClientConfig config = cluster.clientConfig();
    config.caCertificates = { QSslCertificate(test::makeCa("someone-else").certificate) };
    RestClient client(config);
    Result<RestResponse> version = fetch(client, QStringLiteral("/version"));
    ASSERT_FALSE(version.has_value());
    EXPECT_EQ(version.error().code, common::Error::Code::Network);
    EXPECT_NE(message(version).find("context \"test\""), std::string::npos) << message(version);
    EXPECT_NE(message(version).find("GET /version"), std::string::npos) << message(version);
    // Worded as kubectl words it, and not worth retrying until the user changes the CA.
    EXPECT_NE(
        message(version).find("x509: certificate signed by unknown authority"), std::string::npos)
        << message(version);
    EXPECT_TRUE(version.error().permanent);
    EXPECT_TRUE(cluster.requests.empty()); // nothing, the token included, reached the server
}

TEST(RestClientTest, ATlsServerNameTheCertificateDoesNotNameIsAPermanentError)
{
    TestCluster cluster;
    ClientConfig config = cluster.clientConfig();
    config.tlsServerName = QStringLiteral("api.elsewhere.example");
    RestClient client(config);
    Result<RestResponse> version = fetch(client, QStringLiteral("/version"));
    ASSERT_FALSE(version.has_value());
    EXPECT_TRUE(version.error().permanent);
    EXPECT_NE(message(version).find("not api.elsewhere.example"), std::string::npos)
        << message(version);
    EXPECT_NE(message(version).find("127.0.0.1"), std::string::npos) << message(version);
    EXPECT_TRUE(cluster.requests.empty());
}

TEST(RestClientTest, RefusedConnectionsAndServerErrorsAreTransient)
{
    TestCluster cluster;
    RestClient client(cluster.clientConfig());
    cluster.failNext("/version", 503);
    Result<RestResponse> unavailable = fetch(client, QStringLiteral("/version"));
    ASSERT_FALSE(unavailable.has_value());
    EXPECT_FALSE(unavailable.error().permanent) << message(unavailable);
    cluster.failNext("/version", 429);
    Result<RestResponse> busy = fetch(client, QStringLiteral("/version"));
    ASSERT_FALSE(busy.has_value());
    EXPECT_FALSE(busy.error().permanent) << message(busy);

    cluster.stop();
    Result<RestResponse> refused = fetch(client, QStringLiteral("/version"));
    ASSERT_FALSE(refused.has_value());
    EXPECT_FALSE(refused.error().permanent) << message(refused);
}

TEST(RestClientTest, RefusedCredentialsAndAMissingExecPluginArePermanent)
{
    TestCluster cluster;
    ClientConfig wrong = cluster.clientConfig();
    wrong.token = QStringLiteral("wrong");
    RestClient unauthorized(wrong);
    Result<RestResponse> denied = fetch(unauthorized, QStringLiteral("/api/v1/namespaces"));
    ASSERT_FALSE(denied.has_value());
    EXPECT_TRUE(denied.error().permanent) << message(denied);

    const size_t requestsBefore = cluster.requests.size();
    ClientConfig config = cluster.clientConfig();
    config.token.clear();
    ExecConfig exec;
    exec.command = QStringLiteral("/nonexistent/dra-test-credential-plugin");
    exec.apiVersion = QStringLiteral("client.authentication.k8s.io/v1beta1");
    config.exec = exec;
    RestClient client(config);
    Result<RestResponse> version = fetch(client, QStringLiteral("/version"));
    ASSERT_FALSE(version.has_value());
    EXPECT_TRUE(version.error().permanent) << message(version);
    EXPECT_NE(message(version).find("dra-test-credential-plugin"), std::string::npos)
        << message(version);
    EXPECT_EQ(cluster.requests.size(), requestsBefore); // nothing was sent without credentials
}

// The values of header `lowerName` in `request`, one per line received.
TEST(RestClientTest, EachImpersonatedGroupGoesOnALineOfItsOwnOnEveryKindOfRequest)
{
    TestCluster cluster;
    ClientConfig config = cluster.clientConfig();
    config.impersonateUser = QStringLiteral("jane");
    config.impersonateGroups = { QStringLiteral("ml-team"), QStringLiteral("gpu-admins") };
    config.impersonateExtra
        = { { QStringLiteral("reason"), { QStringLiteral("audit"), QStringLiteral("rollout") } } };
    RestClient client(config);
    const std::vector<std::string> groups { "ml-team", "gpu-admins" };
    const std::vector<std::string> reasons { "audit", "rollout" };

    // A list.
    cluster.put({ slice("s1", "n1") });
    Result<RestResponse> list
        = fetch(client, QStringLiteral("/apis/resource.k8s.io/v1/resourceslices"));
    ASSERT_TRUE(list.has_value()) << message(list);
    EXPECT_NE(list->body.indexOf("\"s1\""), -1); // the response is read whole, too
    ASSERT_FALSE(cluster.requestLog.empty());
    EXPECT_EQ(headerLines(cluster.requestLog.back(), "impersonate-group"), groups);
    EXPECT_EQ(headerLines(cluster.requestLog.back(), "impersonate-user"),
        std::vector<std::string> { "jane" });
    EXPECT_EQ(headerLines(cluster.requestLog.back(), "impersonate-extra-reason"), reasons);
    EXPECT_EQ(
        cluster.requestLog.back().header("authorization"), std::string("Bearer ") + test::kToken);

    // A watch, whose events arrive as they happen.
    QObject owner;
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("timeoutSeconds"), QStringLiteral("60"));
    WatchStream *watch = client.watch(
        QStringLiteral("/apis/resource.k8s.io/v1/resourceslices"), query, 90000, &owner);
    std::vector<std::string> names;
    bool opened = false;
    QObject::connect(watch, &WatchStream::opened, &owner, [&] { opened = true; });
    QObject::connect(
        watch, &WatchStream::events, &owner, [&](const std::vector<WatchEvent> &events) {
            for (const WatchEvent &event : events)
                names.push_back(event.object["metadata"].value("name", ""));
        });
    ASSERT_TRUE(spinUntil([&] { return opened; }));
    cluster.put({ slice("s2", "n2") });
    ASSERT_TRUE(spinUntil([&] { return std::ranges::find(names, "s2") != names.end(); }));
    const auto watchRequest = std::ranges::find_if(cluster.requestLog,
        [](const server::Request &request) { return request.query.contains("watch"); });
    ASSERT_NE(watchRequest, cluster.requestLog.end());
    EXPECT_EQ(headerLines(*watchRequest, "impersonate-group"), groups);

    // A write, its body intact.
    RestRequest patch;
    patch.method = "PATCH";
    patch.path = QStringLiteral("/apis/resource.k8s.io/v1/resourceslices/s1");
    patch.contentType = "application/merge-patch+json";
    patch.body = R"({"metadata":{"labels":{"tier":"b"}}})";
    std::optional<Result<RestResponse>> patched;
    client.send(patch, &owner, [&](const Result<RestResponse> &response) { patched = response; });
    ASSERT_TRUE(spinUntil([&] { return patched.has_value(); }));
    const server::Request &write = cluster.requestLog.back();
    EXPECT_EQ(write.method, "PATCH");
    EXPECT_EQ(write.body, patch.body);
    EXPECT_EQ(write.header("content-type"), "application/merge-patch+json");
    EXPECT_EQ(headerLines(write, "impersonate-group"), groups);
}

// A cluster that answers the first `times` requests for `needle` with `status` and a Retry-After
// of `seconds`.
void refuseWithRetryAfter(TestCluster &cluster, const std::string &needle, int status, int seconds,
    int times, int &refused)
{
    cluster.intercept = [=, &refused](
                            server::Request &request, server::HttpConnection &connection) {
        if (request.target.find(needle) == std::string::npos || refused >= times)
            return false;
        ++refused;
        connection.respond(server::Response { status, "application/json",
            { { "retry-after", std::to_string(seconds) } },
            R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"TooManyRequests","code":429})" });
        return true;
    };
}

TEST(RestClientTest, ARetryAfterIsWaitedOutAndTheRequestSentAgain)
{
    TestCluster cluster;
    int refused = 0;
    refuseWithRetryAfter(cluster, "/version", 429, 1, 2, refused);
    RestClient client(cluster.clientConfig());
    QElapsedTimer took;
    took.start();
    Result<RestResponse> version = fetch(client, QStringLiteral("/version"));
    ASSERT_TRUE(version.has_value()) << message(version);
    EXPECT_EQ(refused, 2);
    EXPECT_GE(took.elapsed(), 2000) << "each answer asked for a second's wait";
}

TEST(RestClientTest, AServerThatKeepsRefusingOrAsksTooMuchEndsTheRequestWithItsWait)
{
    TestCluster cluster;
    int refused = 0;
    // Longer than the request's own timeout: not waited here; the caller's backoff takes it.
    refuseWithRetryAfter(cluster, "/version", 503, 120, 1000, refused);
    RestClient client(cluster.clientConfig());
    Result<RestResponse> version = fetch(client, QStringLiteral("/version"));
    ASSERT_FALSE(version.has_value());
    EXPECT_EQ(refused, 1);
    EXPECT_EQ(version.error().retryAfterMs, 120'000);
    EXPECT_FALSE(version.error().permanent);

    // A short wait asked again and again: tried kRetryAfterAttempts more times, then given up.
    refused = 0;
    refuseWithRetryAfter(cluster, "/version", 429, 1, 1000, refused);
    version = fetch(client, QStringLiteral("/version"));
    ASSERT_FALSE(version.has_value());
    EXPECT_EQ(refused, 1 + RestClient::kRetryAfterAttempts);
    EXPECT_EQ(version.error().code, common::Error::Code::Busy);

    // Without a Retry-After nothing is sent again behind the caller's back.
    refused = 0;
    cluster.failNext("/version", 429);
    version = fetch(client, QStringLiteral("/version"));
    ASSERT_FALSE(version.has_value());
    EXPECT_EQ(version.error().retryAfterMs, 0);
}

TEST(RestClientTest, InsecureSkipTlsVerifyConnectsWithoutTheCa)
{
    TestCluster cluster;
    ClientConfig config = cluster.clientConfig();
    config.caCertificates.clear();
    config.insecureSkipTlsVerify = true;
    RestClient client(config);
    EXPECT_TRUE(fetch(client, QStringLiteral("/version")).has_value());
}

TEST(RestClientTest, ErrorsCarryTheDecodedStatus)
{
    TestCluster cluster;
    RestClient client(cluster.clientConfig());
    Result<RestResponse> missing
        = fetch(client, QStringLiteral("/apis/resource.k8s.io/v1/deviceclasses/nope"));
    ASSERT_FALSE(missing.has_value());
    EXPECT_EQ(missing.error().code, common::Error::Code::NotFound);
    EXPECT_NE(message(missing).find(
                  "deviceclasses.resource.k8s.io \"nope\" not found (NotFound, HTTP 404)"),
        std::string::npos)
        << message(missing);

    ClientConfig wrong = cluster.clientConfig();
    wrong.token = QStringLiteral("wrong");
    RestClient unauthorized(wrong);
    Result<RestResponse> denied = fetch(unauthorized, QStringLiteral("/api/v1/namespaces"));
    ASSERT_FALSE(denied.has_value());
    EXPECT_EQ(denied.error().code, common::Error::Code::Unauthorized);
}

TEST(RestClientTest, ClientCertificatesAuthenticateTheTlsHandshake)
{
    TestCluster cluster(TestCluster::Options { .requireClientCertificate = true, .token = "" });
    ClientConfig config = cluster.clientConfig();
    config.token.clear();
    {
        RestClient anonymous(config);
        EXPECT_FALSE(fetch(anonymous, QStringLiteral("/version")).has_value());
    }
    for (const test::Pem *pem :
        { &KubeconfigFixtures::rsaClient(), &KubeconfigFixtures::ecClient() }) {
        ClientConfig withCertificate = config;
        withCertificate.clientCertificateChain = { QSslCertificate(pem->certificate) };
        withCertificate.clientKey = QSslKey(
            pem->keyTraditional, pem == &KubeconfigFixtures::rsaClient() ? QSsl::Rsa : QSsl::Ec);
        RestClient client(withCertificate);
        Result<RestResponse> version = fetch(client, QStringLiteral("/version"));
        EXPECT_TRUE(version.has_value()) << message(version);
    }
}

TEST(RestClientTest, ExecPluginRunsAgainAfterA401AndTheRequestIsRetried)
{
    TestCluster cluster;
    QTemporaryDir dir;
    // First run: a stale token; later runs: the right one.
    test::writeFile(dir.filePath(QStringLiteral("plugin.sh")),
        QByteArray("#!/bin/sh\nn=$(cat \"$STATE/count\" 2>/dev/null || echo 0); n=$((n + 1)); echo "
                   "$n > \"$STATE/count\"\n"
                   "token=stale; [ \"$n\" -gt 1 ] && token=")
            + test::kToken
            + "\nprintf "
              "'{\"apiVersion\":\"client.authentication.k8s.io/"
              "v1beta1\",\"kind\":\"ExecCredential\","
              "\"status\":{\"token\":\"%s\"}}' \"$token\"\n",
        true);
    ClientConfig config = cluster.clientConfig();
    config.token.clear();
    ExecConfig exec;
    exec.command = dir.filePath(QStringLiteral("plugin.sh"));
    exec.apiVersion = QStringLiteral("client.authentication.k8s.io/v1beta1");
    exec.env = { { QStringLiteral("STATE"), dir.path() } };
    config.exec = exec;
    RestClient client(config);
    Result<RestResponse> namespaces = fetch(client, QStringLiteral("/api/v1/namespaces"));
    ASSERT_TRUE(namespaces.has_value()) << message(namespaces);
    EXPECT_EQ(client.credentials().execPlugin()->runs(), 2);
    EXPECT_EQ(cluster.requests.size(), 2u); // one 401, one success
    // The fresh credential is cached: no third run.
    EXPECT_TRUE(fetch(client, QStringLiteral("/api/v1/namespaces")).has_value());
    EXPECT_EQ(client.credentials().execPlugin()->runs(), 2);
}

TEST(RestClientTest, A401AfterTheExecPluginRanAgainIsPermanent)
{
    TestCluster cluster;
    QTemporaryDir dir;
    test::writeFile(dir.filePath(QStringLiteral("plugin.sh")),
        "#!/bin/sh\nprintf '{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\","
        "\"kind\":\"ExecCredential\",\"status\":{\"token\":\"revoked\"}}'\n",
        true);
    ClientConfig config = cluster.clientConfig();
    config.token.clear();
    ExecConfig exec;
    exec.command = dir.filePath(QStringLiteral("plugin.sh"));
    exec.apiVersion = QStringLiteral("client.authentication.k8s.io/v1beta1");
    config.exec = exec;
    RestClient client(config);
    Result<RestResponse> namespaces = fetch(client, QStringLiteral("/api/v1/namespaces"));
    ASSERT_FALSE(namespaces.has_value());
    EXPECT_EQ(client.credentials().execPlugin()->runs(), 2); // a fresh credential was tried
    EXPECT_EQ(namespaces.error().code, common::Error::Code::Unauthorized);
    EXPECT_TRUE(namespaces.error().permanent) << message(namespaces);
}

TEST(RestClientTest, ManyOpenWatchesDoNotStarveOrdinaryRequests)
{
    TestCluster cluster;
    RestClient client(cluster.clientConfig());
    QObject owner;
    std::vector<WatchStream *> watches;
    int opened = 0;
    // More long-lived watches than Qt's six connections per host.
    for (int i = 0; i < 10; ++i) {
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("timeoutSeconds"), QStringLiteral("60"));
        WatchStream *watch = client.watch(
            QStringLiteral("/apis/resource.k8s.io/v1/resourceslices"), query, 90000, &owner);
        QObject::connect(watch, &WatchStream::opened, &owner, [&] { ++opened; });
        watches.push_back(watch);
    }
    ASSERT_TRUE(spinUntil([&] { return opened == 10; })) << opened << " of 10 watches opened";
    Result<RestResponse> version = fetch(client, QStringLiteral("/version"));
    EXPECT_TRUE(version.has_value()) << message(version);
}

TEST(RestClientTest, DisableCompressionAsksForIdentity)
{
    TestCluster cluster;
    ClientConfig config = cluster.clientConfig();
    config.disableCompression = true;
    RestClient client(config);
    ASSERT_TRUE(fetch(client, QStringLiteral("/version")).has_value());
    EXPECT_EQ(cluster.requestLog.back().header("accept-encoding"), "identity");
}

TEST(DiscoveryTest, FindsServedVersionsAndThePathOfEachKind)
{
    TestCluster cluster;
    RestClient client(cluster.clientConfig());
    std::optional<Result<ApiDiscovery>> result;
    QObject context;
    discover(client, &context, [&](const Result<ApiDiscovery> &discovery) { result = discovery; });
    ASSERT_TRUE(spinUntil([&] { return result.has_value(); }));
    ASSERT_TRUE(result->has_value()) << result->error().message.toStdString();
    const ApiDiscovery &discovery = **result;
    EXPECT_FALSE(discovery.gitVersion.isEmpty());
    ASSERT_FALSE(discovery.resourceVersions.isEmpty());
    EXPECT_EQ(discovery.resourceVersions.first(), QStringLiteral("v1")); // the newest first
    EXPECT_EQ(discovery.apiVersionOf(model::Kind::ResourceSlice), "resource.k8s.io/v1");
    EXPECT_EQ(discovery.apiVersionOf(model::Kind::Pod), "v1");
    const model::KindInfo &claims = model::kindInfo(model::Kind::ResourceClaim);
    EXPECT_EQ(discovery.collectionPath(claims, "ml"),
        QStringLiteral("/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims"));
    EXPECT_EQ(discovery.collectionPath(claims, ""),
        QStringLiteral("/apis/resource.k8s.io/v1/resourceclaims"));
}

TEST(DiscoveryTest, PrefersTheNewestServedVersion)
{
    TestCluster cluster;
    cluster.intercept = [](server::Request &request, server::HttpConnection &connection) {
        auto answer = [&](const nlohmann::json &body) {
            connection.respond(server::Response {
                200, "application/json", {}, QByteArray::fromStdString(body.dump()) });
            return true;
        };
        if (request.path == "/apis/resource.k8s.io")
            return answer({ { "kind", "APIGroup" }, { "name", "resource.k8s.io" },
                { "versions",
                    { { { "version", "v1beta1" } }, { { "version", "v1beta2" } },
                        { { "version", "v1alpha3" } } } } });
        if (request.path == "/apis/resource.k8s.io/v1beta2")
            return answer({ { "resources",
                { { { "name", "resourceslices" } }, { { "name", "deviceclasses" } } } } });
        if (request.path == "/apis/resource.k8s.io/v1beta1")
            return answer({ { "resources",
                { { { "name", "resourceslices" } }, { { "name", "resourceclaims" } } } } });
        if (request.path == "/apis/resource.k8s.io/v1alpha3")
            return answer({ { "resources",
                { { { "name", "devicetaintrules" } }, { { "name", "resourceclaims" } } } } });
        return false;
    };
    RestClient client(cluster.clientConfig());
    std::optional<Result<ApiDiscovery>> result;
    QObject context;
    discover(client, &context, [&](const Result<ApiDiscovery> &discovery) { result = discovery; });
    ASSERT_TRUE(spinUntil([&] { return result.has_value(); }));
    ASSERT_TRUE(result->has_value()) << result->error().message.toStdString();
    EXPECT_EQ((*result)->resourceVersions,
        (QStringList {
            QStringLiteral("v1beta2"), QStringLiteral("v1beta1"), QStringLiteral("v1alpha3") }));
    EXPECT_EQ((*result)->apiVersionOf(model::Kind::ResourceSlice), "resource.k8s.io/v1beta2");
    EXPECT_EQ((*result)->apiVersionOf(model::Kind::ResourceClaim), "resource.k8s.io/v1beta1");
    EXPECT_EQ((*result)->apiVersionOf(model::Kind::DeviceTaintRule), "resource.k8s.io/v1alpha3");
    EXPECT_EQ((*result)->apiVersionOf(model::Kind::ResourceClaimTemplate), ""); // not served
}

} // namespace
} // namespace dra::kube
