// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <memory>

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include "core/server/event_sink.h"
#include "core/server/http_message.h"
#include "core/server/request_head.h"

class QTcpSocket;

namespace dra::server {

class HttpConnection;

// Bounds that keep one client from costing the server unbounded memory or time.
struct HttpLimits
{
    qint64 maxHeadBytes = 64 * 1024; // request line + headers; more is 431
    qint64 maxBodyBytes = 3 * 1024 * 1024; // kube-apiserver's request size limit; more is 413
    qint64 maxDrainBytes = 16 * 1024 * 1024; // a rejected body up to this is read and dropped
    qint64 maxPendingWriteBytes = 8 * 1024 * 1024; // a client this far behind is disconnected
    int idleTimeoutMs = 120 * 1000; // keep-alive connections idle this long are closed
    // A request's head must arrive within this of its first byte, and its body within
    // bodyTimeoutMs of its head, however slowly the bytes trickle in (slowloris); else 408 and
    // the connection is closed. kube-apiserver gives heads 32 s and requests 60 s.
    int headTimeoutMs = 32 * 1000;
    int bodyTimeoutMs = 60 * 1000;
};

// Called once per complete request, on the connection's thread. The handler answers with
// HttpConnection::respond() or beginStream(), now or later (the connection waits).
using RequestHandler = std::function<void(Request &request, HttpConnection &connection)>;
// Told of each answer as its head goes out: the request, the status, and the seconds since the
// request was complete (a watch: until its stream began). Upgrades to WebSocket are not told.
using ExchangeObserver = std::function<void(const Request &request, int status, double seconds)>;

// A chunked response in progress (a watch). Owned by its connection: objects serving the
// stream should be its children, so they go away with it. Thread of its connection.
class HttpStream final : public EventSink
{
    Q_OBJECT
public:
    // Sends `data` as one chunk and flushes it. Returns false (and drops the client) when the
    // client has fallen more than maxPendingWriteBytes behind, or when the stream is closed.
    bool write(QByteArrayView data) override;
    // Ends the response with the terminating chunk; the connection then reads the next request.
    void finish() override;

private:
    friend class HttpConnection;
    explicit HttpStream(HttpConnection *connection);
    HttpConnection *m_connection;
};

// One client connection speaking HTTP/1.1 (keep-alive, Content-Length and chunked request
// bodies, chunked streamed responses). It owns the socket and deletes itself when the socket
// closes. Thread of the server that accepted it.
class HttpConnection final : public QObject
{
    Q_OBJECT
public:
    HttpConnection(QTcpSocket *socket, RequestHandler handler, const HttpLimits &limits,
        QObject *parent = nullptr);
    ~HttpConnection() override;

    // Answers the current request. Ignored when no request is waiting for an answer.
    void respond(const Response &response);
    // Starts a chunked response for the current request; nullptr when no request is waiting.
    HttpStream *beginStream(const Response &head);
    // Drops the client at once: no more bytes are sent, and the connection is reset.
    void abort();
    // Gives up the client's socket to another protocol (a WebSocket upgrade) while a request
    // waits for its answer: `head` (the request's head as the next owner should read it, with
    // its terminating blank line) and every byte read after it are put back into the socket's
    // read buffer, so the next owner reads the handshake as if it had come straight from the
    // client. The caller owns the socket; this connection deletes itself. nullptr when no
    // request is waiting for an answer.
    QTcpSocket *releaseSocket(const QByteArray &head);
    // The current request's head as it arrived (request line and headers, CRLF-separated,
    // without the blank line that ends it).
    const QByteArray &rawHead() const { return m_rawHead; }

    void setObserver(ExchangeObserver observer) { m_observer = std::move(observer); }

    qint64 pendingWriteBytes() const;
    const HttpLimits &limits() const { return m_limits; }

private:
    // Writing: a response's BodyPieces are going out as the client reads them.
    enum class State { Head, Body, Chunked, Discard, Dispatched, Writing, Streaming, Closing };

    void onReadyRead();
    void onDisconnected();
    void onBytesWritten();
    // Puts more of m_pieces into the socket while less than a window is pending; finishes the
    // exchange after the last piece.
    void writePieces();
    void process();
    bool readHead(QByteArrayView head);
    void startBody();
    void dispatch();
    void reject(int status, const std::string &message, bool close);
    void writeHead(const Response &response, bool chunked);
    void finishExchange();
    void scheduleProcess();
    void streamFinished();
    void closeAfterWrite();
    void onReadTimeout();

    friend class HttpStream;

    QTcpSocket *m_socket;
    RequestHandler m_handler;
    ExchangeObserver m_observer;
    QElapsedTimer m_handling; // since the current request went to the handler
    HttpLimits m_limits;
    QByteArray m_in;
    QByteArray m_rawHead;
    State m_state = State::Head;
    Request m_request;
    qint64 m_remaining = 0; // body bytes (or bytes to discard) still expected
    ChunkedBodyDecoder m_chunked;
    bool m_keepAlive = true;
    bool m_headOnly = false; // HEAD: no body in the answer
    bool m_http10 = false;
    bool m_processScheduled = false;
    bool m_discardThenRespond = false;
    Response m_deferred; // the answer sent once a discarded body has been drained
    QPointer<HttpStream> m_stream;
    std::shared_ptr<BodyPieces> m_pieces; // the rest of the body being written
    bool m_writingPieces = false;
    QTimer m_idle;
    QTimer m_reading; // the head or the body of the current request is late
};

} // namespace dra::server
