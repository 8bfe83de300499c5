// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QByteArrayView>
#include <QObject>

namespace dra::server {

// Where a watch writes its events: a chunked HTTP response (HttpStream) or a WebSocket
// (WebSocketEventSink). Objects serving the watch are its children, so they go away with it.
class EventSink : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // Sends one event (a compact JSON document ending in '\n'). Returns false, and drops the
    // client, when it has fallen too far behind; false too once the sink is closed.
    virtual bool write(QByteArrayView event) = 0;
    // Ends the stream cleanly; a client resumes from the last resourceVersion it saw.
    virtual void finish() = 0;
    bool isOpen() const { return m_open; }

Q_SIGNALS:
    // The stream ended: finished, or the client went away or was cut off.
    void closed();

protected:
    void markClosed()
    {
        if (!m_open)
            return;
        m_open = false;
        Q_EMIT closed();
    }

private:
    bool m_open = true;
};

} // namespace dra::server
