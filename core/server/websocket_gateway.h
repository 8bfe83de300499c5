// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include <QHostAddress>
#include <QObject>

#include "core/server/http_message.h"

class QWebSocket;
class QWebSocketServer;

namespace dra::server {

class HttpConnection;

// The subprotocol that carries a bearer token where a browser cannot send an Authorization
// header, as kube-apiserver accepts it: "base64url.bearer.authorization.k8s.io." followed by
// the token in unpadded base64url.
inline constexpr std::string_view kBearerProtocolPrefix = "base64url.bearer.authorization.k8s.io.";

// The largest message (and frame) a client may send over a WebSocket of the server. Clients
// send subscriptions and closes, never data: a bigger message is an attack on memory, and the
// socket is closed with 1009 (message too big).
inline constexpr qint64 kMaxWebSocketMessageBytes = 1024 * 1024;

// True when `request` asks to switch to the WebSocket protocol (GET with Upgrade: websocket).
bool isWebSocketUpgrade(const Request &request);

// True when a WebSocket request comes from a page of another site: its Origin header names a
// scheme other than the connection's, a host and port other than the Host it asked, or the
// opaque origin "null". Clients that send no
// Origin (kubectl, client libraries) are not pages and are never refused.
bool isCrossSiteWebSocket(const Request &request);

// The bearer token a WebSocket request carries in its subprotocols, if any.
std::optional<std::string> bearerTokenFromProtocols(const Request &request);

// `head` with the bearer-token subprotocols removed from Sec-WebSocket-Protocol (the header is
// dropped when nothing else is left), as kube-apiserver strips them once it has authenticated:
// the token is never echoed back, and the handshake negotiates only real subprotocols.
QByteArray withoutBearerProtocols(const QByteArray &head);

// Hands WebSocket upgrades of the HTTP server to QWebSocketServer::handleConnection, which
// answers the handshake, and gives each opened socket to the code that accepted its request.
// Thread of its HTTP connections.
class WebSocketGateway final : public QObject
{
    Q_OBJECT
public:
    // `subprotocols`: those the server selects when a client offers them.
    explicit WebSocketGateway(const QStringList &subprotocols, QObject *parent = nullptr);
    ~WebSocketGateway() override;

    using OpenHandler = std::function<void(QWebSocket *socket)>;
    // Takes over the connection whose request (already authenticated and accepted) asks for a
    // WebSocket; `onOpen` gets the socket once the handshake is done and owns it from then on.
    // A handshake that fails is answered by QWebSocketServer and `onOpen` is never called.
    void accept(HttpConnection &connection, OpenHandler onOpen);

    int pendingCount() const { return int(m_pending.size()); }

private:
    void onNewConnection();

    QWebSocketServer *m_server;
    // Sockets between hand-over and handshake, by the client's address and port (what a
    // QWebSocket tells of the TCP connection under it).
    struct Pending
    {
        quint64 serial; // tells this hand-over from a later one on a reused port
        OpenHandler onOpen;
    };
    std::map<std::pair<QString, quint16>, Pending> m_pending;
    quint64 m_serial = 0;
};

} // namespace dra::server
