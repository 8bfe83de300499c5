// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/websocket_gateway.h"

#include <algorithm>
#include <cctype>

#include <QTcpSocket>
#include <QUrl>
#include <QWebSocket>
#include <QWebSocketServer>

#include "core/server/http_connection.h"

namespace dra::server {

namespace {

// The subprotocols offered, in order, trimmed.
QList<QByteArray> offeredProtocols(QByteArrayView value)
{
    QList<QByteArray> protocols;
    for (const QByteArray &item : value.toByteArray().split(',')) {
        const QByteArray trimmed = item.trimmed();
        if (!trimmed.isEmpty())
            protocols.push_back(trimmed);
    }
    return protocols;
}

bool isBearerProtocol(QByteArrayView protocol)
{
    return protocol.startsWith(
        QByteArrayView(kBearerProtocolPrefix.data(), qsizetype(kBearerProtocolPrefix.size())));
}

std::pair<QString, quint16> peerKey(const QHostAddress &address, quint16 port)
{
    return { address.toString(), port };
}

} // namespace

bool isWebSocketUpgrade(const Request &request)
{
    return request.method == "GET" && headerListContains(request.header("upgrade"), "websocket")
        && headerListContains(request.header("connection"), "upgrade");
}

bool isCrossSiteWebSocket(const Request &request)
{
    const std::string origin = request.header("origin");
    if (origin.empty())
        return false;
    const QUrl url(QString::fromStdString(origin));
    if (!url.isValid() || url.host().isEmpty())
        return true; // "null" and other opaque origins
    // An origin is scheme, host and port: a page of http://HOST is not one of https://HOST,
    // which the Host header alone cannot tell on the default port.
    if (url.scheme() != (request.secure ? QLatin1String("https") : QLatin1String("http")))
        return true;
    const int defaultPort = request.secure ? 443 : 80;
    QString authority = url.host(QUrl::FullyEncoded).toLower();
    if (authority.contains(QLatin1Char(':')))
        authority = QLatin1Char('[') + authority + QLatin1Char(']'); // an IPv6 literal
    if (url.port(defaultPort) != defaultPort)
        authority += QLatin1Char(':') + QString::number(url.port());
    QString host = QString::fromStdString(request.header("host")).trimmed().toLower();
    const QString defaultSuffix = QLatin1Char(':') + QString::number(defaultPort);
    if (host.endsWith(defaultSuffix))
        host.chop(defaultSuffix.size());
    return authority != host;
}

std::optional<std::string> bearerTokenFromProtocols(const Request &request)
{
    for (const QByteArray &protocol :
        offeredProtocols(QByteArray::fromStdString(request.header("sec-websocket-protocol")))) {
        if (!isBearerProtocol(protocol))
            continue;
        const QByteArray encoded = protocol.mid(qsizetype(kBearerProtocolPrefix.size()));
        const QByteArray::FromBase64Result decoded = QByteArray::fromBase64Encoding(encoded,
            QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals
                | QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return std::nullopt;
        return decoded.decoded.toStdString();
    }
    return std::nullopt;
}

QByteArray withoutBearerProtocols(const QByteArray &head)
{
    QByteArray out;
    out.reserve(head.size() + 4);
    for (const QByteArray &line : head.split('\n')) {
        const QByteArray text = line.endsWith('\r') ? line.chopped(1) : line;
        const qsizetype colon = text.indexOf(':');
        if (colon > 0 && text.left(colon).trimmed().toLower() == "sec-websocket-protocol") {
            QList<QByteArray> kept;
            for (const QByteArray &protocol : offeredProtocols(text.mid(colon + 1))) {
                if (!isBearerProtocol(protocol))
                    kept.push_back(protocol);
            }
            if (!kept.isEmpty())
                out += "Sec-WebSocket-Protocol: " + kept.join(", ") + "\r\n";
            continue;
        }
        out += text + "\r\n";
    }
    return out + "\r\n"; // the blank line that ends the head
}

WebSocketGateway::WebSocketGateway(const QStringList &subprotocols, QObject *parent)
    : QObject(parent)
    , m_server(
          new QWebSocketServer(QStringLiteral("draconsole"), QWebSocketServer::NonSecureMode, this))
{
    // NonSecureMode: TLS, when there is any, was set up by the HTTP server on the socket.
    m_server->setSupportedSubprotocols(subprotocols);
    connect(m_server, &QWebSocketServer::newConnection, this, &WebSocketGateway::onNewConnection);
}

WebSocketGateway::~WebSocketGateway() = default;

void WebSocketGateway::accept(HttpConnection &connection, OpenHandler onOpen)
{
    QTcpSocket *socket = connection.releaseSocket(withoutBearerProtocols(connection.rawHead()));
    if (!socket)
        return;
    const auto key = peerKey(socket->peerAddress(), socket->peerPort());
    const quint64 serial = ++m_serial;
    m_pending[key] = Pending { serial, std::move(onOpen) };
    // A handshake that never completes (the client left) must not leave its handler behind.
    connect(socket, &QObject::destroyed, this, [this, key, serial] {
        if (const auto it = m_pending.find(key);
            it != m_pending.end() && it->second.serial == serial)
            m_pending.erase(it);
    });
    m_server->handleConnection(socket);
}

void WebSocketGateway::onNewConnection()
{
    while (m_server->hasPendingConnections()) {
        QWebSocket *socket = m_server->nextPendingConnection();
        const auto it = m_pending.find(peerKey(socket->peerAddress(), socket->peerPort()));
        if (it == m_pending.end()) {
            socket->close(QWebSocketProtocol::CloseCodePolicyViolated);
            socket->deleteLater();
            continue;
        }
        OpenHandler onOpen = std::move(it->second.onOpen);
        m_pending.erase(it);
        socket->setMaxAllowedIncomingMessageSize(quint64(kMaxWebSocketMessageBytes));
        socket->setMaxAllowedIncomingFrameSize(quint64(kMaxWebSocketMessageBytes));
        onOpen(socket);
    }
}

} // namespace dra::server
