// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl bench serve: the API server under load, over TLS as `dractl serve` serves. The time
// to list a large ResourceSlice collection and a page of it, each against two floors fetched
// the same way in the same run (the same response bytes served by `openssl s_server -WWW` and
// by a bare QSslServer, with the same kind of key); then the fan-out of a stream of writes to
// many watchers, every watcher receiving every change in order once, while a client keeps
// listing. The server runs on this thread's event loop as `dractl serve` runs it; clients are
// blocking sockets on their own threads (bench_http_client.h).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <thread>

#include <poll.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/bench_floor_servers.h"
#include "app/dractl/commands/bench_http_client.h"
#include "app/dractl/commands/bench_timing.h"
#include "core/common/json_text.h"
#include "core/model/object.h"
#include "core/model/record_codec.h"
#include "core/sandbox/presets.h"
#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "core/server/tls_identity.h"

namespace dra::cli {

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char *kSlicesPath = "/apis/resource.k8s.io/v1/resourceslices";
// The targets of the serving benchmark: each list within this many times its floor.
constexpr double kTargetRatio = 3.0;

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

// `repeats` fetches of `target` from `port`, each on a new connection; their times, or an
// empty list when one failed. The last body is kept in `body` when given.
std::vector<double> timeFetches(const BenchTls &tls, uint16_t port, const std::string &target,
    int repeats, std::string *body = nullptr)
{
    std::vector<double> millis;
    for (int i = 0; i < repeats; ++i) {
        const double ms = timedFetch(tls, port, target, body);
        if (ms < 0)
            return {};
        millis.push_back(ms);
    }
    return millis;
}

double ratio(double value, double floor)
{
    return floor > 0 ? value / floor : 0.0;
}

struct Watcher
{
    std::unique_ptr<BenchConnection> connection;
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
        const size_t brace = line.find('{'); // after the chunk framing, if any
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

// A cache holding the `slices` first ResourceSlices of the scale preset and its namespaces.
Result<int> fillCache(store::CacheDb &writer, int slices)
{
    sandbox::PresetOptions preset { "scale", slices, 1 };
    Result<nlohmann::json> inventory = sandbox::generateInventory(preset);
    if (!inventory)
        return dra::fail(inventory.error());
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
            return dra::fail(object.error());
        batch.changes.push_back({ model::ChangeType::Added, model::toRecord(*object) });
    }
    if (Result<model::BatchSummary> applied = writer.apply(batch); !applied)
        return dra::fail(applied.error());
    return sliceCount;
}

Result<void> writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size())
        return dra::fail(common::Error::Code::Internal,
            QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return {};
}

// The fan-out: watchers from revision `from`, then `changes` creates through the API, while
// one more client lists all slices again and again. Fills the watchers and the list times.
bool fanOut(const BenchTls &tls, uint16_t port, int64_t from, int changes,
    std::vector<Watcher> &watchers, std::vector<Clock::time_point> &written,
    Clock::time_point &firstWrite, Clock::time_point &lastDelivery, std::vector<double> &listMillis)
{
    for (Watcher &watcher : watchers) {
        watcher.connection = std::make_unique<BenchConnection>(tls, port);
        if (!watcher.connection->sendAll(benchRequest("GET",
                "/apis/resource.k8s.io/v1/deviceclasses?watch=true&resourceVersion="
                    + std::to_string(from))))
            return false;
    }
    // Each watch has answered with its head once it is registered.
    for (Watcher &watcher : watchers) {
        char chunk[4096];
        while (watcher.pending.find("\r\n\r\n") == std::string::npos) {
            const ssize_t n = watcher.connection->receive(chunk, sizeof chunk);
            if (n <= 0)
                return false;
            watcher.pending.append(chunk, size_t(n));
        }
        watcher.pending.erase(0, watcher.pending.find("\r\n\r\n") + 4);
    }
    std::atomic<bool> writing { true }, writeFailed { false };
    std::thread writerThread([&] {
        BenchConnection connection(tls, port);
        firstWrite = Clock::now();
        for (int i = 0; i < changes; ++i) {
            char name[32];
            std::snprintf(name, sizeof name, "bench-%05d", i);
            const std::string body = std::string(R"({"metadata":{"name":")") + name + "\"}}";
            written[size_t(i)] = Clock::now();
            if (!connection.sendAll(
                    benchRequest("POST", "/apis/resource.k8s.io/v1/deviceclasses", body))
                || connection.readResponse() != 201) {
                writeFailed = true;
                break;
            }
        }
        writing = false;
    });
    std::thread listerThread([&] {
        // Lists for as long as the writes go on, and at least once.
        do {
            const double ms = timedFetch(tls, port, kSlicesPath);
            if (ms >= 0)
                listMillis.push_back(ms);
        } while (writing);
    });
    std::vector<pollfd> fds;
    for (const Watcher &watcher : watchers)
        fds.push_back({ watcher.connection->fd(), POLLIN, 0 });
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
                const ssize_t n = watcher.connection->receive(chunk, sizeof chunk);
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
    listerThread.join();
    for (Watcher &watcher : watchers)
        watcher.connection.reset();
    return !writeFailed;
}

} // namespace

