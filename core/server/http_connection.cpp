// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/http_connection.h"

#include <algorithm>

#include <QDateTime>
#include <QLocale>
#include <QSslSocket>
#include <QTcpSocket>

#ifdef Q_OS_UNIX
#include <sys/socket.h>
#endif

namespace dra::server {

namespace {

// Makes closing the socket reset the connection. An orderly close would leave what the kernel
// holds for a client that stopped reading (megabytes of a watch) queued against its zero
// window; a reset frees it at once and tells the client it was cut off.
void resetOnClose(const QTcpSocket &socket)
{
#ifdef Q_OS_UNIX
    if (const qintptr fd = socket.socketDescriptor(); fd != -1) {
        const linger reset { 1, 0 };
        ::setsockopt(int(fd), SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    }
#else
    Q_UNUSED(socket);
#endif
}

// An HTTP date (RFC 9110 IMF-fixdate), which some clients log.
QByteArray httpDate()
{
    return QLocale::c()
        .toString(
            QDateTime::currentDateTimeUtc(), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
        .toLatin1();
}

QByteArray statusJson(int status, const std::string &message)
{
    // A plain Kubernetes-style Status; the transport knows only the code and what it saw.
    QByteArray text = QByteArrayLiteral("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{}"
                                        ",\"status\":\"Failure\",\"message\":\"");
    text += QByteArray::fromStdString(message);
    text += "\"";
    if (status == 413)
        text += ",\"reason\":\"RequestEntityTooLarge\"";
    else if (status == 400)
        text += ",\"reason\":\"BadRequest\"";
    text += QByteArrayLiteral(",\"code\":") + QByteArray::number(status) + "}\n";
    return text;
}

} // namespace

HttpStream::HttpStream(HttpConnection *connection)
    : EventSink(connection)
    , m_connection(connection)
{
}

bool HttpStream::write(QByteArrayView data)
{
    if (!isOpen())
        return false;
    if (m_connection->pendingWriteBytes() > m_connection->limits().maxPendingWriteBytes) {
        // A watcher that does not read would otherwise make us buffer every event forever.
        m_connection->abort();
        return false;
    }
    if (data.isEmpty())
        return true;
    QByteArray chunk = QByteArray::number(data.size(), 16) + "\r\n";
    chunk.append(data.data(), data.size());
    chunk += "\r\n";
    m_connection->m_socket->write(chunk);
    m_connection->m_socket->flush();
    return true;
}

void HttpStream::finish()
{
    if (!isOpen())
        return;
    m_connection->m_socket->write("0\r\n\r\n");
    m_connection->m_socket->flush();
    m_connection->streamFinished();
}

HttpConnection::HttpConnection(
    QTcpSocket *socket, RequestHandler handler, const HttpLimits &limits, QObject *parent)
    : QObject(parent)
    , m_socket(socket)
    , m_handler(std::move(handler))
    , m_limits(limits)
{
    m_socket->setParent(this);
    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &HttpConnection::onDisconnected);
    connect(m_socket, &QTcpSocket::bytesWritten, this, &HttpConnection::onBytesWritten);
    // Over TLS, bytesWritten says what was encrypted; this, what went out on the wire.
    if (auto *tls = qobject_cast<QSslSocket *>(m_socket))
        connect(tls, &QSslSocket::encryptedBytesWritten, this, &HttpConnection::onBytesWritten);
    m_idle.setSingleShot(true);
    m_idle.setInterval(m_limits.idleTimeoutMs);
    connect(&m_idle, &QTimer::timeout, this, [this] {
        if (m_state == State::Head && m_in.isEmpty())
            m_socket->disconnectFromHost();
        else if (m_state == State::Writing)
            abort(); // the client took nothing of the answer for the whole idle timeout
    });
    m_idle.start();
    m_reading.setSingleShot(true);
    connect(&m_reading, &QTimer::timeout, this, &HttpConnection::onReadTimeout);
    if (m_socket->bytesAvailable() > 0)
        scheduleProcess();
}

HttpConnection::~HttpConnection()
{
    if (m_stream)
        m_stream->markClosed();
}

qint64 HttpConnection::pendingWriteBytes() const
{
    qint64 pending = m_socket->bytesToWrite();
    if (const auto *ssl = qobject_cast<const QSslSocket *>(m_socket))
        pending += ssl->encryptedBytesToWrite();
    return pending;
}

void HttpConnection::abort()
{
    if (m_state == State::Closing)
        return;
    m_state = State::Closing;
    m_pieces.reset();
    if (m_stream)
        m_stream->markClosed();
    resetOnClose(*m_socket);
    m_socket->abort();
    deleteLater();
}

QTcpSocket *HttpConnection::releaseSocket(const QByteArray &head)
{
    if (m_state != State::Dispatched)
        return nullptr;
    m_state = State::Closing;
    m_idle.stop();
    QTcpSocket *socket = m_socket;
    socket->disconnect(this);
    socket->setParent(nullptr);
    // What is still unread sits after the head; ungetChar prepends, so push back to front.
    m_in += socket->readAll();
    const QByteArray replay = head + m_in;
    for (qsizetype i = replay.size(); i > 0; --i)
        socket->ungetChar(replay[i - 1]);
    m_in.clear();
    m_socket = nullptr; // in the Closing state nothing here touches the socket again

    deleteLater();
    return socket;
}

void HttpConnection::onDisconnected()
{
    m_state = State::Closing;
    m_pieces.reset();
    if (m_stream)
        m_stream->markClosed();
    deleteLater();
}

void HttpConnection::onReadyRead()
{
    if (m_state == State::Closing) {
        m_socket->readAll(); // nothing more is read from a client we are done with
        return;
    }
    m_in += m_socket->readAll();
    m_idle.start();
    // Bytes sent while an answer is pending wait for it; a client that keeps sending would
    // otherwise have us buffer without bound (a pipelined request is at most a head and a body).
    const bool answering
        = m_state == State::Dispatched || m_state == State::Writing || m_state == State::Streaming;
    if (answering && m_in.size() > m_limits.maxHeadBytes + m_limits.maxBodyBytes) {
        abort();
        return;
    }
    process();
}

void HttpConnection::onReadTimeout()
{
    switch (m_state) {
    case State::Head:
        if (m_in.isEmpty())
            return; // between requests: the idle timeout's business
        [[fallthrough]];
    case State::Body:
    case State::Chunked:
    case State::Discard:
        reject(408, "the request did not arrive in time", true);
        return;
    case State::Dispatched:
    case State::Writing:
    case State::Streaming:
    case State::Closing:
        return;
    }
}

void HttpConnection::onBytesWritten()
{
    m_idle.start();
    if (m_state == State::Writing)
        writePieces();
}

void HttpConnection::writePieces()
{
    // Enough in flight to keep the socket busy between two bytesWritten signals.
    constexpr qint64 kWindow = 1024 * 1024;
    constexpr qint64 kPiece = 256 * 1024;
    // flush() may emit bytesWritten, which calls this again: the outer call does the work.
    if (m_writingPieces)
        return;
    m_writingPieces = true;
    // Each piece is flushed, so that what the kernel takes at once (which no signal reports)
    // leaves room for the next: the loop stops with a window pending or the body out.
    while (m_pieces && pendingWriteBytes() < kWindow) {
        QByteArray piece;
        if (!m_pieces->next(piece, kPiece))
            m_pieces.reset();
        if (!piece.isEmpty())
            m_socket->write(piece);
        m_socket->flush();
    }
    m_writingPieces = false;
    if (!m_pieces && m_state == State::Writing) {
        m_state = State::Dispatched;
        finishExchange();
    }
}

void HttpConnection::scheduleProcess()
{
    if (m_processScheduled)
        return;
    m_processScheduled = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_processScheduled = false;
            if (!m_socket)
                return; // handed over meanwhile
            m_in += m_socket->readAll();
            process();
        },
        Qt::QueuedConnection);
}

