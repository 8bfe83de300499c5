// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/model/object.h"
#include "core/model/record_codec.h"
#include "core/store/cache_db.h"
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

// A cache at `path` holding `objects` (resource.k8s.io/v1 JSON) as cluster `cluster`: its
// writer, and a reader for the server. Test failures name what did not open or decode.
struct SeededCache
{
    std::unique_ptr<store::CacheDb> writer, reader;
};
inline SeededCache seedCache(
    const QString &path, const std::string &cluster, const std::vector<nlohmann::json> &objects)
{
    SeededCache cache;
    Result<store::CacheDb> writer = store::CacheDb::open(path, store::OpenMode::ReadWrite);
    EXPECT_TRUE(writer.has_value()) << writer.error().message.toStdString();
    if (!writer)
        return cache;
    cache.writer = std::make_unique<store::CacheDb>(std::move(*writer));
    model::WatchBatch batch;
    batch.cluster = cluster;
    for (const nlohmann::json &json : objects) {
        Result<model::Object> object = model::decodeObject(json);
        EXPECT_TRUE(object.has_value()) << object.error().message.toStdString();
        if (object)
            batch.changes.push_back({ model::ChangeType::Added, model::toRecord(*object) });
    }
    EXPECT_TRUE(cache.writer->apply(batch).has_value());
    Result<store::CacheDb> reader = store::CacheDb::open(path, store::OpenMode::ReadOnly);
    EXPECT_TRUE(reader.has_value()) << reader.error().message.toStdString();
    if (reader)
        cache.reader = std::make_unique<store::CacheDb>(std::move(*reader));
    return cache;
}

} // namespace dra::server::test
