// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QSslConfiguration>
#include <QSslServer>

#include "core/common/result.h"

namespace dra::cli {

// The floors `bench serve` compares the API server with: servers that do nothing but write
// saved response bytes, over TLS with the same kind of key, fetched by the same client.

// `openssl s_server -WWW` serving the files of a folder (HTTP/1.0, one request a connection).
class OpensslWwwFloor final
{
public:
    ~OpensslWwwFloor();
    // Starts it on a free loopback port; fails when openssl is missing or does not start.
    [[nodiscard]] Result<void> start(
        const QString &folder, const QString &certificatePath, const QString &keyPath);
    uint16_t port() const { return m_port; }

private:
    QProcess m_process;
    uint16_t m_port = 0;
};

// A bare QSslServer on this thread's event loop: reads a request head, writes the bytes saved
// for its path with a Content-Length, closes. What any Qt server pays to put the bytes on the
// wire, and nothing else.
class QtTlsFloor final : public QObject
{
public:
    QtTlsFloor(const QSslConfiguration &tls, std::map<std::string, QByteArray> bodies);
    [[nodiscard]] Result<void> listen();
    uint16_t port() const { return m_server.serverPort(); }

private:
    void serve(QTcpSocket *socket);

    QSslServer m_server;
    std::map<std::string, QByteArray> m_bodies; // by request path
};

} // namespace dra::cli
