// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/http_connection.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <vector>

#include <QDateTime>
#include <QLocale>
#include <QSslSocket>
#include <QTcpSocket>

namespace dra::server {

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(
        out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

std::string_view trimHeaderValue(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

// RFC 9110's token: what a method and a header name are made of. Anything else (a space before
// the colon, a folded line) is read differently by other parsers, so it is refused.
bool isToken(std::string_view text)
{
    constexpr std::string_view punctuation = "!#$%&'*+-.^_`|~";
    return !text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || punctuation.find(c) != std::string_view::npos;
    });
}

// A header value with no CR, LF or NUL: a bare LF ends the line for some parsers.
bool isFieldValue(std::string_view text)
{
    return text.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

// A request target of visible characters: a space would make a second request line of the rest.
bool isTargetText(std::string_view text)
{
    return std::none_of(text.begin(), text.end(),
        [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; });
}

// The comma-separated items of a header value, trimmed, empty ones left out.
std::vector<std::string_view> listItems(std::string_view value)
{
    std::vector<std::string_view> items;
    size_t start = 0;
    while (start <= value.size()) {
        size_t end = value.find(',', start);
        if (end == std::string_view::npos)
            end = value.size();
        const std::string_view item = trimHeaderValue(value.substr(start, end - start));
        if (!item.empty())
            items.push_back(item);
        start = end + 1;
    }
    return items;
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
    m_idle.setSingleShot(true);
    m_idle.setInterval(m_limits.idleTimeoutMs);
    connect(&m_idle, &QTimer::timeout, this, [this] {
        if (m_state == State::Head && m_in.isEmpty())
            m_socket->disconnectFromHost();
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
    if (m_stream)
        m_stream->markClosed();
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
    const bool answering = m_state == State::Dispatched || m_state == State::Streaming;
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
    case State::ChunkSize:
    case State::ChunkData:
    case State::ChunkTrailer:
    case State::Discard:
        reject(408, "the request did not arrive in time", true);
        return;
    case State::Dispatched:
    case State::Streaming:
    case State::Closing:
        return;
    }
}

void HttpConnection::onBytesWritten()
{
    m_idle.start();
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
                if (m_in.size() > m_limits.maxHeadBytes)
                    reject(431, "request header fields too large", true);
                return;
            }
            if (end > m_limits.maxHeadBytes) {
                reject(431, "request header fields too large", true);
                return;
            }
            m_rawHead = m_in.left(end);
            m_in.remove(0, end + 4);
            if (!parseHead(m_rawHead))
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
        case State::ChunkSize: {
            const qsizetype end = m_in.indexOf("\r\n");
            if (end < 0) {
                if (m_in.size() > 1024)
                    reject(400, "malformed chunked body", true);
                return;
            }
            std::string_view line(m_in.constData(), size_t(end));
            line = line.substr(0, line.find(';')); // chunk extensions are ignored
            line = trimHeaderValue(line);
            qint64 size = 0;
            const auto [ptr, ec]
                = std::from_chars(line.data(), line.data() + line.size(), size, 16);
            if (ec != std::errc() || ptr != line.data() + line.size() || size < 0 || line.empty()) {
                reject(400, "malformed chunked body", true);
                return;
            }
            m_in.remove(0, end + 2);
            if (size > m_limits.maxBodyBytes - m_request.body.size()) {
                // Draining the rest of a chunked body is not worth its own parser state.
                reject(413, "request entity too large", true);
                return;
            }
            m_remaining = size;
            m_state = size == 0 ? State::ChunkTrailer : State::ChunkData;
            m_trailerBytes = 0;
            break;
        }
        case State::ChunkData: {
            if (m_in.size() < m_remaining + 2)
                return;
            if (m_in.at(m_remaining) != '\r' || m_in.at(m_remaining + 1) != '\n') {
                // Where the next chunk starts would be a guess another parser may not share.
                reject(400, "malformed chunked body: a chunk is longer than its size", true);
                return;
            }
            m_request.body += m_in.left(m_remaining);
            m_in.remove(0, m_remaining + 2);
            m_state = State::ChunkSize;
            break;
        }
        case State::ChunkTrailer: {
            // The trailer is a head of its own, bounded as the request's head is.
            const qsizetype end = m_in.indexOf("\r\n");
            if (m_trailerBytes + (end < 0 ? m_in.size() : end + 2) > m_limits.maxHeadBytes) {
                reject(431, "request trailer fields too large", true);
                return;
            }
            if (end < 0)
                return;
            m_trailerBytes += end + 2;
            m_in.remove(0, end + 2);
            if (end == 0)
                dispatch();
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
        case State::Streaming:
        case State::Closing:
            return; // pipelined bytes wait until the current answer is out
        }
    }
}

bool HttpConnection::parseHead(QByteArrayView head)
{
    m_request = Request {};
    m_request.peer = m_socket->peerAddress().toString() + QLatin1Char(':')
        + QString::number(m_socket->peerPort());
    m_request.secure = qobject_cast<QSslSocket *>(m_socket) != nullptr;
    if (auto *tls = qobject_cast<QSslSocket *>(m_socket)) {
        for (const QSslCertificate &certificate : tls->peerCertificateChain())
            m_request.peerCertificates.push_back(certificate.toDer());
    }
    const std::string_view text(head.data(), size_t(head.size()));
    size_t lineEnd = text.find("\r\n");
    const std::string_view requestLine = text.substr(0, lineEnd);
    const size_t sp1 = requestLine.find(' ');
    const size_t sp2 = requestLine.rfind(' ');
    if (sp1 == std::string_view::npos || sp2 == sp1) {
        reject(400, "malformed request line", true);
        return false;
    }
    m_request.method = std::string(requestLine.substr(0, sp1));
    m_request.target = std::string(requestLine.substr(sp1 + 1, sp2 - sp1 - 1));
    const std::string_view version = requestLine.substr(sp2 + 1);
    if (!isToken(m_request.method) || !isTargetText(m_request.target)) {
        reject(400, "malformed request line", true);
        return false;
    }
    if (version != "HTTP/1.1" && version != "HTTP/1.0") {
        reject(505, "only HTTP/1.0 and HTTP/1.1 are supported", true);
        return false;
    }
    m_http10 = version == "HTTP/1.0";
    if (m_request.target.empty() || m_request.target.front() != '/') {
        reject(400, "the request target must be an absolute path", true);
        return false;
    }
    const size_t question = m_request.target.find('?');
    m_request.path = percentDecode(std::string_view(m_request.target).substr(0, question), false);
    if (question != std::string::npos)
        m_request.query
            = QueryParams::parse(std::string_view(m_request.target).substr(question + 1));

    while (lineEnd != std::string_view::npos) {
        const size_t start = lineEnd + 2;
        lineEnd = text.find("\r\n", start);
        const std::string_view line = text.substr(
            start, lineEnd == std::string_view::npos ? std::string_view::npos : lineEnd - start);
        if (line.empty())
            continue;
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos || !isToken(line.substr(0, colon))
            || !isFieldValue(line.substr(colon + 1))) {
            reject(400, "malformed header line", true);
            return false;
        }
        m_request.headers.push_back(
            { lower(line.substr(0, colon)), std::string(trimHeaderValue(line.substr(colon + 1))) });
    }
    const std::string connection = m_request.header("connection");
    m_keepAlive = version == "HTTP/1.1" ? !headerListContains(connection, "close")
                                        : headerListContains(connection, "keep-alive");
    m_headOnly = m_request.method == "HEAD";
    return true;
}

