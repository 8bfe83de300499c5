// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/websocket_sink.h"

#include <QWebSocket>

namespace dra::server {

WebSocketEventSink::WebSocketEventSink(
    QWebSocket *socket, qint64 maxPendingWriteBytes, QObject *parent)
    : EventSink(parent)
    , m_socket(socket)
    , m_maxPendingWriteBytes(maxPendingWriteBytes)
{
    socket->setParent(this);
    connect(socket, &QWebSocket::disconnected, this, &WebSocketEventSink::onDisconnected);
    // A watch only speaks; what a client sends (pings are answered by QWebSocket) is ignored.
}

bool WebSocketEventSink::write(QByteArrayView event)
{
    if (!isOpen() || !m_socket)
        return false;
    if (m_socket->bytesToWrite() > m_maxPendingWriteBytes) {
        // A watcher that does not read would otherwise make us buffer every event forever.
        m_socket->abort();
        onDisconnected();
        return false;
    }
    if (event.endsWith('\n'))
        event.chop(1); // one message per event: the line break is the HTTP stream's framing
    m_socket->sendTextMessage(QString::fromUtf8(event));
    m_socket->flush();
    return true;
}

void WebSocketEventSink::finish()
{
    if (!isOpen() || !m_socket)
        return;
    m_socket->close(QWebSocketProtocol::CloseCodeNormal);
}

void WebSocketEventSink::onDisconnected()
{
    if (!isOpen())
        return;
    markClosed();
    deleteLater();
}

} // namespace dra::server
