// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/http_test_client.h"

namespace dra::server::test {

// One HTTP exchange as the tests see it.
struct Reply
{
    int status = 0;
    std::string head;
    nlohmann::json body;
    std::string text;

    // Every value of header `name` (as sent, case-sensitive name match on the wire form).
    std::vector<std::string> headers(const std::string &name) const
    {
        std::vector<std::string> values;
        size_t at = 0;
        const std::string needle = "\r\n" + name + ": ";
        while ((at = head.find(needle, at)) != std::string::npos) {
            at += needle.size();
            values.push_back(head.substr(at, head.find("\r\n", at) - at));
        }
        return values;
    }
};

// A request with a body, as a client library would send it.
inline std::string httpRequest(const std::string &method, const std::string &target,
    const std::string &token, const std::string &body = {},
    const std::string &contentType = "application/json",
    const std::string &accept = "application/json")
{
    std::string text = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: " + accept
        + "\r\nUser-Agent: api-test/1.0\r\n";
    if (!token.empty())
        text += "Authorization: Bearer " + token + "\r\n";
    if (!body.empty() || method == "POST" || method == "PUT" || method == "PATCH")
        text += "Content-Type: " + contentType
            + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    return text + "\r\n" + body;
}

// Sends one request on a fresh connection and reads one complete Content-Length response.
inline Reply exchange(quint16 port, const std::string &requestText)
{
    RawClient client(port);
    client.send(QByteArray::fromStdString(requestText));
    Reply reply;
    spinUntil([&] {
        const qsizetype end = client.received().indexOf("\r\n\r\n");
        if (end < 0)
            return false;
        const QByteArray head = client.received().left(end);
        const qsizetype at = head.indexOf("Content-Length: ");
        if (at < 0)
            return false;
        const qsizetype length = head.mid(at + 16, head.indexOf("\r\n", at) - at - 16).toLongLong();
        return client.received().size() >= end + 4 + length;
    });
    const QByteArray &got = client.received();
    const qsizetype end = got.indexOf("\r\n\r\n");
    reply.head = got.left(end).toStdString();
    reply.status = got.mid(9, 3).toInt();
    reply.text = got.mid(end + 4).toStdString();
    reply.body = nlohmann::json::parse(reply.text, nullptr, false);
    return reply;
}

} // namespace dra::server::test
