// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <optional>

#include <QHostAddress>
#include <QObject>
#include <QSslConfiguration>

#include "core/common/result.h"
#include "core/server/http_connection.h"

class QTcpServer;

namespace dra::server {

// Accepts HTTP/1.1 clients over TCP, or over TLS when given a configuration, and hands each
// complete request to one handler. Thread of its creator; connections live on the same thread.
class HttpServer final : public QObject
{
    Q_OBJECT
public:
    explicit HttpServer(RequestHandler handler, QObject *parent = nullptr);
    ~HttpServer() override;

    // Serve HTTPS with this certificate and key; call before listen().
    void setTlsConfiguration(const QSslConfiguration &configuration);
    void setLimits(const HttpLimits &limits) { m_limits = limits; }
    // At most this many connections are open at once, WebSockets handed off included; one more
    // is closed as soon as it is accepted, so a flood of clients cannot take every file
    // descriptor of the process (and with them the cache). Default: defaultMaxConnections().
    void setMaxConnections(int count) { m_maxConnections = count; }
    int maxConnections() const { return m_maxConnections; }
    // Told of every answer of the connections accepted from now on (metrics).
    void setExchangeObserver(ExchangeObserver observer) { m_observer = std::move(observer); }

    // Starts listening; port 0 picks a free port (see port()). A port in use is an error of
    // code Busy whose message names the address and suggests another port.
    [[nodiscard]] Result<void> listen(const QHostAddress &address, quint16 port);
    // Stops accepting connections; open ones stay.
    void close();
    // Drops every open connection at once, as a server process that dies does.
    void abortConnections();

    quint16 port() const;
    QHostAddress address() const;
    bool isSecure() const { return m_tls.has_value(); }
    // Connections currently open (for tests and the status line).
    int connectionCount() const { return m_connections; }
    // Connections closed at once because maxConnections() were open.
    int refusedConnections() const { return m_refused; }

private:
    void acceptPending();

    RequestHandler m_handler;
    ExchangeObserver m_observer;
    HttpLimits m_limits;
    std::optional<QSslConfiguration> m_tls;
    QTcpServer *m_server = nullptr;
    int m_connections = 0;
    int m_maxConnections;
    int m_refused = 0;
};

// Connections a server may hold: the process's open-file limit less room for its own files
// (the cache, the state file, certificates, pipes), at least 64.
int defaultMaxConnections();

// Raises the process's soft limit of open files to its hard limit, as Go programs such as
// kube-apiserver do at start, so that a server is bounded by what the system allows rather than
// by a shell's default of 1024. Returns the soft limit in force afterwards.
int raiseOpenFileLimit();

// "https://127.0.0.1:6443", "https://[::1]:6443": the URL a client uses for a server listening on
// `address` and `port`.
QString httpsUrl(const QHostAddress &address, quint16 port);

} // namespace dra::server