void HttpConnection::process()
{
    for (;;) {
        switch (m_state) {
        case State::Head: {
            if (!m_in.isEmpty() && !m_reading.isActive())
                m_reading.start(m_limits.headTimeoutMs); // from the head's first byte on
            const qsizetype end = m_in.indexOf("\r\n\r\n");
            if (end < 0) {
                // Up to three bytes past the limit may be the start of the blank line that
                // ends a head of exactly the limit: it is refused only once it cannot be one.
                if (m_in.size() > m_limits.maxHeadBytes + 3)
                    reject(431, "request header fields too large", true);
                return;
            }
            if (end > m_limits.maxHeadBytes) {
                reject(431, "request header fields too large", true);
                return;
            }
            m_rawHead = m_in.left(end);
            m_in.remove(0, end + 4);
            if (!readHead(m_rawHead))
                return;
            startBody();
            break;
        }
        case State::Body: {
            if (m_in.size() < m_remaining)
                return;
            m_request.body = m_in.left(m_remaining);
            m_in.remove(0, m_remaining);
            dispatch();
            break;
        }
        case State::Chunked: {
            switch (m_chunked.decode(m_in)) {
            case ChunkedBodyDecoder::Status::NeedMore:
                return;
            case ChunkedBodyDecoder::Status::Failed:
                reject(m_chunked.error().status, m_chunked.error().message, true);
                return;
            case ChunkedBodyDecoder::Status::Done:
                m_request.body = m_chunked.body();
                dispatch();
                break;
            }
            break;
        }
        case State::Discard: {
            const qint64 dropped = std::min<qint64>(m_remaining, m_in.size());
            m_in.remove(0, dropped);
            m_remaining -= dropped;
            if (m_remaining > 0)
                return;
            m_reading.stop();
            m_state = State::Dispatched;
            respond(m_deferred);
            break;
        }
        case State::Dispatched:
        case State::Writing:
        case State::Streaming:
        case State::Closing:
            return; // pipelined bytes wait until the current answer is out
        }
    }
}

