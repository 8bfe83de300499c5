// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <initializer_list>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace dra::server {

// One header field; `name` is lower-case so lookups need no case folding.
struct Header
{
    std::string name;
    std::string value;
};

// Decoded query parameters in request order; a name may repeat (`?a=1&a=2`). Plain value.
class QueryParams final
{
public:
    // Splits on '&' and '=', decoding %XX and '+' (form encoding, as Go's url.ParseQuery does).
    static QueryParams parse(std::string_view rawQuery);

    bool contains(std::string_view name) const;
    // The first value of `name`, or nullopt when absent.
    std::optional<std::string> value(std::string_view name) const;
    std::vector<std::string> values(std::string_view name) const;
    const std::vector<std::pair<std::string, std::string>> &items() const { return m_items; }

private:
    std::vector<std::pair<std::string, std::string>> m_items;
};

// Percent-decodes `text`; with `plusIsSpace` a '+' becomes ' ' (query strings only). Malformed
// escapes are kept as they are rather than rejected, like most servers do.
std::string percentDecode(std::string_view text, bool plusIsSpace);

// A parsed HTTP request as controllers see it; the wire format stays in HttpConnection.
struct Request
{
    std::string method; // "GET", upper-case as sent
    std::string target; // the raw request-target, e.g. "/api/v1/pods?limit=500"
    std::string path; // percent-decoded path without the query
    QueryParams query;
    std::vector<Header> headers;
    QByteArray body; // complete (Content-Length or de-chunked), within the size limit
    QString peer; // "127.0.0.1:43210"
    QString user; // set by authentication; empty while anonymous
    QStringList groups; // the user's groups, set with `user`
    bool secure = false; // arrived over TLS
    std::vector<QByteArray> peerCertificates; // the client's certificate chain (DER), leaf first

    // The first value of header `lowerName` ("accept"), or "" when absent.
    std::string header(std::string_view lowerName) const;
};

// A body handed to the connection in pieces as the client takes them, for a large answer whose
// parts are in memory already (a list of kept encodings): the whole body is never copied into
// one buffer, and a client that reads slowly holds only a small window of it in the socket.
class BodyPieces
{
public:
    virtual ~BodyPieces() = default;
    // Every byte of the body, for Content-Length.
    virtual qint64 size() const = 0;
    // Appends the next bytes to `out`, about `budget` of them; false once nothing is left.
    virtual bool next(QByteArray &out, qint64 budget) = 0;
};

// A complete response. Content-Length, Date and Connection are added by the connection.
struct Response
{
    int status = 200;
    std::string contentType = "application/json";
    std::vector<Header> headers;
    QByteArray body;
    std::shared_ptr<BodyPieces> pieces; // when set, the body (and `body` is empty)
};

// The reason phrase of a status code ("Not Found"); "Unknown" for codes we never send.
std::string_view reasonPhrase(int status);

// True when the comma-separated header value `list` ("keep-alive, Upgrade") holds `token`,
// compared case-insensitively.
bool headerListContains(std::string_view list, std::string_view token);

// True when one comma-separated clause of an Accept header carries every parameter in
// `params` (e.g. {"as=Table", "g=meta.k8s.io"}); parameters are compared trimmed and whole.
bool acceptsMediaType(std::string_view accept, std::initializer_list<std::string_view> params);

} // namespace dra::server
