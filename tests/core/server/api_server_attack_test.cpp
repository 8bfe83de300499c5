// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The served API as an attacker meets it: every route the server has, asked without the token
// or with a wrong one; WebSockets opened by pages of other sites; paths under /ui/ that try to
// climb out of the web console's files.
#include "core/server/api_server.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/model/object.h"
#include "core/model/record_codec.h"
#include "core/server/http_server.h"
#include "tests/support/api_test_support.h"

namespace dra::server::api_attack {
namespace {

using test::RawClient;
using test::spinUntil;

constexpr const char *kToken = "s3cret-token";
// In every object the cache holds, and in what the extra handler answers: a reply that
// contains it carries data.
constexpr const char *kMarker = "zz-private";

nlohmann::json slice(const std::string &name)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceSlice" },
        { "metadata",
            { { "name", name }, { "uid", "uid-" + name }, { "resourceVersion", "7" },
                { "creationTimestamp", "2026-11-30T07:00:00Z" } } },
        { "spec",
            { { "driver", "gpu.example.com" }, { "nodeName", std::string(kMarker) + "-node" },
                { "pool",
                    { { "name", std::string(kMarker) + "-pool" }, { "generation", 1 },
                        { "resourceSliceCount", 1 } } },
                { "devices", { { { "name", "gpu-0" } } } } } } };
}

nlohmann::json claim(const std::string &name)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata",
            { { "name", name }, { "namespace", "ml" }, { "uid", "uid-" + name },
                { "resourceVersion", "8" }, { "creationTimestamp", "2026-11-30T07:00:00Z" } } },
        { "spec",
            { { "devices",
                { { "requests",
                    { { { "name", "gpu" },
                        { "exactly", { { "deviceClassName", "gpu.example.com" } } } } } } } } } } };
}

const std::string kSliceName = std::string(kMarker) + "-slice";
const std::string kClaimName = std::string(kMarker) + "-claim";

// The status line's code of the first answer on a fresh connection (0: none came).
int statusOf(quint16 port, const std::string &bytes)
{
    RawClient client(port);
    client.send(QByteArray::fromStdString(bytes));
    if (!client.waitFor("\r\n"))
        return 0;
    return client.received().mid(9, 3).toInt();
}

class ApiServerAttackTest : public testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        test::SeededCache cache = test::seedCache(m_dir.filePath(QStringLiteral("cache.db")),
            "test", { slice(kSliceName), claim(kClaimName) });
        ASSERT_TRUE(cache.writer && cache.reader);
        m_writer = std::move(cache.writer);
        m_reader = std::move(cache.reader);

        // The web console's files, with a file beside (outside) them that must never be served.
        ASSERT_TRUE(QDir(m_dir.path()).mkpath(QStringLiteral("web")));
        writeFile(QStringLiteral("web/index.html"), "<html>console page</html>");
        writeFile(QStringLiteral("web/app.js"), "console script");
        writeFile(QStringLiteral("web/.hidden.js"), "OUTSIDE-SECRET hidden");
        writeFile(QStringLiteral("secret.html"), "OUTSIDE-SECRET beside");
        writeFile(QStringLiteral("secret.js"), "OUTSIDE-SECRET beside");
    }

    void writeFile(const QString &name, const QByteArray &text)
    {
        QFile file(m_dir.filePath(name));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text);
    }

    // Serves the cache writable, with `token` (empty: --no-auth), an extra handler under
    // /draconsole/test/ (as --test-hooks and the demo add) and the web files above.
    void serve(const std::string &token)
    {
        ApiServerOptions options;
        options.cluster = "test";
        options.token = token;
        options.pollIntervalMs = 20;
        options.writer = m_writer.get();
        m_http.reset();
        m_api = std::make_unique<ApiServer>(*m_reader, options);
        m_api->setWebConsoleFiles({ m_dir.filePath(QStringLiteral("web")) });
        m_api->setExtraHandler("/draconsole/test/", [](Request &, HttpConnection &connection) {
            connection.respond(Response { 200, "text/plain", {}, QByteArray(kMarker) });
            return true;
        });
        m_http = std::make_unique<HttpServer>(m_api->handler());
        ASSERT_TRUE(m_http->listen(QHostAddress::LocalHost, 0).has_value());
    }

    quint16 port() const { return m_http->port(); }
    std::string host() const { return "127.0.0.1:" + std::to_string(port()); }

    int objectCount(std::string_view kind)
    {
        Result<std::vector<model::ObjectRecord>> objects
            = m_reader->objects("test", "resource.k8s.io", kind);
        return objects ? int(objects->size()) : -1;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<store::CacheDb> m_writer, m_reader;
    std::unique_ptr<ApiServer> m_api;
    std::unique_ptr<HttpServer> m_http;
};

