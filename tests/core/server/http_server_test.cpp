// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/http_server.h"

#include <QCoreApplication>
#include <QPointer>
#include <QTimer>

#include <gtest/gtest.h>

#include "tests/support/http_test_client.h"

namespace dra::server {
namespace {

using test::RawClient;
using test::spinUntil;

// Echoes what it parsed, so tests can see the request as controllers see it.
void echoHandler(Request &request, HttpConnection &connection)
{
    QByteArray text = QByteArray::fromStdString(request.method + " " + request.path + "\n");
    for (const auto &[name, value] : request.query.items())
        text += QByteArray::fromStdString("q " + name + "=" + value + "\n");
    text += "ua " + QByteArray::fromStdString(request.header("user-agent")) + "\n";
    text += "body " + request.body + "\n";
    connection.respond(Response { 200, "text/plain", {}, text });
}

class HttpServerTest : public testing::Test
{
protected:
    void start(RequestHandler handler, HttpLimits limits = {})
    {
        server = std::make_unique<HttpServer>(std::move(handler));
        server->setLimits(limits);
        ASSERT_TRUE(server->listen(QHostAddress::LocalHost, 0).has_value());
        ASSERT_NE(server->port(), 0);
    }
    std::unique_ptr<HttpServer> server;
};

TEST_F(HttpServerTest, ParsesRequestLineQueryAndHeaders)
{
    start(echoHandler);
    RawClient client(server->port());
    client.send("GET /api/v1/name%20space?watch=True&a=1&a=2&sel=a%3Db+c HTTP/1.1\r\nHost: "
                "x\r\nUser-Agent: t/1\r\n\r\n");
    ASSERT_TRUE(client.waitFor("body "));
    const QByteArray &got = client.received();
    EXPECT_TRUE(got.startsWith("HTTP/1.1 200 OK\r\n")) << got.constData();
    EXPECT_TRUE(got.contains("Content-Length: ")) << got.constData();
    EXPECT_TRUE(got.contains("GET /api/v1/name space\n"));
    EXPECT_TRUE(got.contains("q watch=True\nq a=1\nq a=2\nq sel=a=b c\n"));
    EXPECT_TRUE(got.contains("ua t/1\n"));
}

TEST_F(HttpServerTest, KeepAliveServesPipelinedRequestsInOrder)
{
    start(echoHandler);
    RawClient client(server->port());
    client.send("GET /one HTTP/1.1\r\n\r\nPOST /two HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET "
                "/three HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(client.waitFor("HTTP/1.1 200", 3));
    const QByteArray &got = client.received();
    const qsizetype one = got.indexOf("GET /one"), two = got.indexOf("POST /two"),
                    three = got.indexOf("GET /three");
    EXPECT_TRUE(one >= 0 && two > one && three > two) << got.constData();
    EXPECT_TRUE(got.contains("body hello\n"));
    EXPECT_EQ(client.socket().state(), QAbstractSocket::ConnectedState);
}

TEST_F(HttpServerTest, BodyArrivingInPiecesAndChunkedBodies)
{
    start(echoHandler);
    RawClient client(server->port());
    client.send("PUT /x HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello");
    spinUntil([] { return false; }, 50);
    client.send(" world");
    ASSERT_TRUE(client.waitFor("body hello world\n"));
    client.send("POST /y HTTP/1.1\r\nTransfer-Encoding: "
                "chunked\r\n\r\n3\r\nabc\r\n4;ext=1\r\ndefg\r\n0\r\n\r\n");
    ASSERT_TRUE(client.waitFor("body abcdefg\n"));
}

TEST_F(HttpServerTest, OversizedBodyIsDrainedAndConnectionReused)
{
    HttpLimits limits;
    limits.maxBodyBytes = 10;
    start(echoHandler, limits);
    RawClient client(server->port());
    client.send("POST /big HTTP/1.1\r\nContent-Length: 20\r\n\r\n0123456789abcdefghijGET /after "
                "HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(client.waitFor("GET /after"));
    const QByteArray &got = client.received();
    EXPECT_TRUE(got.startsWith("HTTP/1.1 413 ")) << got.constData();
    EXPECT_FALSE(got.contains("abcdefghij"));
}

TEST_F(HttpServerTest, RejectedEarlyRequestKeepsTheNextRequestIntact)
{
    // A handler that refuses writes after the body was read (405) must leave the stream clean.
    start([](Request &request, HttpConnection &connection) {
        if (request.method != "GET") {
            connection.respond(Response { 405, "application/json", {}, "{}" });
            return;
        }
        echoHandler(request, connection);
    });
    RawClient client(server->port());
    client.send(
        "DELETE /x HTTP/1.1\r\nContent-Length: 34\r\n\r\n{\"propagationPolicy\":\"Backgrou");
    client.send("nd\"}GET /ok HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(client.waitFor("GET /ok"));
    EXPECT_TRUE(client.received().startsWith("HTTP/1.1 405 "));
}

TEST_F(HttpServerTest, MalformedRequestGets400AndClose)
{
    start(echoHandler);
    RawClient client(server->port());
    client.send("NONSENSE\r\n\r\n");
    ASSERT_TRUE(client.waitForClose());
    EXPECT_TRUE(client.received().startsWith("HTTP/1.1 400 ")) << client.received().constData();
}

TEST_F(HttpServerTest, ConnectionCloseIsHonoured)
{
    start(echoHandler);
    RawClient client(server->port());
    client.send("GET /bye HTTP/1.1\r\nConnection: close\r\n\r\n");
    ASSERT_TRUE(client.waitForClose());
    EXPECT_TRUE(client.received().contains("Connection: close\r\n"));
}

TEST_F(HttpServerTest, StreamsChunksAsTheyAreWritten)
{
    QPointer<HttpStream> stream;
    start([&](Request &request, HttpConnection &connection) {
        if (request.path == "/watch")
            stream = connection.beginStream(Response { 200, "application/json", {}, {} });
        else
            echoHandler(request, connection);
    });
    RawClient client(server->port());
    client.send("GET /watch HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(spinUntil([&] { return !stream.isNull(); }));
    ASSERT_TRUE(client.waitFor("Transfer-Encoding: chunked\r\n"));
    EXPECT_TRUE(stream->write("{\"type\":\"ADDED\"}\n"));
    ASSERT_TRUE(client.waitFor("11\r\n{\"type\":\"ADDED\"}\n\r\n"));
    stream->finish();
    ASSERT_TRUE(client.waitFor("0\r\n\r\n"));
    client.send("GET /next HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(client.waitFor("GET /next"));
}

TEST_F(HttpServerTest, ClientGoingAwayClosesTheStream)
{
    QPointer<HttpStream> stream;
    bool closed = false;
    start([&](Request &, HttpConnection &connection) {
        stream = connection.beginStream(Response { 200, "application/json", {}, {} });
        QObject::connect(stream, &HttpStream::closed, stream, [&] { closed = true; });
    });
    {
        RawClient client(server->port());
        client.send("GET /watch HTTP/1.1\r\n\r\n");
        ASSERT_TRUE(spinUntil([&] { return !stream.isNull(); }));
    }
    EXPECT_TRUE(spinUntil([&] { return closed; }));
    EXPECT_TRUE(spinUntil([&] { return server->connectionCount() == 0; }));
}

TEST_F(HttpServerTest, SlowReaderIsCutOff)
{
    HttpLimits limits;
    limits.maxPendingWriteBytes = 256 * 1024;
    QPointer<HttpStream> stream;
    start(
        [&](Request &, HttpConnection &connection) {
            stream = connection.beginStream(Response { 200, "application/json", {}, {} });
        },
        limits);
    RawClient client(server->port());
    client.socket().setReadBufferSize(1024); // the client stops reading
    QObject::disconnect(&client.socket(), &QTcpSocket::readyRead, nullptr, nullptr);
    client.send("GET /watch HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(spinUntil([&] { return !stream.isNull(); }));
    // Written from a timer, as watch events are, so the cut-off connection is deleted by the loop.
    const QByteArray event(64 * 1024, 'x');
    bool cut = false;
    int writes = 0;
    QTimer writer;
    QObject::connect(&writer, &QTimer::timeout, &writer, [&] {
        if (!stream || !stream->write(event))
            cut = true;
        if (cut || ++writes > 2000)
            writer.stop();
    });
    writer.start(0);
    spinUntil([&] { return !writer.isActive(); }, 20000);
    EXPECT_TRUE(cut);
    EXPECT_TRUE(spinUntil([&] { return server->connectionCount() == 0; }));
    // The client is told at once, even with its window closed: its connection was reset, not
    // closed in order behind megabytes it will never read.
    EXPECT_TRUE(spinUntil([&] { return test::tcpStateOf(client.socket()) == TCP_CLOSE; }))
        << "TCP state " << test::tcpStateOf(client.socket());
}

// A body of `count` pieces of `pieceBytes` bytes each ('a', 'b', ... by piece), counting how
// far the connection has asked for it.
class CountingPieces final : public BodyPieces
{
public:
    CountingPieces(int count, int pieceBytes)
        : m_count(count)
        , m_pieceBytes(pieceBytes)
    {
    }
    qint64 size() const override { return qint64(m_count) * m_pieceBytes; }
    bool next(QByteArray &out, qint64 budget) override
    {
        while (m_given < m_count && out.size() < budget)
            out.append(QByteArray(m_pieceBytes, char('a' + m_given++ % 26)));
        return m_given < m_count;
    }
    int given() const { return m_given; }

private:
    int m_count, m_pieceBytes, m_given = 0;
};

TEST_F(HttpServerTest, BodiesInPiecesGoOutAsTheClientReads)
{
    std::shared_ptr<CountingPieces> pieces;
    start([&](Request &, HttpConnection &connection) {
        pieces = std::make_shared<CountingPieces>(800, 64 * 1024); // 50 MiB
        Response response { 200, "application/json", {}, {} };
        response.pieces = pieces;
        connection.respond(response);
    });
    RawClient client(server->port());
    client.socket().setReadBufferSize(64 * 1024); // the client reads nothing for now
    QObject::disconnect(&client.socket(), &QTcpSocket::readyRead, nullptr, nullptr);
    client.send("GET /list HTTP/1.1\r\n\r\nHEAD /list HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(spinUntil([&] { return pieces != nullptr; }));
    const std::shared_ptr<CountingPieces> first = pieces;
    spinUntil([] { return false; }, 300);
    // Only a window of the body was produced (what the kernel's socket buffers took, and a
    // window more): the rest waits for the client, not in memory.
    EXPECT_LT(first->given(), 320) << "pieces produced while the client read nothing";

    // Reading, the client gets the whole body, then the answer to its pipelined request (a
    // HEAD: the same length, no body).
    client.socket().setReadBufferSize(0);
    QObject::connect(&client.socket(), &QTcpSocket::readyRead, &client.socket(),
        [&] { client.received() += client.socket().readAll(); });
    client.received() += client.socket().readAll();
    constexpr qsizetype kBody = 52428800;
    ASSERT_TRUE(spinUntil(
        [&] {
            const QByteArray &got = client.received();
            return got.size() > kBody && got.indexOf("\r\n\r\n", got.size() - 512) > 0;
        },
        30000))
        << "received " << client.received().size() << " bytes; " << first->given()
        << " pieces given";
    EXPECT_EQ(first->given(), 800);
    const QByteArray &got = client.received();
    const qsizetype headEnd = got.indexOf("\r\n\r\n");
    EXPECT_TRUE(got.left(headEnd).contains("Content-Length: 52428800"))
        << got.left(200).constData();
    const QByteArray second = got.mid(headEnd + 4 + kBody);
    EXPECT_TRUE(second.startsWith("HTTP/1.1 200 OK\r\n")) << second.left(200).constData();
    EXPECT_TRUE(second.contains("Content-Length: 52428800\r\n"));
    EXPECT_TRUE(second.endsWith("\r\n\r\n")) << "a HEAD answer has no body";
    EXPECT_EQ(got[headEnd + 4], 'a');
    EXPECT_EQ(got[headEnd + 4 + 64 * 1024], 'b');
}

TEST_F(HttpServerTest, AHeadRequestGetsTheLengthOfABodyInPiecesAndNoBody)
{
    start([&](Request &, HttpConnection &connection) {
        Response response { 200, "application/json", {}, {} };
        response.pieces = std::make_shared<CountingPieces>(3, 10);
        connection.respond(response);
    });
    RawClient client(server->port());
    client.send("HEAD /list HTTP/1.1\r\n\r\nGET /list HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(client.waitFor("aaaaaaaaaabbbbbbbbbbcccccccccc"));
    EXPECT_EQ(client.received().count("Content-Length: 30\r\n"), 2);
    EXPECT_EQ(client.received().count("aaaaaaaaaa"), 1);
}

// A head of exactly the limit is served however the blank line that ends it is split; one
// byte more is 431 however it arrives.
TEST_F(HttpServerTest, TheHeadLimitDoesNotDependOnHowTheBytesArrive)
{
    HttpLimits limits;
    limits.maxHeadBytes = 100;
    start(echoHandler, limits);
    const auto headOf = [](int size) {
        QByteArray head = "GET /x HTTP/1.1\r\nX-Pad: ";
        head += QByteArray(size - head.size(), 'p');
        return head;
    };
    for (int split = 1; split <= 3; ++split) {
        RawClient client(server->port());
        const QByteArray whole = headOf(100) + "\r\n\r\n";
        client.send(whole.left(100 + split));
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        client.send(whole.mid(100 + split));
        ASSERT_TRUE(client.waitFor("body ")) << "split after " << split << " byte(s) of the end";
        EXPECT_TRUE(client.received().startsWith("HTTP/1.1 200")) << client.received().constData();
    }
    RawClient over(server->port());
    over.send(headOf(101) + "\r\n");
    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    over.send("\r\n");
    ASSERT_TRUE(over.waitFor("\r\n"));
    EXPECT_TRUE(over.received().startsWith("HTTP/1.1 431")) << over.received().constData();
}

TEST_F(HttpServerTest, ConnectionsPastTheLimitAreClosedAndTheOthersServed)
{
    start(echoHandler);
    server->setMaxConnections(2);
    RawClient first(server->port());
    RawClient second(server->port());
    ASSERT_TRUE(spinUntil([&] { return server->connectionCount() == 2; }));

    // One too many: closed at once, without a word, and counted.
    RawClient third(server->port());
    EXPECT_TRUE(third.waitForClose());
    EXPECT_EQ(server->refusedConnections(), 1);
    EXPECT_EQ(server->connectionCount(), 2);

    // The two within the limit are served as before.
    first.send("GET /still-here HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(first.waitFor("body "));
    EXPECT_TRUE(first.received().contains("GET /still-here\n"));

    // A connection that ends makes room for the next client.
    second.socket().disconnectFromHost();
    ASSERT_TRUE(spinUntil([&] { return server->connectionCount() == 1; }));
    RawClient fourth(server->port());
    fourth.send("GET /next HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(fourth.waitFor("body "));
    EXPECT_TRUE(fourth.received().contains("GET /next\n"));
}

TEST(HttpServerLimitsTest, TheDefaultLimitLeavesRoomForTheProcesssOwnFiles)
{
    const int soft = raiseOpenFileLimit();
    ASSERT_GT(soft, 0);
    const int limit = defaultMaxConnections();
    EXPECT_GE(limit, 64);
    if (soft > 1024) {
        EXPECT_LE(limit, soft - 64) << "some descriptors stay for the cache and the state file";
    }
    EXPECT_EQ(HttpServer(echoHandler).maxConnections(), limit);
}

TEST_F(HttpServerTest, TakenPortIsABusyError)
{
    start(echoHandler);
    HttpServer second(echoHandler);
    const Result<void> result = second.listen(QHostAddress::LocalHost, server->port());
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, common::Error::Code::Busy);
    EXPECT_TRUE(result.error().message.contains(QLatin1String("--listen")));
}

} // namespace
} // namespace dra::server
