// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/raw_http_reply.h"

#include <algorithm>
#include <cstring>

#include <QSslConfiguration>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>

namespace dra::kube {

namespace {

constexpr qsizetype kMaxHeadBytes = 1024 * 1024;

// Headers the connection itself decides: taken from the request only through this class.
bool connectionHeader(const QByteArray &name)
{
    for (const char *own : { "host", "content-length", "connection", "transfer-encoding",
             "accept-encoding", "keep-alive", "expect", "upgrade" })
        if (name.compare(own, Qt::CaseInsensitive) == 0)
            return true;
    return false;
}

QNetworkReply::NetworkError replyErrorFor(QAbstractSocket::SocketError error)
{
    switch (error) {
    case QAbstractSocket::ConnectionRefusedError:
        return QNetworkReply::ConnectionRefusedError;
    case QAbstractSocket::RemoteHostClosedError:
        return QNetworkReply::RemoteHostClosedError;
    case QAbstractSocket::HostNotFoundError:
        return QNetworkReply::HostNotFoundError;
    case QAbstractSocket::SocketTimeoutError:
        return QNetworkReply::TimeoutError;
    case QAbstractSocket::SslHandshakeFailedError:
    case QAbstractSocket::SslInvalidUserDataError: // a client certificate or key TLS refuses
        return QNetworkReply::SslHandshakeFailedError;
    case QAbstractSocket::ProxyConnectionRefusedError:
        return QNetworkReply::ProxyConnectionRefusedError;
    case QAbstractSocket::ProxyConnectionClosedError:
        return QNetworkReply::ProxyConnectionClosedError;
    case QAbstractSocket::ProxyConnectionTimeoutError:
        return QNetworkReply::ProxyTimeoutError;
    case QAbstractSocket::ProxyNotFoundError:
        return QNetworkReply::ProxyNotFoundError;
    case QAbstractSocket::ProxyAuthenticationRequiredError:
        return QNetworkReply::ProxyAuthenticationRequiredError;
    default:
        return QNetworkReply::UnknownNetworkError;
    }
}

} // namespace

bool repeatsAName(const HeaderLines &headers)
{
    for (size_t i = 0; i < headers.size(); ++i)
        for (size_t j = i + 1; j < headers.size(); ++j)
            if (headers[i].first.compare(headers[j].first, Qt::CaseInsensitive) == 0)
                return true;
    return false;
}

RawHttpReply::RawHttpReply(const QNetworkRequest &request, const QByteArray &method,
    const QByteArray &body, HeaderLines extraHeaders, const QNetworkProxy &proxy, QObject *parent)
    : QNetworkReply(parent)
    , m_method(method)
    , m_body(body)
    , m_extraHeaders(std::move(extraHeaders))
{
    setRequest(request);
    setUrl(request.url());
    setOperation(QNetworkAccessManager::CustomOperation);
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);

    const QUrl url = request.url();
    if (url.scheme() == QLatin1String("https")) {
        auto *socket = new QSslSocket(this);
        QSslConfiguration tls = request.sslConfiguration();
        tls.setAllowedNextProtocols({ QByteArrayLiteral("http/1.1") });
        socket->setSslConfiguration(tls);
        socket->setPeerVerifyName(request.peerVerifyName());
        connect(socket, &QSslSocket::sslErrors, this,
            [this](const QList<QSslError> &errors) { Q_EMIT sslErrors(errors); });
        connect(socket, &QSslSocket::encrypted, this, &RawHttpReply::sendRequest);
        m_socket = socket;
    } else {
        m_socket = new QTcpSocket(this);
        connect(m_socket, &QTcpSocket::connected, this, &RawHttpReply::sendRequest);
    }
    m_socket->setProxy(proxy);
    connect(m_socket, &QTcpSocket::readyRead, this, &RawHttpReply::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &RawHttpReply::onDisconnected);
    connect(m_socket, &QTcpSocket::errorOccurred, this, &RawHttpReply::onSocketError);
    if (request.transferTimeout() > 0) {
        m_timeout = new QTimer(this);
        m_timeout->setSingleShot(true);
        m_timeout->setInterval(request.transferTimeout());
        connect(m_timeout, &QTimer::timeout, this,
            [this] { failWith(OperationCanceledError, QStringLiteral("Operation canceled")); });
        m_timeout->start();
    }
    // Connected on the next event-loop turn, as the managers' replies start: callers connect
    // to this reply's signals first.
    QTimer::singleShot(0, this, [this, url] {
        if (m_stage == Stage::Done)
            return;
        if (auto *ssl = qobject_cast<QSslSocket *>(m_socket))
            ssl->connectToHostEncrypted(url.host(), quint16(url.port(443)));
        else
            m_socket->connectToHost(url.host(), quint16(url.port(80)));
    });
}