struct Route
{
    const char *method;
    std::string target;
    std::string body;
};

// Every route ApiServer::handle knows (and some it does not: those must not tell an anonymous
// caller that they do not exist either), in reading and writing methods.
std::vector<Route> protectedRoutes()
{
    const std::string slices = "/apis/resource.k8s.io/v1/resourceslices";
    const std::string claims = "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims";
    const std::string newSlice = slice(std::string(kMarker) + "-new").dump();
    return {
        { "GET", "/api", {} },
        { "GET", "/api/v1", {} },
        { "GET", "/api/v1/namespaces", {} },
        { "GET", "/apis", {} },
        { "GET", "/apis/resource.k8s.io", {} },
        { "GET", "/apis/resource.k8s.io/v1", {} },
        { "GET", "/apis/resource.k8s.io/v1beta1/resourceslices", {} },
        { "GET", slices, {} },
        { "GET", slices + "?limit=1", {} },
        { "GET", slices + "/" + kSliceName, {} },
        { "GET", slices + "?watch=true&resourceVersion=0&timeoutSeconds=1", {} },
        { "GET", claims, {} },
        { "GET", claims + "/" + kClaimName, {} },
        { "GET", "/apis/resource.k8s.io/v1/resourceclaims", {} },
        { "GET", "/openapi/v3", {} },
        { "GET", "/openapi/v3/apis/resource.k8s.io/v1", {} },
        { "GET", "/openapi/v2", {} },
        { "GET", "/metrics", {} },
        { "GET", "/debug/pprof/", {} },
        { "GET", "/logs/", {} },
        { "GET", "/nonexistent", {} },
        { "GET", "/healthz/etcd", {} },
        { "GET", "/version/../api", {} },
        { "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews",
            R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})" },
        { "POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            R"({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview",)"
            R"("spec":{"resourceAttributes":{"verb":"list","resource":"resourceslices"}}})" },
        { "POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
            R"({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview",)"
            R"("spec":{"namespace":"ml"}})" },
        { "POST", slices, newSlice },
        { "PUT", slices + "/" + kSliceName, slice(kSliceName).dump() },
        { "PATCH", slices + "/" + kSliceName, R"({"metadata":{"labels":{"x":"y"}}})" },
        { "DELETE", slices + "/" + kSliceName, {} },
        { "DELETE", claims + "/" + kClaimName, {} },
        { "GET", "/console/v1", {} },
        { "GET", "/console/v1/info", {} },
        { "GET", "/console/v1/overview", {} },
        { "GET", "/console/v1/devices", {} },
        { "GET", "/console/v1/claims", {} },
        { "GET", "/console/v1/claims/ml/" + kClaimName, {} },
        { "GET", "/console/v1/topology/" + std::string(kMarker) + "-node", {} },
        { "GET", "/console/v1/free?by=node", {} },
        { "GET", "/console/v1/rollouts", {} },
        { "GET", "/console/v1/ws", {} },
        { "POST", "/console/v1/templates/check", "kind: ResourceClaimTemplate" },
        { "POST", "/draconsole/test/drop-watches", {} },
        { "POST", "/ui/", "x" },
        { "PUT", "/ui/index.html", "x" },
    };
}

