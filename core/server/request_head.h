// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The pure part of reading an HTTP/1.1 request, apart from the socket HttpConnection owns: the
// head (request line and header fields), how the body is framed, and chunked body decoding.
// Anything two parsers on the path (a proxy in front of us included) could read differently is
// refused, so that no byte of one request is taken for the next (request smuggling).
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <QByteArray>

#include "core/server/http_message.h"

namespace dra::server {

// Why a request cannot be served as it came: the status to answer with and the message of the
// Status in the answer. The connection is closed after such an answer.
struct HttpError
{
    int status = 400;
    std::string message;
};

// What a request head says.
struct RequestHead
{
    Request request; // method, target, path, query and headers; peer and TLS are the socket's
    bool http10 = false; // HTTP/1.0 rather than HTTP/1.1
    bool keepAlive = true; // the connection stays open after the answer (Connection header)
};

// Parses a request head as it arrived: the request line and header fields, CRLF-separated,
// without the blank line that ends it. Refuses (400) a request line or header field that is
// not plainly one (a method or header name that is not a token, a target with spaces or
// control characters, a header value with CR, LF or NUL, a folded line), a target that is not
// an absolute path (400) and versions other than HTTP/1.0 and 1.1 (505). Pure function.
[[nodiscard]] std::expected<RequestHead, HttpError> parseRequestHead(std::string_view head);

// How the body of a request is delimited.
struct BodyFraming
{
    enum class Kind { None, Length, Chunked };
    Kind kind = Kind::None;
    int64_t length = 0; // Kind::Length: the Content-Length (not checked against any limit)
};

// The framing that Transfer-Encoding and Content-Length give a request with `headers`. Refuses
// (400) both at once, Transfer-Encoding in HTTP/1.0, chunked not last, a Content-Length that is
// not plain digits or lists differing values; transfer codings other than chunked are 501.
[[nodiscard]] std::expected<BodyFraming, HttpError> bodyFraming(
    const std::vector<Header> &headers, bool http10);

// Decodes a chunked request body as its bytes arrive, whatever their split. Plain value.
class ChunkedBodyDecoder final
{
public:
    // Bodies over `maxBodyBytes` are 413, trailers over `maxTrailerBytes` 431.
    ChunkedBodyDecoder(int64_t maxBodyBytes = 0, int64_t maxTrailerBytes = 0);

    enum class Status { NeedMore, Done, Failed };
    // Takes from the front of `in` what it can read of the body (size lines, data, trailer).
    // Done: the body is complete, and `in` starts after it (a pipelined request). Failed: see
    // error(); what follows in `in` cannot be told from the body, so the connection must close.
    Status decode(QByteArray &in);
    const QByteArray &body() const { return m_body; }
    const HttpError &error() const { return m_error; }

private:
    enum class State { Size, Data, Trailer, Done, Failed };
    Status fail(int status, std::string message);

    int64_t m_maxBodyBytes;
    int64_t m_maxTrailerBytes;
    State m_state = State::Size;
    int64_t m_remaining = 0; // bytes of the current chunk still expected
    int64_t m_trailerBytes = 0; // of the trailer so far
    QByteArray m_body;
    HttpError m_error;
};

} // namespace dra::server