RawHttpReply::~RawHttpReply()
{
    if (m_socket)
        m_socket->disconnect(this);
}

void RawHttpReply::abort()
{
    failWith(OperationCanceledError, QStringLiteral("Operation canceled"));
}

qint64 RawHttpReply::bytesAvailable() const
{
    return QNetworkReply::bytesAvailable() + m_buffer.size();
}

qint64 RawHttpReply::readData(char *data, qint64 maxSize)
{
    const qint64 n = std::min<qint64>(maxSize, m_buffer.size());
    if (n == 0)
        return isFinished() ? -1 : 0;
    std::memcpy(data, m_buffer.constData(), size_t(n));
    m_buffer.remove(0, n);
    return n;
}

void RawHttpReply::restartTimeout()
{
    if (m_timeout)
        m_timeout->start();
}

void RawHttpReply::sendRequest()
{
    restartTimeout();
    const QUrl url = request().url();
    QByteArray target = url.path(QUrl::FullyEncoded).toLatin1();
    if (target.isEmpty())
        target = "/";
    if (url.hasQuery())
        target += '?' + url.query(QUrl::FullyEncoded).toLatin1();
    QByteArray host = url.host(QUrl::FullyEncoded).toLatin1();
    if (host.contains(':'))
        host = '[' + host + ']';
    const bool tls = url.scheme() == QLatin1String("https");
    if (url.port() != -1 && url.port() != (tls ? 443 : 80))
        host += ':' + QByteArray::number(url.port());

    QByteArray head = m_method + ' ' + target + " HTTP/1.1\r\nHost: " + host + "\r\n";
    const QNetworkRequest &sent = request();
    for (const QByteArray &name : sent.rawHeaderList()) {
        if (!connectionHeader(name))
            head += name + ": " + sent.rawHeader(name) + "\r\n";
    }
    for (const auto &[name, value] : m_extraHeaders)
        head += name + ": " + value + "\r\n";
    if (!m_body.isEmpty() || (m_method != "GET" && m_method != "HEAD"))
        head += "Content-Length: " + QByteArray::number(m_body.size()) + "\r\n";
    // One request per connection: the end of the body needs no further bookkeeping.
    head += "Connection: close\r\n\r\n";
    head += m_body;
    m_socket->write(head);
}

void RawHttpReply::onReadyRead()
{
    if (m_stage == Stage::Done)
        return;
    restartTimeout();
    m_incoming += m_socket->readAll();
    if (m_stage == Stage::Head)
        parseHead();
    if (m_stage == Stage::Body)
        parseBody();
}

void RawHttpReply::parseHead()
{
    while (m_stage == Stage::Head) {
        const qsizetype end = m_incoming.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_incoming.size() > kMaxHeadBytes)
                failWith(ProtocolFailure, QStringLiteral("the response headers are too large"));
            return;
        }
        const QByteArray head = m_incoming.left(end);
        m_incoming.remove(0, end + 4);
        QList<QByteArray> lines = head.split('\n');
        const QList<QByteArray> statusLine = lines.takeFirst().trimmed().split(' ');
        bool ok = false;
        const int status = statusLine.size() >= 2 ? statusLine[1].toInt(&ok) : 0;
        if (!ok || !statusLine[0].startsWith("HTTP/1.")) {
            failWith(ProtocolFailure, QStringLiteral("the server did not answer in HTTP/1.1"));
            return;
        }
        if (status >= 100 && status < 200)
            continue; // an interim response; the real one follows
        qint64 length = -1;
        bool chunked = false;
        for (const QByteArray &line : lines) {
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = line.left(colon).trimmed();
            const QByteArray value = line.mid(colon + 1).trimmed();
            // Repeated fields combine as a list, as Qt's own replies show them.
            const QByteArray before = rawHeader(name);
            setRawHeader(name, before.isEmpty() ? value : QByteArray(before + ", " + value));
            if (name.compare("content-length", Qt::CaseInsensitive) == 0)
                length = value.toLongLong();
            else if (name.compare("transfer-encoding", Qt::CaseInsensitive) == 0)
                chunked = value.toLower().contains("chunked");
        }
        setAttribute(QNetworkRequest::HttpStatusCodeAttribute, status);
        setAttribute(
            QNetworkRequest::HttpReasonPhraseAttribute, statusLine.mid(2).join(' ').trimmed());
        m_stage = Stage::Body;
        if (chunked) {
            m_framing = Framing::Chunked;
        } else if (length >= 0) {
            m_framing = Framing::Length;
            m_remaining = length;
        }
        Q_EMIT metaDataChanged();
        if (m_stage != Stage::Body)
            return; // aborted by a listener
        if (m_method == "HEAD" || status == 204 || status == 304
            || (m_framing == Framing::Length && m_remaining == 0)) {
            complete();
            return;
        }
    }
}