int runBenchServe(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(
        { QStringLiteral("slices"), QStringLiteral("ResourceSlices to list (default 5000)."),
            QStringLiteral("n"), QStringLiteral("5000") });
    parser.addOption({ QStringLiteral("repeats"),
        QStringLiteral("Fetches of each list, from each server (default 5; the median counts)."),
        QStringLiteral("n"), QStringLiteral("5") });
    parser.addOption(
        { QStringLiteral("page"), QStringLiteral("The page size to time (default 500)."),
            QStringLiteral("n"), QStringLiteral("500") });
    parser.addOption(
        { QStringLiteral("watchers"), QStringLiteral("Concurrent watchers (default 100)."),
            QStringLiteral("n"), QStringLiteral("100") });
    parser.addOption(
        { QStringLiteral("changes"), QStringLiteral("Writes while they watch (default 1000)."),
            QStringLiteral("n"), QStringLiteral("1000") });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Time lists of a large slice collection (in full and one page) against "
                           "the same bytes served by openssl s_server and a bare QSslServer, and "
                           "the fan-out of writes to many watchers while a client lists, through "
                           "the embedded API server over TLS; prints one JSON line."),
            &exitCode))
        return exitCode;
    const int slices = parser.value(QStringLiteral("slices")).toInt();
    const int repeats = std::max(1, parser.value(QStringLiteral("repeats")).toInt());
    const int pageSize = std::max(1, parser.value(QStringLiteral("page")).toInt());
    const int watcherCount = std::max(1, parser.value(QStringLiteral("watchers")).toInt());
    const int changes = std::max(1, parser.value(QStringLiteral("changes")).toInt());

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    Result<store::CacheDb> writer = store::CacheDb::open(path, store::OpenMode::ReadWrite);
    if (!writer)
        return reportFailure(writer.error());
    Result<int> sliceCount = fillCache(*writer, slices);
    if (!sliceCount)
        return reportFailure(sliceCount.error());
    Result<store::CacheDb> reader = store::CacheDb::open(path, store::OpenMode::ReadOnly);
    if (!reader)
        return reportFailure(reader.error());

    // One EC P-256 identity for our server and both floors.
    Result<server::TlsIdentity> identity
        = server::generateSelfSigned({ QStringLiteral("127.0.0.1"), QStringLiteral("localhost") });
    if (!identity)
        return reportFailure(identity.error());
    Result<QSslConfiguration> tlsConfiguration = identity->serverConfiguration();
    if (!tlsConfiguration)
        return reportFailure(tlsConfiguration.error());

    server::ApiServerOptions options;
    options.cluster = "bench";
    options.writer = &*writer;
    server::ApiServer api(*reader, options);
    server::HttpServer http(api.handler());
    http.setTlsConfiguration(*tlsConfiguration);
    if (Result<void> listening = http.listen(QHostAddress::LocalHost, 0); !listening)
        return reportFailure(listening.error());
    const uint16_t port = http.port();
    const BenchTls tls;

    // 1. Our lists: the first (which encodes every object), then `repeats` of each.
    const std::string pagePath = std::string(kSlicesPath) + "?limit=" + std::to_string(pageSize);
    std::string listBody, pageBody;
    double firstListMs = -1;
    std::vector<double> listMillis, pageMillis;
    serveWhile([&] {
        firstListMs = timedFetch(tls, port, kSlicesPath);
        listMillis = timeFetches(tls, port, kSlicesPath, repeats, &listBody);
        pageMillis = timeFetches(tls, port, pagePath, repeats, &pageBody);
    });
    if (firstListMs < 0 || listMillis.empty() || pageMillis.empty())
        return reportFailure(QStringLiteral("bench serve: a list request failed"));

    // 2. The floors: the same bytes from openssl s_server -WWW and from a bare QSslServer.
    const QString certificatePath = dir.filePath(QStringLiteral("floor.crt"));
    const QString keyPath = dir.filePath(QStringLiteral("floor.key"));
    const QString www = dir.filePath(QStringLiteral("www"));
    QDir().mkpath(www);
    const std::vector<std::pair<QString, QByteArray>> files {
        { certificatePath, identity->certificatePem },
        { keyPath, identity->keyPem },
        { www + QStringLiteral("/list.json"), QByteArray::fromStdString(listBody) },
        { www + QStringLiteral("/page.json"), QByteArray::fromStdString(pageBody) },
    };
    for (const auto &[file, data] : files) {
        if (Result<void> written = writeFile(file, data); !written)
            return reportFailure(written.error());
    }
    OpensslWwwFloor openssl;
    if (Result<void> started = openssl.start(www, certificatePath, keyPath); !started)
        return reportFailure(started.error());
    const std::vector<double> opensslList = timeFetches(tls, openssl.port(), "/list.json", repeats);
    const std::vector<double> opensslPage = timeFetches(tls, openssl.port(), "/page.json", repeats);
    QtTlsFloor qtFloor(*tlsConfiguration,
        { { "/list.json", QByteArray::fromStdString(listBody) },
            { "/page.json", QByteArray::fromStdString(pageBody) } });
    if (Result<void> listening = qtFloor.listen(); !listening)
        return reportFailure(listening.error());
    std::vector<double> qtList, qtPage;
    serveWhile([&] {
        qtList = timeFetches(tls, qtFloor.port(), "/list.json", repeats);
        qtPage = timeFetches(tls, qtFloor.port(), "/page.json", repeats);
    });
    if (opensslList.empty() || opensslPage.empty() || qtList.empty() || qtPage.empty())
        return reportFailure(QStringLiteral("bench serve: a floor server did not answer"));

    // 3. Fan-out to watchers while a client lists.
    Result<int64_t> from = reader->currentRev();
    if (!from)
        return reportFailure(from.error());
    std::vector<Watcher> watchers(static_cast<size_t>(watcherCount));
    std::vector<Clock::time_point> written(static_cast<size_t>(changes));
    Clock::time_point firstWrite, lastDelivery;
    std::vector<double> busyListMillis;
    bool wrote = false;
    serveWhile([&] {
        wrote = fanOut(
            tls, port, *from, changes, watchers, written, firstWrite, lastDelivery, busyListMillis);
    });

    std::vector<double> delivery;
    int64_t delivered = 0;
    bool allInOrder = wrote;
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
    const double listMs = medianOf(listMillis), pageMs = medianOf(pageMillis);
    const double listFloor = medianOf(opensslList), pageFloor = medianOf(opensslPage);
    const double busyP99 = percentile(busyListMillis, 0.99);
    const bool targetsMet = ratio(listMs, listFloor) <= kTargetRatio
        && ratio(pageMs, pageFloor) <= kTargetRatio && ratio(busyP99, listFloor) < kTargetRatio;
    const nlohmann::json result = {
        { "benchmark", "serve" },
        { "slices", *sliceCount },
        { "list_bytes", listBody.size() },
        { "first_list_ms", firstListMs },
        { "list_median_ms", listMs },
        { "list_openssl_floor_ms", listFloor },
        { "list_qt_floor_ms", medianOf(qtList) },
        { "list_vs_openssl", ratio(listMs, listFloor) },
        { "list_vs_qt", ratio(listMs, medianOf(qtList)) },
        { "page_size", pageSize },
        { "page_bytes", pageBody.size() },
        { "page_median_ms", pageMs },
        { "page_openssl_floor_ms", pageFloor },
        { "page_qt_floor_ms", medianOf(qtPage) },
        { "page_vs_openssl", ratio(pageMs, pageFloor) },
        { "page_vs_qt", ratio(pageMs, medianOf(qtPage)) },
        { "repeats", repeats },
        { "watchers", watcherCount },
        { "changes", changes },
        { "lists_during_fanout", busyListMillis.size() },
        { "list_during_fanout_p50_ms", percentile(busyListMillis, 0.5) },
        { "list_during_fanout_p99_ms", busyP99 },
        { "list_during_fanout_p99_vs_openssl", ratio(busyP99, listFloor) },
        { "events_delivered", delivered },
        { "every_watcher_got_every_change_in_order", allInOrder },
        { "delivery_p50_ms", percentile(delivery, 0.5) },
        { "delivery_p99_ms", percentile(delivery, 0.99) },
        { "events_per_s", fanoutSeconds > 0 ? double(delivered) / fanoutSeconds : 0.0 },
        { "targets_met", targetsMet },
    };
    out(common::compactJson(result) + "\n");
    return allInOrder ? Ok : Failed;
}

namespace {
const CommandRegistration benchServeRegistration({ .path = "bench serve",
    .summary = "API server lists against TLS floors, and watch fan-out to many watchers",
    .run = runBenchServe,
    .order = 50 });
} // namespace

} // namespace dra::cli
