// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/commands/bench_http_client.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/ssl.h>

namespace dra::cli {

BenchTls::BenchTls()
    : m_context(SSL_CTX_new(TLS_client_method()))
{
    if (m_context) {
        SSL_CTX_set_min_proto_version(m_context, TLS1_2_VERSION);
        SSL_CTX_set_verify(m_context, SSL_VERIFY_NONE, nullptr);
    }
}

BenchTls::~BenchTls()
{
    SSL_CTX_free(m_context);
}

BenchConnection::BenchConnection(const BenchTls &tls, uint16_t port)
{
    if (!tls.context())
        return;
    m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (m_fd < 0)
        return;
    const int one = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0)
        return;
    SSL *ssl = SSL_new(tls.context());
    if (!ssl)
        return;
    SSL_set_fd(ssl, m_fd);
    SSL_set_tlsext_host_name(ssl, "localhost");
    if (SSL_connect(ssl) != 1) {
        SSL_free(ssl);
        return;
    }
    m_ssl = ssl;
}

BenchConnection::~BenchConnection()
{
    if (m_ssl) {
        SSL_shutdown(m_ssl);
        SSL_free(m_ssl);
    }
    if (m_fd >= 0)
        ::close(m_fd);
}

bool BenchConnection::sendAll(const std::string &data)
{
    if (!m_ssl)
        return false;
    std::size_t sent = 0;
    while (sent < data.size()) {
        const int n = SSL_write(m_ssl, data.data() + sent, int(data.size() - sent));
        if (n <= 0)
            return false;
        sent += std::size_t(n);
    }
    return true;
}

ssize_t BenchConnection::receive(char *data, std::size_t size)
{
    if (!m_ssl)
        return -1;
    const int n = SSL_read(m_ssl, data, int(size));
    if (n > 0)
        return n;
    const int error = SSL_get_error(m_ssl, n);
    return error == SSL_ERROR_ZERO_RETURN || error == SSL_ERROR_SYSCALL ? 0 : -1;
}

int BenchConnection::readResponse(std::string *body, std::size_t *bodyBytes)
{
    // One buffer per thread, reused: a 25 MB list arrives in many reads.
    thread_local std::unique_ptr<char[]> chunk(new char[1 << 20]);
    std::size_t headEnd = std::string::npos;
    std::size_t length = std::string::npos; // npos: to the end of the stream
    int status = -1;
    std::size_t searchFrom = 0;
    while (true) {
        if (headEnd == std::string::npos) {
            headEnd = m_buffer.find("\r\n\r\n", searchFrom);
            if (headEnd != std::string::npos) {
                status = m_buffer.size() >= 12 ? std::atoi(m_buffer.c_str() + 9) : -1;
                const std::string head = m_buffer.substr(0, headEnd);
                for (const char *name : { "Content-Length: ", "content-length: " }) {
                    if (const std::size_t at = head.find(name); at != std::string::npos)
                        length = std::strtoull(head.c_str() + at + std::strlen(name), nullptr, 10);
                }
            } else {
                searchFrom = m_buffer.size() >= 3 ? m_buffer.size() - 3 : 0;
            }
        }
        if (headEnd != std::string::npos && length != std::string::npos
            && m_buffer.size() >= headEnd + 4 + length)
            break;
        if (headEnd != std::string::npos && length != std::string::npos)
            m_buffer.reserve(headEnd + 4 + length);
        const ssize_t n = receive(chunk.get(), 1 << 20);
        if (n < 0)
            return -1;
        if (n == 0) {
            if (headEnd == std::string::npos || length != std::string::npos)
                return -1;
            length = m_buffer.size() - headEnd - 4; // framed by the end of the stream
            break;
        }
        m_buffer.append(chunk.get(), std::size_t(n));
    }
    if (bodyBytes)
        *bodyBytes = length;
    if (body)
        body->assign(m_buffer, headEnd + 4, length);
    m_buffer.erase(0, headEnd + 4 + length);
    return status;
}

std::string benchRequest(const std::string &method, const std::string &target,
    const std::string &body, const std::string &token)
{
    std::string text = method + " " + target
        + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nUser-Agent: "
          "dractl-bench\r\n";
    if (!token.empty())
        text += "Authorization: Bearer " + token + "\r\n";
    if (!body.empty())
        text += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size())
            + "\r\n";
    return text + "\r\n" + body;
}

double timedFetch(const BenchTls &tls, uint16_t port, const std::string &target, std::string *body,
    const std::string &token)
{
    const auto start = std::chrono::steady_clock::now();
    BenchConnection connection(tls, port);
    if (!connection.ok() || !connection.sendAll(benchRequest("GET", target, {}, token))
        || connection.readResponse(body) != 200)
        return -1;
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

} // namespace dra::cli