void RawHttpReply::parseBody()
{
    const qsizetype before = m_buffer.size();
    bool ended = false;
    switch (m_framing) {
    case Framing::UntilClose:
        m_buffer += m_incoming;
        m_incoming.clear();
        break;
    case Framing::Length: {
        const qint64 n = std::min<qint64>(m_remaining, m_incoming.size());
        m_buffer += m_incoming.left(n);
        m_incoming.remove(0, n);
        m_remaining -= n;
        ended = m_remaining == 0;
        break;
    }
    case Framing::Chunked:
        while (!ended) {
            if (m_inChunk) {
                const qint64 n = std::min<qint64>(m_remaining, m_incoming.size());
                m_buffer += m_incoming.left(n);
                m_incoming.remove(0, n);
                m_remaining -= n;
                if (m_remaining > 0 || m_incoming.size() < 2)
                    break;
                m_incoming.remove(0, 2); // the CRLF after the chunk's data
                m_inChunk = false;
                continue;
            }
            const qsizetype eol = m_incoming.indexOf("\r\n");
            if (eol < 0)
                break;
            const QByteArray line = m_incoming.left(eol);
            m_incoming.remove(0, eol + 2);
            if (m_inTrailer) {
                ended = line.isEmpty();
                continue;
            }
            bool ok = false;
            const qint64 size = line.split(';').first().trimmed().toLongLong(&ok, 16);
            if (!ok || size < 0) {
                failWith(ProtocolFailure, QStringLiteral("a malformed chunk in the response"));
                return;
            }
            if (size == 0)
                m_inTrailer = true;
            else {
                m_remaining = size;
                m_inChunk = true;
            }
        }
        break;
    }
    if (m_buffer.size() > before) {
        Q_EMIT readyRead();
        if (m_stage != Stage::Body)
            return; // aborted by a listener
    }
    if (ended)
        complete();
}

void RawHttpReply::onDisconnected()
{
    if (m_stage == Stage::Done)
        return;
    if (m_socket->bytesAvailable() > 0)
        onReadyRead();
    if (m_stage == Stage::Body && m_framing == Framing::UntilClose) {
        complete();
        return;
    }
    failWith(RemoteHostClosedError,
        QStringLiteral("Connection closed before the response was complete"));
}

void RawHttpReply::onSocketError()
{
    if (m_stage == Stage::Done)
        return;
    const QAbstractSocket::SocketError error = m_socket->error();
    if (error == QAbstractSocket::RemoteHostClosedError)
        return; // disconnected() decides whether the response was complete
    QString message = m_socket->errorString();
    if (error == QAbstractSocket::SslHandshakeFailedError)
        message = QStringLiteral("SSL handshake failed: ") + message;
    failWith(replyErrorFor(error), message);
}

void RawHttpReply::complete()
{
    if (m_stage == Stage::Done)
        return;
    m_stage = Stage::Done;
    if (m_timeout)
        m_timeout->stop();
    m_socket->disconnect(this);
    m_socket->disconnectFromHost();
    setFinished(true);
    Q_EMIT finished();
}

void RawHttpReply::failWith(NetworkError code, const QString &message)
{
    if (m_stage == Stage::Done)
        return;
    m_stage = Stage::Done;
    if (m_timeout)
        m_timeout->stop();
    m_socket->disconnect(this);
    m_socket->abort();
    setError(code, message);
    setFinished(true);
    Q_EMIT errorOccurred(code);
    Q_EMIT finished();
}

} // namespace dra::kube
