// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/commands/bench_floor_servers.h"

#include <QRegularExpression>
#include <QSslSocket>

namespace dra::cli {

using common::Error;

OpensslWwwFloor::~OpensslWwwFloor()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished(3000);
    }
}

Result<void> OpensslWwwFloor::start(
    const QString &folder, const QString &certificatePath, const QString &keyPath)
{
    m_process.setWorkingDirectory(folder);
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.start(QStringLiteral("openssl"),
        { QStringLiteral("s_server"), QStringLiteral("-WWW"), QStringLiteral("-accept"),
            QStringLiteral("127.0.0.1:0"), QStringLiteral("-cert"), certificatePath,
            QStringLiteral("-key"), keyPath });
    if (!m_process.waitForStarted(5000))
        return dra::fail(Error::Code::Network,
            QStringLiteral("openssl s_server did not start: %1").arg(m_process.errorString()));
    // It says where it listens: "ACCEPT 127.0.0.1:PORT".
    static const QRegularExpression accept(QStringLiteral("ACCEPT 127\\.0\\.0\\.1:(\\d+)"));
    QByteArray said;
    while (m_process.waitForReadyRead(5000)) {
        said += m_process.readAll();
        if (const QRegularExpressionMatch match = accept.match(QString::fromUtf8(said));
            match.hasMatch()) {
            m_port = uint16_t(match.captured(1).toUInt());
            return {};
        }
    }
    return dra::fail(Error::Code::Network,
        QStringLiteral("openssl s_server did not say where it listens: %1")
            .arg(QString::fromUtf8(said)));
}

QtTlsFloor::QtTlsFloor(const QSslConfiguration &tls, std::map<std::string, QByteArray> bodies)
    : m_bodies(std::move(bodies))
{
    m_server.setSslConfiguration(tls);
    connect(&m_server, &QTcpServer::pendingConnectionAvailable, this, [this] {
        while (QTcpSocket *socket = m_server.nextPendingConnection())
            serve(socket);
    });
}

Result<void> QtTlsFloor::listen()
{
    if (!m_server.listen(QHostAddress::LocalHost, 0))
        return dra::fail(Error::Code::Network,
            QStringLiteral("the QSslServer floor cannot listen: %1").arg(m_server.errorString()));
    return {};
}

void QtTlsFloor::serve(QTcpSocket *socket)
{
    auto head = std::make_shared<QByteArray>();
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    connect(socket, &QTcpSocket::readyRead, socket, [this, socket, head] {
        *head += socket->readAll();
        if (!head->contains("\r\n\r\n"))
            return;
        const qsizetype space = head->indexOf(' ');
        const QByteArray path = head->mid(space + 1, head->indexOf(' ', space + 1) - space - 1);
        head->clear();
        const auto body = m_bodies.find(path.toStdString());
        if (body == m_bodies.end()) {
            socket->write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
        } else {
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                + QByteArray::number(body->second.size()) + "\r\n\r\n");
            socket->write(body->second);
        }
    });
}

} // namespace dra::cli
