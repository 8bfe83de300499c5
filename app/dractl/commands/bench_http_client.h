// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <sys/types.h>

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

namespace dra::cli {

// The client side of the serving benchmarks: blocking HTTP/1.1 over TLS on loopback, plain
// sockets and OpenSSL, so that a benchmark's clients cost the server under test nothing a real
// client would not, and every server it compares (ours, and the floors) is fetched the same way.
// The certificate is not verified: both ends are this process or its child, on loopback.
class BenchTls final
{
public:
    BenchTls();
    ~BenchTls();
    BenchTls(const BenchTls &) = delete;
    BenchTls &operator=(const BenchTls &) = delete;
    SSL_CTX *context() const { return m_context; }

private:
    SSL_CTX *m_context = nullptr;
};

// One connection. A thread at a time.
class BenchConnection final
{
public:
    // Connects to 127.0.0.1:`port` and completes the handshake; invalid (see ok()) on failure.
    BenchConnection(const BenchTls &tls, uint16_t port);
    ~BenchConnection();
    BenchConnection(const BenchConnection &) = delete;
    BenchConnection &operator=(const BenchConnection &) = delete;

    bool ok() const { return m_ssl != nullptr; }
    int fd() const { return m_fd; }
    bool sendAll(const std::string &data);
    // Up to `size` bytes as they arrive; 0 at the end of the stream, -1 on an error.
    ssize_t receive(char *data, std::size_t size);

    // Reads one response: its status, or -1 when the connection failed or ended first. The
    // body is framed by Content-Length, or by the end of the stream when there is none (an
    // HTTP/1.0 server). `body` receives it when given; bytes after it stay for the next call.
    int readResponse(std::string *body = nullptr, std::size_t *bodyBytes = nullptr);

private:
    int m_fd = -1;
    SSL *m_ssl = nullptr;
    std::string m_buffer;
};

// "GET /path HTTP/1.1" with the headers every benchmark request carries.
std::string benchRequest(const std::string &method, const std::string &target,
    const std::string &body = {}, const std::string &token = {});

// Fetches `target` on a new connection, as a client that does not keep connections would, and
// returns the milliseconds from connecting to the last byte of the body, or -1 on a failure
// or a status other than 200.
double timedFetch(const BenchTls &tls, uint16_t port, const std::string &target,
    std::string *body = nullptr, const std::string &token = {});

} // namespace dra::cli
