// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Bytes a hostile client sends to the HTTP/1.1 server, written raw: requests whose length is
// ambiguous (smuggling), too large heads and bodies, and clients that never finish a request.
// Each is refused with a status and the connection closed, or timed out, and the server goes
// on serving other clients.
#include "core/server/http_server.h"

#include <gtest/gtest.h>

#include "tests/support/http_test_client.h"

namespace dra::server::http_attack {
namespace {

using test::RawClient;
using test::spinUntil;

// Answers with what it read, so a request that slipped through shows up in the reply.
void echoHandler(Request &request, HttpConnection &connection)
{
    connection.respond(Response { 200, "text/plain", {},
        QByteArray::fromStdString(request.method + " " + request.path + " body=") + request.body
            + "\n" });
}

class HttpAttackTest : public testing::Test
{
protected:
    void start(HttpLimits limits = {})
    {
        m_server = std::make_unique<HttpServer>(echoHandler);
        m_server->setLimits(limits);
        ASSERT_TRUE(m_server->listen(QHostAddress::LocalHost, 0).has_value());
    }

    // Sends `bytes` on a fresh connection; true when the server answered `status` first and
    // then closed the connection without serving anything more.
    ::testing::AssertionResult refusedWith(int status, const QByteArray &bytes)
    {
        RawClient client(m_server->port());
        client.send(bytes);
        if (!client.waitForClose(10'000))
            return ::testing::AssertionFailure()
                << "the connection stays open; received: " << client.received().constData();
        const QByteArray expected = "HTTP/1.1 " + QByteArray::number(status) + " ";
        if (!client.received().startsWith(expected))
            return ::testing::AssertionFailure()
                << "expected " << status << ", received: " << client.received().constData();
        if (client.received().count("HTTP/1.1 ") != 1 || client.received().contains("SMUGGLED"))
            return ::testing::AssertionFailure()
                << "more than one answer: " << client.received().constData();
        return ::testing::AssertionSuccess();
    }

    // True when a well-formed request on a new connection is answered.
    bool serves()
    {
        RawClient client(m_server->port());
        client.send("GET /fine HTTP/1.1\r\nHost: x\r\n\r\n");
        return client.waitFor("GET /fine body=\n", 1, 10'000);
    }

    std::unique_ptr<HttpServer> m_server;
};

struct AmbiguousRequest
{
    const char *what;
    int status;
    const char *bytes;
};

// Each would be read one way by this server and another by a proxy or another server in front
// of it; the request that follows ("SMUGGLED") must never be served.
const AmbiguousRequest kAmbiguous[] = {
    { "Content-Length and Transfer-Encoding", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n"
        "0\r\n\r\nGET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "Transfer-Encoding and Content-Length", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 40\r\n\r\n"
        "0\r\n\r\nGET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "two Content-Lengths that differ", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 27\r\n\r\n"
        "GET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "a Content-Length list that differs", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0, 27\r\n\r\n"
        "GET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "a signed Content-Length", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: +27\r\n\r\nGET /SMUGGLED "
        "HTTP/1.1\r\n\r\n" },
    { "whitespace before a header's colon", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length : 27\r\n\r\nGET /SMUGGLED "
        "HTTP/1.1\r\n\r\n" },
    { "a folded header line", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n Content-Length: 27\r\n\r\n"
        "GET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "a bare LF inside a header", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nX-A: 1\nContent-Length: 27\r\n\r\n"
        "GET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "chunked that is not the final coding", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n"
        "0\r\n\r\nGET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "a coding other than chunked", 501,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
        "0\r\n\r\nGET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "Transfer-Encoding in HTTP/1.0", 400,
        "POST /a HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        "0\r\n\r\nGET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "a chunk size that is not hex", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        "zz\r\nhello\r\n0\r\n\r\nGET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "a negative chunk size", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        "-1\r\nhello\r\n0\r\n\r\nGET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "a 0x-prefixed chunk size", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        "0x5\r\nhello\r\n0\r\n\r\nGET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "an empty chunk size", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        "\r\nhello\r\n0\r\n\r\nGET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "a chunk longer than its size", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        "3\r\nhello\r\n0\r\n\r\nGET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "a chunk size that overflows", 413,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        "5\r\nhello\r\n7fffffffffffffff\r\nGET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "a chunk size beyond 64 bits", 400,
        "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        "10000000000000000\r\nhello\r\n0\r\n\r\nGET /SMUGGLED HTTP/1.1\r\n\r\n" },
    { "a space inside the request target", 400,
        "GET /a HTTP/1.1 /SMUGGLED HTTP/1.1\r\nHost: x\r\n\r\n" },
};

TEST_F(HttpAttackTest, AmbiguousRequestLengthsAreRefusedAndTheConnectionClosed)
{
    start();
    for (const AmbiguousRequest &request : kAmbiguous)
        EXPECT_TRUE(refusedWith(request.status, request.bytes)) << request.what;
    EXPECT_TRUE(serves());
}

TEST_F(HttpAttackTest, OversizedHeadsAndBodiesAreRefused)
{
    HttpLimits limits;
    limits.maxHeadBytes = 4 * 1024;
    limits.maxBodyBytes = 1024;
    limits.maxDrainBytes = 2048;
    start(limits);
    const QByteArray longPath(8 * 1024, 'a');
    EXPECT_TRUE(refusedWith(431, "GET /" + longPath + " HTTP/1.1\r\nHost: x\r\n\r\n"))
        << "request line";
    EXPECT_TRUE(refusedWith(431, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + longPath + "\r\n\r\n"))
        << "one header";
    QByteArray many = "GET / HTTP/1.1\r\nHost: x\r\n";
    for (int i = 0; i < 1000; ++i)
        many += "X-" + QByteArray::number(i) + ": 1\r\n";
    EXPECT_TRUE(refusedWith(431, many + "\r\n")) << "many headers";
    // A head that never ends is refused once it passes the limit, not buffered for ever.
    EXPECT_TRUE(refusedWith(431, "GET / HTTP/1.1\r\nX-Endless: " + longPath)) << "no end";
    EXPECT_TRUE(refusedWith(413,
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n" + QByteArray(4096, 'b')))
        << "declared body beyond what is drained";
    const QByteArray chunk = QByteArray::number(600, 16) + "\r\n" + QByteArray(600, 'c') + "\r\n";
    EXPECT_TRUE(refusedWith(
        413, "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + chunk))
        << "chunked body";
    // A chunked body's trailer is a head too.
    EXPECT_TRUE(refusedWith(431,
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-Trailer: "
            + longPath + "\r\n\r\n"))
        << "trailer";
    EXPECT_TRUE(serves());
}

TEST_F(HttpAttackTest, AClientFloodingBytesWhileItsAnswerIsPendingIsCutOff)
{
    HttpLimits limits;
    limits.maxHeadBytes = 1024;
    limits.maxBodyBytes = 1024;
    // A handler that never answers: the client's bytes meanwhile must not pile up for ever.
    m_server = std::make_unique<HttpServer>([](Request &, HttpConnection &) {});
    m_server->setLimits(limits);
    ASSERT_TRUE(m_server->listen(QHostAddress::LocalHost, 0).has_value());
    RawClient client(m_server->port());
    client.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n");
    const QByteArray flood(64 * 1024, 'f');
    for (int i = 0; i < 64 && client.socket().state() == QAbstractSocket::ConnectedState; ++i) {
        client.send(flood);
        spinUntil([] { return false; }, 10);
    }
    EXPECT_TRUE(client.waitForClose(10'000));
}

// Slowloris: clients that open connections and send their heads a byte at a time, or stop in
// the middle, must be dropped after the head timeout; others are served meanwhile.
TEST_F(HttpAttackTest, SlowHeadsAndStalledBodiesAreTimedOut)
{
    HttpLimits limits;
    limits.headTimeoutMs = 300;
    limits.bodyTimeoutMs = 300;
    start(limits);

    RawClient stalledHead(m_server->port());
    stalledHead.send("GET / HTTP/1.1\r\nHost: x\r\nX-A: ");
    RawClient stalledBody(m_server->port());
    stalledBody.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc");
    RawClient stalledChunks(m_server->port());
    stalledChunks.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab");
    RawClient trickle(m_server->port());
    const QByteArray head
        = "GET /trickle HTTP/1.1\r\nHost: x\r\nX-Pad: " + QByteArray(400, 'p') + "\r\n\r\n";
    qsizetype sent = 0;
    QTimer drip;
    QObject::connect(&drip, &QTimer::timeout, &drip, [&] {
        if (sent < head.size() && trickle.socket().state() == QAbstractSocket::ConnectedState)
            trickle.send(head.mid(sent++, 1));
    });
    drip.start(20);

    // Meanwhile the server answers others.
    EXPECT_TRUE(serves());
    EXPECT_TRUE(stalledHead.waitForClose(10'000));
    EXPECT_TRUE(stalledBody.waitForClose(10'000));
    EXPECT_TRUE(stalledChunks.waitForClose(10'000));
    EXPECT_TRUE(trickle.waitForClose(10'000));
    drip.stop();
    EXPECT_LT(sent, head.size()) << "the whole head trickled in before the timeout";
    EXPECT_FALSE(trickle.received().contains("GET /trickle"));
    EXPECT_FALSE(stalledBody.received().contains("body="));
    EXPECT_TRUE(spinUntil([&] { return m_server->connectionCount() == 0; }, 10'000));
    EXPECT_TRUE(serves());
}

TEST_F(HttpAttackTest, AKeepAliveConnectionBetweenRequestsIsNotAStalledHead)
{
    HttpLimits limits;
    limits.headTimeoutMs = 200;
    start(limits);
    RawClient client(m_server->port());
    client.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\n");
    ASSERT_TRUE(client.waitFor("GET /one body="));
    // Idle longer than the head timeout, but under the idle timeout: still open and served.
    spinUntil([] { return false; }, 600);
    ASSERT_EQ(client.socket().state(), QAbstractSocket::ConnectedState);
    client.send("GET /two HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_TRUE(client.waitFor("GET /two body="));
}

} // namespace
} // namespace dra::server::http_attack