void HttpConnection::startBody()
{
    // Where the body ends must be read the same way by every parser on the path (a proxy in
    // front of us included): anything ambiguous is refused and the connection closed, so no
    // byte of it is taken for a next request (request smuggling).
    std::vector<std::string_view> codings;
    std::vector<std::string_view> lengths;
    bool transferEncoding = false;
    for (const Header &field : m_request.headers) {
        if (field.name == "transfer-encoding") {
            transferEncoding = true;
            for (std::string_view coding : listItems(field.value))
                codings.push_back(coding);
        } else if (field.name == "content-length") {
            const std::vector<std::string_view> items = listItems(field.value);
            lengths.insert(lengths.end(), items.begin(), items.end());
            if (items.empty())
                lengths.push_back({});
        }
    }
    if (transferEncoding) {
        if (!lengths.empty()) {
            reject(400, "both Transfer-Encoding and Content-Length: the body's length is ambiguous",
                true);
            return;
        }
        if (m_http10) {
            reject(400, "Transfer-Encoding in an HTTP/1.0 request", true);
            return;
        }
        if (codings.empty() || !headerListContains(codings.back(), "chunked")) {
            reject(400, "chunked must be the final transfer coding", true);
            return;
        }
        if (codings.size() > 1) {
            reject(501, "unsupported transfer encoding (only chunked)", true);
            return;
        }
        m_state = State::ChunkSize;
        m_reading.start(m_limits.bodyTimeoutMs);
        return;
    }
    if (lengths.empty()) {
        dispatch();
        return;
    }
    qint64 size = -1;
    for (std::string_view length : lengths) {
        // Digits only: from_chars would take a sign, which other parsers do not.
        qint64 value = -1;
        const bool digits = !length.empty()
            && std::all_of(
                length.begin(), length.end(), [](char c) { return c >= '0' && c <= '9'; });
        const auto [ptr, ec] = std::from_chars(length.data(), length.data() + length.size(), value);
        if (!digits || ec != std::errc() || ptr != length.data() + length.size()
            || (size >= 0 && value != size)) {
            reject(400, "invalid Content-Length", true);
            return;
        }
        size = value;
    }
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
        head += "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n";
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
