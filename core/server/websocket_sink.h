// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QPointer>

#include "core/server/event_sink.h"

class QWebSocket;

namespace dra::server {

// A watch over a WebSocket, as kube-apiserver serves one: every event is one text message
// holding one JSON watch event. Owns the socket; deletes itself when the client leaves.
class WebSocketEventSink final : public EventSink
{
    Q_OBJECT
public:
    // `maxPendingWriteBytes`: a client this far behind is disconnected rather than buffered for.
    WebSocketEventSink(QWebSocket *socket, qint64 maxPendingWriteBytes, QObject *parent = nullptr);

    bool write(QByteArrayView event) override;
    // Closes the WebSocket normally (1000).
    void finish() override;

private:
    void onDisconnected();

    QPointer<QWebSocket> m_socket;
    qint64 m_maxPendingWriteBytes;
};

} // namespace dra::server