// What a caller without the right token sends as credentials.
const std::vector<std::pair<const char *, std::string>> kWrongCredentials = {
    { "no credentials", "" },
    { "a wrong token", "Authorization: Bearer wrong\r\n" },
    { "the token's prefix", "Authorization: Bearer s3cret\r\n" },
    { "the token and more", "Authorization: Bearer s3cret-token-and-more\r\n" },
    { "an empty bearer", "Authorization: Bearer \r\n" },
    { "the token as basic auth", "Authorization: Basic czNjcmV0LXRva2Vu\r\n" },
    { "the token without a scheme", "Authorization: s3cret-token\r\n" },
    { "the token in a bearer subprotocol of a plain request",
        "Sec-WebSocket-Protocol: base64url.bearer.authorization.k8s.io.czNjcmV0LXRva2Vu\r\n" },
};

std::string requestText(const Route &route, const std::string &host, const std::string &credentials)
{
    std::string text = std::string(route.method) + " " + route.target + " HTTP/1.1\r\nHost: " + host
        + "\r\nAccept: application/json\r\n" + credentials;
    if (!route.body.empty() || std::string_view(route.method) != "GET")
        text += "Content-Type: application/json\r\nContent-Length: "
            + std::to_string(route.body.size()) + "\r\n";
    return text + "\r\n" + route.body;
}

TEST_F(ApiServerAttackTest, EveryRouteWantsTheTokenAndTellsNothingWithout)
{
    serve(kToken);
    const int slices = objectCount("ResourceSlice");
    const int claims = objectCount("ResourceClaim");
    ASSERT_EQ(slices, 1);
    for (const Route &route : protectedRoutes()) {
        for (const auto &[what, credentials] : kWrongCredentials) {
            const test::Reply reply
                = test::exchange(port(), requestText(route, host(), credentials));
            EXPECT_EQ(reply.status, 401) << route.method << " " << route.target << ", " << what;
            EXPECT_EQ(reply.text.find(kMarker), std::string::npos)
                << route.method << " " << route.target << ": " << reply.text;
            EXPECT_EQ(reply.body.value("reason", ""), "Unauthorized") << route.target;
        }
        // HEAD is a GET without the body: its status is what tells.
        if (std::string_view(route.method) == "GET") {
            EXPECT_EQ(statusOf(port(),
                          "HEAD " + route.target + " HTTP/1.1\r\nHost: " + host() + "\r\n\r\n"),
                401)
                << "HEAD " << route.target;
        }
    }
    // Nothing was written either.
    EXPECT_EQ(objectCount("ResourceSlice"), slices);
    EXPECT_EQ(objectCount("ResourceClaim"), claims);
}

std::string upgrade(const std::string &target, const std::string &host,
    const std::string &protocols, const std::string &extra = {})
{
    return "GET " + target + " HTTP/1.1\r\nHost: " + host
        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: "
        + protocols + "\r\n" + extra + "\r\n";
}

std::string bearerProtocol(const std::string &token)
{
    return std::string(kBearerProtocolPrefix)
        + QByteArray::fromStdString(token)
              .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals)
              .toStdString();
}

const std::vector<std::pair<std::string, std::string>> kWebSockets = {
    { "/console/v1/ws", "draconsole.console.v1" },
    { "/apis/resource.k8s.io/v1/resourceslices?watch=true", "base64.binary.k8s.io" },
    { "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims?watch=1", "base64.binary.k8s.io" },
};

