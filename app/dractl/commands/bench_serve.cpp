// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl bench serve: the API server under load. List latency of a large ResourceSlice
// collection, and fan-out of a stream of writes to many watchers: every watcher must receive
// every change, in order, once. The server runs on this thread's event loop as `dractl serve`
// runs it; clients are plain blocking sockets on their own threads, so they cost the server
// nothing it would not pay for real clients.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "core/common/json_text.h"
#include "core/model/object.h"
#include "core/sandbox/presets.h"
#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "core/model/record_codec.h"

namespace dra::cli {

namespace {

using Clock = std::chrono::steady_clock;

double millisSince(Clock::time_point start, Clock::time_point end)
{
    return std::chrono::duration<double, std::milli>(end - start).count();
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t at = std::min(values.size() - 1, size_t(p * double(values.size() - 1) + 0.5));
    return values[at];
}

int connectTo(quint16 port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool sendAll(int fd, const std::string &data)
{
    size_t sent = 0;
    while (sent < data.size()) {
        const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        sent += size_t(n);
    }
    return true;
}

// Reads one Content-Length response from a keep-alive connection; its status, or -1.
int readResponse(int fd, std::string &buffer, size_t *bodyBytes)
{
    char chunk[65536];
    while (true) {
        const size_t end = buffer.find("\r\n\r\n");
        if (end != std::string::npos) {
            const size_t at = buffer.find("Content-Length: ");
            if (at != std::string::npos && at < end) {
                const size_t length = std::stoul(buffer.substr(at + 16));
                if (buffer.size() >= end + 4 + length) {
                    const int status = std::stoi(buffer.substr(9, 3));
                    if (bodyBytes)
                        *bodyBytes = length;
                    buffer.erase(0, end + 4 + length);
                    return status;
                }
            }
        }
        const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0)
            return -1;
        buffer.append(chunk, size_t(n));
    }
}

std::string request(
    const std::string &method, const std::string &target, const std::string &body = {})
{
    std::string text
        = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n";
    if (!body.empty())
        text += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size())
            + "\r\n";
    return text + "\r\n" + body;
}

// Runs `work` on a thread while this thread serves; returns when it is done.
void serveWhile(const std::function<void()> &work)
{
    std::atomic<bool> done { false };
    std::thread worker([&] {
        work();
        done = true;
    });
    while (!done)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    worker.join();
}

struct Watcher
{
    int fd = -1;
    std::string pending;
    std::vector<int> received; // indexes of the changes, in arrival order
    std::vector<Clock::time_point> at;
    int64_t lastRev = 0;
    bool inOrder = true;
};

// Takes complete event lines out of a chunked watch stream.
void drainEvents(Watcher &watcher, Clock::time_point now)
{
    size_t start = 0;
    while (true) {
        const size_t newline = watcher.pending.find('\n', start);
        if (newline == std::string::npos)
            break;
        const std::string line = watcher.pending.substr(start, newline - start);
        start = newline + 1;
        const size_t brace = line.find("{\"object\"");
        if (brace == std::string::npos)
            continue;
        const nlohmann::json event = nlohmann::json::parse(line.substr(brace), nullptr, false);
        if (!event.is_object() || event.value("type", "") != "ADDED")
            continue;
        const nlohmann::json &meta = event["object"]["metadata"];
        const std::string name = meta.value("name", "");
        const int64_t rev = std::stoll(meta.value("resourceVersion", "0"));
        const int index = std::stoi(name.substr(name.rfind('-') + 1));
        if (rev <= watcher.lastRev
            || (!watcher.received.empty() && index != watcher.received.back() + 1))
            watcher.inOrder = false;
        watcher.lastRev = rev;
        watcher.received.push_back(index);
        watcher.at.push_back(now);
    }
    watcher.pending.erase(0, start);
}

} // namespace

