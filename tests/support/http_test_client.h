// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>

#include <QByteArray>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTcpSocket>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace dra::server::test {

// Spins the event loop until `done` holds or `ms` pass; the server under test runs on the
// same thread, so blocking socket waits would starve it.
inline bool spinUntil(const std::function<bool()> &done, int ms = 5000)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > ms)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    }
    return true;
}

// The kernel's TCP state of a socket (TCP_ESTABLISHED, TCP_CLOSE_WAIT after the peer closed in
// order, TCP_CLOSE after a reset), whether or not the socket's owner has read what arrived.
inline int tcpStateOf(const QTcpSocket &socket)
{
    tcp_info info {};
    socklen_t length = sizeof info;
    if (::getsockopt(int(socket.socketDescriptor()), IPPROTO_TCP, TCP_INFO, &info, &length) != 0)
        return -1;
    return info.tcpi_state;
}

// A raw loopback client: writes bytes as given and collects everything the server sends.
class RawClient
{
public:
    explicit RawClient(quint16 port)
    {
        QObject::connect(&m_socket, &QTcpSocket::readyRead, &m_socket,
            [this] { m_received += m_socket.readAll(); });
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        spinUntil([this] { return m_socket.state() == QAbstractSocket::ConnectedState; });
    }
    void send(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
    }
    // Waits until the received bytes contain `needle` `count` times.
    bool waitFor(const QByteArray &needle, int count = 1, int ms = 5000)
    {
        return spinUntil([&] { return m_received.count(needle) >= count; }, ms);
    }
    bool waitForClose(int ms = 5000)
    {
        return spinUntil(
            [this] { return m_socket.state() == QAbstractSocket::UnconnectedState; }, ms);
    }
    QByteArray &received() { return m_received; }
    QTcpSocket &socket() { return m_socket; }

private:
    QTcpSocket m_socket;
    QByteArray m_received;
};

} // namespace dra::server::test