bool HttpConnection::readHead(QByteArrayView head)
{
    auto parsed = parseRequestHead(std::string_view(head.data(), size_t(head.size())));
    m_request = parsed ? std::move(parsed->request) : Request {};
    m_request.peer = m_socket->peerAddress().toString() + QLatin1Char(':')
        + QString::number(m_socket->peerPort());
    m_request.secure = qobject_cast<QSslSocket *>(m_socket) != nullptr;
    if (auto *tls = qobject_cast<QSslSocket *>(m_socket)) {
        for (const QSslCertificate &certificate : tls->peerCertificateChain())
            m_request.peerCertificates.push_back(certificate.toDer());
    }
    if (!parsed) {
        reject(parsed.error().status, parsed.error().message, true);
        return false;
    }
    m_http10 = parsed->http10;
    m_keepAlive = parsed->keepAlive;
    m_headOnly = m_request.method == "HEAD";
    return true;
}

void HttpConnection::startBody()
{
    // Where the body ends must be read the same way by every parser on the path (a proxy in
    // front of us included): anything ambiguous is refused and the connection closed, so no
    // byte of it is taken for a next request (request smuggling).
    const auto framing = bodyFraming(m_request.headers, m_http10);
    if (!framing) {
        reject(framing.error().status, framing.error().message, true);
        return;
    }
    switch (framing->kind) {
    case BodyFraming::Kind::None:
        dispatch();
        return;
    case BodyFraming::Kind::Chunked:
        m_chunked = ChunkedBodyDecoder(m_limits.maxBodyBytes, m_limits.maxHeadBytes);
        m_state = State::Chunked;
        m_reading.start(m_limits.bodyTimeoutMs);
        return;
    case BodyFraming::Kind::Length:
        break;
    }
    const qint64 size = framing->length;
    if (size > m_limits.maxBodyBytes) {
        const bool drainable = size <= m_limits.maxDrainBytes;
        reject(413,
            "request entity too large: limit is " + std::to_string(m_limits.maxBodyBytes)
                + " bytes",
            !drainable);
        if (drainable) {
            m_state = State::Discard;
            m_remaining = size;
            m_reading.start(m_limits.bodyTimeoutMs);
        }
        return;
    }
    m_remaining = size;
    m_state = State::Body;
    m_reading.start(m_limits.bodyTimeoutMs);
}

