// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <string>

#include <QObject>
#include <QPointer>

#include <nlohmann/json_fwd.hpp>

#include "core/server/console_visibility.h"
#include "core/server/resource_path.h"
#include "core/server/watch_hub.h"

class QWebSocket;

namespace dra::server {

class EventSink;
class ServedApi;
class WatchHub;

namespace console {

class ConsoleInventory;
class ConsoleRollouts;

// One page's WebSocket (/console/v1/ws): the subscriptions the page needs over one
// connection. A subscription is to a computed view (the server says "this view changed" with
// the new revision, and the page asks for what it shows) or to a Kubernetes watch (its events,
// resumable from a resourceVersion). The messages are in docs/web-console-protocol.md.
// Owns the socket; deletes itself when the page goes. Thread of the server.
class ConsoleChannel final : public QObject
{
    Q_OBJECT
public:
    ConsoleChannel(QWebSocket *socket, qint64 maxPendingWriteBytes, ConsoleInventory &inventory,
        ConsoleRollouts &rollouts, const ServedApi &api, WatchHub &watches, AccessCheck check,
        QObject *parent = nullptr);
    ~ConsoleChannel() override;

    // Sends one message; false when the page fell too far behind and was dropped.
    bool send(const nlohmann::json &message);

private:
    void onMessage(const QString &text);
    void subscribe(const nlohmann::json &message);
    void subscribeWatch(const std::string &id, const nlohmann::json &watch);
    void startWatch(const std::string &id, const std::string &path, WatchRequest watch,
        const ResourcePath &resource);
    void unsubscribe(const std::string &id);
    void sendError(const std::string &id, int code, const std::string &message);
    void onChanged(qint64 rev, const QStringList &kinds);
    void onRolloutsChanged();

    QPointer<QWebSocket> m_socket;
    qint64 m_maxPendingWriteBytes;
    ConsoleInventory &m_inventory;
    const ServedApi &m_api;
    WatchHub &m_watches;
    AccessCheck m_check; // may the page's user watch what it subscribes to; unset: yes
    std::map<std::string, std::string> m_views; // subscription id -> view name
    std::map<std::string, QPointer<EventSink>> m_watchSinks; // subscription id -> its watch
};

} // namespace console
} // namespace dra::server