int runBenchServe(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(
        { QStringLiteral("slices"), QStringLiteral("ResourceSlices to list (default 5000)."),
            QStringLiteral("n"), QStringLiteral("5000") });
    parser.addOption(
        { QStringLiteral("lists"), QStringLiteral("List requests to time (default 30)."),
            QStringLiteral("n"), QStringLiteral("30") });
    parser.addOption(
        { QStringLiteral("watchers"), QStringLiteral("Concurrent watchers (default 100)."),
            QStringLiteral("n"), QStringLiteral("100") });
    parser.addOption(
        { QStringLiteral("changes"), QStringLiteral("Writes while they watch (default 1000)."),
            QStringLiteral("n"), QStringLiteral("1000") });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Time lists of a large slice collection and the fan-out of writes to "
                           "many watchers through the embedded API server; prints one JSON line."),
            &exitCode))
        return exitCode;
    const int slices = parser.value(QStringLiteral("slices")).toInt();
    const int lists = std::max(1, parser.value(QStringLiteral("lists")).toInt());
    const int watcherCount = std::max(1, parser.value(QStringLiteral("watchers")).toInt());
    const int changes = std::max(1, parser.value(QStringLiteral("changes")).toInt());

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    Result<store::CacheDb> writer = store::CacheDb::open(path, store::OpenMode::ReadWrite);
    if (!writer)
        return reportFailure(writer.error());
    sandbox::PresetOptions preset { "scale", slices, 1 };
    Result<nlohmann::json> inventory = sandbox::generateInventory(preset);
    if (!inventory)
        return reportFailure(inventory.error());
    model::WatchBatch batch;
    batch.cluster = "bench";
    int sliceCount = 0;
    for (nlohmann::json &item : (*inventory)["items"]) {
        const std::string kind = item.value("kind", "");
        if (kind != "ResourceSlice" && kind != "Namespace")
            continue;
        if (kind == "ResourceSlice" && sliceCount >= slices)
            continue;
        sliceCount += kind == "ResourceSlice";
        Result<model::Object> object = model::decodeObject(std::move(item));
        if (!object)
            return reportFailure(object.error());
        batch.changes.push_back({ model::ChangeType::Added, model::toRecord(*object) });
    }
    if (Result<model::BatchSummary> applied = writer->apply(batch); !applied)
        return reportFailure(applied.error());
    Result<store::CacheDb> reader = store::CacheDb::open(path, store::OpenMode::ReadOnly);
    if (!reader)
        return reportFailure(reader.error());

    server::ApiServerOptions options;
    options.cluster = "bench";
    options.writer = &*writer;
    server::ApiServer api(*reader, options);
    server::HttpServer http(api.handler());
    if (Result<void> listening = http.listen(QHostAddress::LocalHost, 0); !listening)
        return reportFailure(listening.error());
    const quint16 port = http.port();

    // 1. List latency.
    std::vector<double> listMillis;
    size_t listBytes = 0;
    bool listFailed = false;
    serveWhile([&] {
        const int fd = connectTo(port);
        std::string buffer;
        for (int i = 0; i < lists && fd >= 0; ++i) {
            const Clock::time_point start = Clock::now();
            if (!sendAll(fd, request("GET", "/apis/resource.k8s.io/v1/resourceslices"))
                || readResponse(fd, buffer, &listBytes) != 200) {
                listFailed = true;
                break;
            }
            listMillis.push_back(millisSince(start, Clock::now()));
        }
        if (fd >= 0)
            ::close(fd);
        listFailed = listFailed || fd < 0;
    });
    if (listFailed)
        return reportFailure(QStringLiteral("bench serve: a list request failed"));

    // 2. Fan-out: watchers from the current revision, then a stream of creates.
    Result<int64_t> from = reader->currentRev();
    if (!from)
        return reportFailure(from.error());
    std::vector<Watcher> watchers(static_cast<size_t>(watcherCount));
    std::vector<Clock::time_point> written(static_cast<size_t>(changes));
    Clock::time_point firstWrite, lastDelivery;
    bool writeFailed = false;
    serveWhile([&] {
        for (Watcher &watcher : watchers) {
            watcher.fd = connectTo(port);
            sendAll(watcher.fd,
                request("GET",
                    "/apis/resource.k8s.io/v1/deviceclasses?watch=true&resourceVersion="
                        + std::to_string(*from)));
        }
        // Each watch has answered with its head once it is registered.
        for (Watcher &watcher : watchers) {
            char chunk[4096];
            while (watcher.pending.find("\r\n\r\n") == std::string::npos) {
                const ssize_t n = ::recv(watcher.fd, chunk, sizeof chunk, 0);
                if (n <= 0)
                    break;
                watcher.pending.append(chunk, size_t(n));
            }
            watcher.pending.erase(0, watcher.pending.find("\r\n\r\n") + 4);
        }
        std::thread writerThread([&] {
            const int fd = connectTo(port);
            std::string buffer;
            firstWrite = Clock::now();
            for (int i = 0; i < changes; ++i) {
                char name[32];
                std::snprintf(name, sizeof name, "bench-%05d", i);
                const std::string body = std::string(R"({"metadata":{"name":")") + name + "\"}}";
                written[size_t(i)] = Clock::now();
                if (!sendAll(fd, request("POST", "/apis/resource.k8s.io/v1/deviceclasses", body))
                    || readResponse(fd, buffer, nullptr) != 201) {
                    writeFailed = true;
                    break;
                }
            }
            ::close(fd);
        });
        std::vector<pollfd> fds;
        for (const Watcher &watcher : watchers)
            fds.push_back({ watcher.fd, POLLIN, 0 });
        const Clock::time_point deadline = Clock::now() + std::chrono::seconds(120);
        size_t complete = 0;
        while (complete < watchers.size() && Clock::now() < deadline && !writeFailed) {
            if (::poll(fds.data(), fds.size(), 200) <= 0)
                continue;
            const Clock::time_point now = Clock::now();
            complete = 0;
            for (size_t i = 0; i < watchers.size(); ++i) {
                Watcher &watcher = watchers[i];
                if (fds[i].revents & POLLIN) {
                    char chunk[65536];
                    const ssize_t n = ::recv(watcher.fd, chunk, sizeof chunk, 0);
                    if (n > 0) {
                        watcher.pending.append(chunk, size_t(n));
                        drainEvents(watcher, now);
                        if (int(watcher.received.size()) == changes)
                            lastDelivery = now;
                    }
                }
                complete += int(watcher.received.size()) >= changes;
            }
        }
        writerThread.join();
        for (Watcher &watcher : watchers)
            ::close(watcher.fd);
    });

    std::vector<double> delivery;
    int64_t delivered = 0;
    bool allInOrder = true;
    for (const Watcher &watcher : watchers) {
        delivered += int64_t(watcher.received.size());
        allInOrder = allInOrder && watcher.inOrder && int(watcher.received.size()) == changes;
        for (size_t i = 0; i < watcher.received.size(); ++i) {
            const int index = watcher.received[i];
            if (index >= 0 && index < changes)
                delivery.push_back(millisSince(written[size_t(index)], watcher.at[i]));
        }
    }
    const double fanoutSeconds = millisSince(firstWrite, lastDelivery) / 1000.0;
    const nlohmann::json result = {
        { "benchmark", "serve" },
        { "slices", sliceCount },
        { "list_bytes", listBytes },
        { "list_p50_ms", percentile(listMillis, 0.5) },
        { "list_p99_ms", percentile(listMillis, 0.99) },
        { "watchers", watcherCount },
        { "changes", changes },
        { "events_delivered", delivered },
        { "every_watcher_got_every_change_in_order", allInOrder && !writeFailed },
        { "delivery_p50_ms", percentile(delivery, 0.5) },
        { "delivery_p99_ms", percentile(delivery, 0.99) },
        { "events_per_s", fanoutSeconds > 0 ? double(delivered) / fanoutSeconds : 0.0 },
    };
    out(common::compactJson(result) + "\n");
    return allInOrder && !writeFailed ? Ok : Failed;
}

namespace {
const CommandRegistration benchServeRegistration({ .path = "bench serve",
    .summary = "API server list latency and watch fan-out to many watchers",
    .run = runBenchServe,
    .order = 50 });
} // namespace

} // namespace dra::cli
