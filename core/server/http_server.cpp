// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/http_server.h"

#include <sys/resource.h>

#include <algorithm>
#include <climits>
#include <limits>

#include <QSslServer>
#include <QTcpServer>
#include <QTcpSocket>

#include "core/common/logging.h"

namespace dra::server {

using common::Error;

namespace {
// Descriptors kept for the process's own files when sizing the connection limit.
constexpr int kReservedDescriptors = 128;
} // namespace

HttpServer::HttpServer(RequestHandler handler, QObject *parent)
    : QObject(parent)
    , m_handler(std::move(handler))
    , m_maxConnections(defaultMaxConnections())
{
}

HttpServer::~HttpServer() = default;

void HttpServer::setTlsConfiguration(const QSslConfiguration &configuration)
{
    m_tls = configuration;
}

Result<void> HttpServer::listen(const QHostAddress &address, quint16 port)
{
    close();
    if (m_tls) {
        auto *server = new QSslServer(this);
        server->setSslConfiguration(*m_tls);
        // A client that never finishes its handshake must not hold a socket for long.
        server->setHandshakeTimeout(10 * 1000);
        m_server = server;
    } else {
        m_server = new QTcpServer(this);
    }
    // QSslServer queues a socket only after its handshake, so both kinds signal through
    // pendingConnectionAvailable rather than newConnection.
    connect(m_server, &QTcpServer::pendingConnectionAvailable, this, &HttpServer::acceptPending);
    if (!m_server->listen(address, port)) {
        const QString where = address.toString() + QLatin1Char(':') + QString::number(port);
        const bool busy = m_server->serverError() == QAbstractSocket::AddressInUseError;
        const QString reason = m_server->errorString();
        delete m_server;
        m_server = nullptr;
        if (busy)
            return dra::fail(Error::Code::Busy,
                QStringLiteral("%1 is already in use; stop the other server or pick another "
                               "port with --listen %2:PORT (0 picks a free one)")
                    .arg(where, address.toString()));
        return dra::fail(
            Error::Code::Network, QStringLiteral("cannot listen on %1: %2").arg(where, reason));
    }
    return {};
}

void HttpServer::close()
{
    if (!m_server)
        return;
    m_server->close();
    delete m_server;
    m_server = nullptr;
}

void HttpServer::abortConnections()
{
    for (HttpConnection *connection : findChildren<HttpConnection *>(Qt::FindDirectChildrenOnly))
        connection->abort();
}

quint16 HttpServer::port() const
{
    return m_server ? m_server->serverPort() : 0;
}

QHostAddress HttpServer::address() const
{
    return m_server ? m_server->serverAddress() : QHostAddress();
}

void HttpServer::acceptPending()
{
    while (m_server && m_server->hasPendingConnections()) {
        QTcpSocket *socket = m_server->nextPendingConnection();
        if (!socket)
            break;
        if (m_connections >= m_maxConnections) {
            // Said once per burst: a flood must not also flood the log.
            if (m_refused++ % 1000 == 0)
                qCWarning(lcServer).noquote()
                    << "refusing connections:" << m_connections
                    << "are open, the limit; refused so far:" << m_refused;
            socket->abort();
            socket->deleteLater();
            continue;
        }
        // Counted for as long as the socket lives, which a WebSocket handed off from its
        // connection keeps open after the connection object has gone.
        ++m_connections;
        connect(socket, &QObject::destroyed, this, [this] { --m_connections; });
        auto *connection = new HttpConnection(socket, m_handler, m_limits, this);
        if (m_observer)
            connection->setObserver(m_observer);
    }
}

int defaultMaxConnections()
{
    rlimit files {};
    if (getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY)
        return 16'384;
    const rlim_t usable = files.rlim_cur > rlim_t(kReservedDescriptors + 64)
        ? files.rlim_cur - kReservedDescriptors
        : 64;
    return int(std::min<rlim_t>(usable, 1'000'000));
}

int raiseOpenFileLimit()
{
    rlimit files {};
    if (getrlimit(RLIMIT_NOFILE, &files) != 0)
        return -1;
    if (files.rlim_cur < files.rlim_max) {
        rlimit raised = files;
        raised.rlim_cur = files.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
            files = raised;
    }
    return files.rlim_cur == RLIM_INFINITY ? std::numeric_limits<int>::max()
                                           : int(std::min<rlim_t>(files.rlim_cur, INT_MAX));
}

QString httpsUrl(const QHostAddress &address, quint16 port)
{
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
        ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
        : address.toString();
    return QStringLiteral("https://%1:%2").arg(host).arg(port);
}

} // namespace dra::server