void HttpConnection::dispatch()
{
    m_state = State::Dispatched;
    m_idle.stop();
    m_reading.stop();
    m_handling.start();
    if (m_handler)
        m_handler(m_request, *this);
    else
        respond(Response { 404, "application/json", {}, statusJson(404, "not found") });
}

void HttpConnection::reject(int status, const std::string &message, bool close)
{
    Response response { status, "application/json", {}, statusJson(status, message) };
    if (close) {
        m_keepAlive = false;
        m_reading.stop();
        m_state = State::Dispatched;
        respond(response);
        return;
    }
    // The body still arriving is read and dropped first, so the next request line is not
    // taken from the middle of it (Go clients reuse the connection).
    m_deferred = std::move(response);
}

void HttpConnection::writeHead(const Response &response, bool chunked)
{
    if (m_observer && m_handling.isValid())
        m_observer(m_request, response.status, double(m_handling.nsecsElapsed()) / 1e9);
    m_handling.invalidate();
    QByteArray head = "HTTP/1.1 " + QByteArray::number(response.status) + ' '
        + QByteArray::fromStdString(std::string(reasonPhrase(response.status))) + "\r\n";
    head += "Date: " + httpDate() + "\r\n";
    if (!response.contentType.empty())
        head += "Content-Type: " + QByteArray::fromStdString(response.contentType) + "\r\n";
    for (const Header &field : response.headers)
        head += QByteArray::fromStdString(field.name) + ": "
            + QByteArray::fromStdString(field.value) + "\r\n";
    if (chunked)
        head += "Transfer-Encoding: chunked\r\n";
    else
        head += "Content-Length: "
            + QByteArray::number(response.pieces ? response.pieces->size() : response.body.size())
            + "\r\n";
    if (!m_keepAlive)
        head += "Connection: close\r\n";
    head += "\r\n";
    m_socket->write(head);
}

void HttpConnection::respond(const Response &response)
{
    if (m_state != State::Dispatched)
        return;
    writeHead(response, false);
    if (response.pieces && !m_headOnly) {
        m_pieces = response.pieces;
        m_state = State::Writing;
        writePieces();
        return;
    }
    if (!m_headOnly)
        m_socket->write(response.body);
    m_socket->flush();
    finishExchange();
}

HttpStream *HttpConnection::beginStream(const Response &head)
{
    if (m_state != State::Dispatched)
        return nullptr;
    writeHead(head, true);
    m_socket->flush();
    m_state = State::Streaming;
    m_stream = new HttpStream(this);
    return m_stream;
}

void HttpConnection::streamFinished()
{
    HttpStream *stream = m_stream;
    m_stream = nullptr;
    if (stream) {
        stream->markClosed();
        stream->deleteLater();
    }
    finishExchange();
}

void HttpConnection::finishExchange()
{
    if (!m_keepAlive) {
        closeAfterWrite();
        return;
    }
    m_request = Request {};
    m_headOnly = false; // an answer before the next head is parsed (a 408) has its body
    m_state = State::Head;
    m_idle.start();
    scheduleProcess();
}

void HttpConnection::closeAfterWrite()
{
    m_state = State::Closing;
    // disconnectFromHost() sends what is buffered before closing.
    m_socket->disconnectFromHost();
}

} // namespace dra::server