TEST_F(ApiServerAttackTest, WebSocketsWantTheTokenToo)
{
    serve(kToken);
    for (const auto &[target, protocol] : kWebSockets) {
        const std::string plain = protocol;
        EXPECT_EQ(statusOf(port(), upgrade(target, host(), plain)), 401) << target;
        EXPECT_EQ(
            statusOf(port(), upgrade(target, host(), plain + ", " + bearerProtocol("wrong"))), 401)
            << target;
        EXPECT_EQ(statusOf(port(),
                      upgrade(target, host(), plain, "Authorization: Bearer not-the-token\r\n")),
            401)
            << target;
        EXPECT_EQ(
            statusOf(port(), upgrade(target, host(), "base64url.bearer.authorization.k8s.io.")),
            401)
            << target;
        // The right token, by header or by subprotocol, opens it.
        EXPECT_EQ(
            statusOf(port(), upgrade(target, host(), plain + ", " + bearerProtocol(kToken))), 101)
            << target;
        EXPECT_EQ(statusOf(port(),
                      upgrade(target, host(), plain,
                          "Authorization: Bearer " + std::string(kToken) + "\r\n")),
            101)
            << target;
    }
}

TEST_F(ApiServerAttackTest, PublicPathsAnswerWithoutTheTokenAndHoldNoData)
{
    serve(kToken);
    for (const char *path : { "/healthz", "/readyz", "/livez", "/version", "/version/",
             "/version?timeout=32s", "/ui/", "/ui/index.html", "/ui/app.js" }) {
        const test::Reply reply = test::exchange(
            port(), "GET " + std::string(path) + " HTTP/1.1\r\nHost: " + host() + "\r\n\r\n");
        EXPECT_EQ(reply.status, 200) << path;
        EXPECT_EQ(reply.text.find(kMarker), std::string::npos) << path << ": " << reply.text;
    }
    EXPECT_EQ(
        test::exchange(port(), "GET /ui HTTP/1.1\r\nHost: " + host() + "\r\n\r\n").status, 301);
}

TEST_F(ApiServerAttackTest, WithoutAuthenticationEveryRouteAnswers)
{
    serve({}); // dractl serve --no-auth
    const test::Reply list = test::exchange(
        port(), requestText({ "GET", "/apis/resource.k8s.io/v1/resourceslices", {} }, host(), {}));
    EXPECT_NE(list.text.find(kMarker), std::string::npos) << list.text;
    for (const Route &route : protectedRoutes()) {
        const test::Reply reply = test::exchange(port(), requestText(route, host(), {}));
        EXPECT_NE(reply.status, 401) << route.method << " " << route.target;
        EXPECT_NE(reply.status, 0) << route.method << " " << route.target;
    }
    for (const auto &[target, protocol] : kWebSockets)
        EXPECT_EQ(statusOf(port(), upgrade(target, host(), protocol)), 101) << target;
}

// A page of another site can make the browser open a WebSocket to us (a browser sends no
// credentials it has not been given, but a page given the token must still not be a
// cross-site one); clients that are not pages send no Origin.
TEST_F(ApiServerAttackTest, AWebSocketFromAnotherOriginIsRefused)
{
    serve(kToken);
    const std::string own = "http://" + host();
    const std::string auth = "Authorization: Bearer " + std::string(kToken) + "\r\n";
    const std::vector<std::string> foreign = {
        "http://evil.example",
        "https://evil.example",
        "null",
        "http://127.0.0.1:" + std::to_string(port() == 1 ? 2 : port() - 1),
        "http://localhost:" + std::to_string(port()),
        "https://" + host(), // the same host and port, another scheme
        "http://127.0.0.1.evil.example:" + std::to_string(port()),
        "http://evil.example/" + host(),
        "file://",
    };
    for (const auto &[target, protocol] : kWebSockets) {
        for (const std::string &origin : foreign)
            EXPECT_EQ(statusOf(port(),
                          upgrade(target, host(), protocol, auth + "Origin: " + origin + "\r\n")),
                403)
                << target << " from " << origin;
        EXPECT_EQ(statusOf(port(), upgrade(target, host(), protocol, auth)), 101)
            << target << " without Origin (kubectl)";
        EXPECT_EQ(
            statusOf(port(), upgrade(target, host(), protocol, auth + "Origin: " + own + "\r\n")),
            101)
            << target << " from the console's own page";
        EXPECT_EQ(statusOf(port(),
                      upgrade(target, host(), protocol,
                          auth + "Origin: HTTP://127.0.0.1:" + std::to_string(port()) + "\r\n")),
            101)
            << target << " from the own origin in upper case";
    }
    // On the default port the Host header names no port: the scheme still tells the origins
    // apart (a page of http://HOST is not one of https://HOST).
    const std::string target = "/console/v1/ws";
    EXPECT_EQ(statusOf(port(),
                  upgrade(target, "console.example", "draconsole.console.v1",
                      auth + "Origin: http://console.example\r\n")),
        101);
    EXPECT_EQ(statusOf(port(),
                  upgrade(target, "console.example", "draconsole.console.v1",
                      auth + "Origin: https://console.example\r\n")),
        403);
    EXPECT_EQ(statusOf(port(),
                  upgrade(target, "console.example", "draconsole.console.v1",
                      auth + "Origin: http://console.example:8080\r\n")),
        403);
}

// The web console's files are served without the token, so a path that climbs out of them
// would hand anyone the server's files.
TEST_F(ApiServerAttackTest, WebConsolePathsServeNothingOutsideItsFiles)
{
    serve(kToken);
    const std::vector<std::string> climbing = {
        "/ui/../secret.html",
        "/ui/../../../../../../etc/passwd",
        "/ui/..%2fsecret.html",
        "/ui/..%2Fsecret.html",
        "/ui/%2e%2e/secret.html",
        "/ui/%2E%2E%2Fsecret.html",
        "/ui/%252e%252e%252fsecret.html",
        "/ui/%252e%252e/secret.html",
        "/ui/..%5csecret.html",
        "/ui/..\\secret.html",
        "/ui/..%255csecret.html",
        "/ui/.%2e/secret.html",
        "/ui/./../secret.html",
        "/ui/app.js/../../secret.js",
        "/ui/....//secret.html",
        "/ui/%c0%ae%c0%ae/secret.html",
        "/ui/%c0%ae%c0%ae%c0%afsecret.html",
        "/ui//etc/passwd",
        "/ui/%2fetc%2fpasswd",
        "/ui/%2Fetc/passwd",
        "/ui/" + m_dir.filePath(QStringLiteral("secret.html")).toStdString(),
        "/ui/%2f" + m_dir.filePath(QStringLiteral("secret.html")).mid(1).toStdString(),
        "/ui/.hidden.js",
        "/ui/%2ehidden.js",
        "/ui/index.html%00.js",
        "/ui/C:%5cWindows%5cwin.ini",
        "/ui/file:%2f%2f%2fetc%2fpasswd",
        "/ui/:/web/index.html",
        "/ui/~/secret.html",
    };
    for (const std::string &target : climbing) {
        const test::Reply reply
            = test::exchange(port(), "GET " + target + " HTTP/1.1\r\nHost: " + host() + "\r\n\r\n");
        EXPECT_TRUE(reply.status == 404 || reply.status == 400 || reply.status == 401)
            << target << ": " << reply.status;
        EXPECT_EQ(reply.text.find("OUTSIDE-SECRET"), std::string::npos) << target;
        EXPECT_EQ(reply.text.find("root:"), std::string::npos) << target;
        EXPECT_EQ(reply.text.find(kMarker), std::string::npos) << target;
    }
    // The console's own files are there all along.
    const test::Reply script
        = test::exchange(port(), "GET /ui/app.js HTTP/1.1\r\nHost: " + host() + "\r\n\r\n");
    EXPECT_EQ(script.status, 200);
    EXPECT_EQ(script.text, "console script");
}

} // namespace
} // namespace dra::server::api_attack
