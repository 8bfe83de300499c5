// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/watch_hub.h"

#include <charconv>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>

#include <QDateTime>

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"
#include "core/common/logging.h"
#include "core/server/kube_status.h"

namespace dra::server {

namespace {

std::string_view eventType(model::ChangeType type)
{
    switch (type) {
    case model::ChangeType::Added:
        return "ADDED";
    case model::ChangeType::Modified:
        return "MODIFIED";
    case model::ChangeType::Deleted:
        return "DELETED";
    }
    return "MODIFIED";
}

std::optional<int64_t> parseInt(const std::string &text)
{
    int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value < 0)
        return std::nullopt;
    return value;
}

// One change as each watcher wants it: decoded once, encoded once per served version.
class ChangeEncoder
{
public:
    ChangeEncoder(const ObjectSource &source, const store::LoggedChange &change)
        : m_source(source)
        , m_change(change)
    {
    }

    // The change in `apiVersion`, or nullptr (logged) when it cannot be served.
    const ServedObject *in(const std::string &apiVersion)
    {
        for (const ServedObject &served : m_encoded) {
            if (served.json.value("apiVersion", "") == apiVersion)
                return &served;
        }
        if (!m_object) {
            Result<model::Object> decoded = m_source.decodeChange(m_change);
            if (!decoded)
                return skip(decoded.error());
            m_object = std::move(*decoded);
        }
        Result<nlohmann::json> json = ObjectSource::wireJson(*m_object, m_change.rev, apiVersion);
        if (!json)
            return skip(json.error());
        return &m_encoded.emplace_back(ServedObject { *m_object, std::move(*json), m_change.rev });
    }

private:
    const ServedObject *skip(const common::Error &error)
    {
        qCWarning(lcServer, "skipping change %lld: %s", static_cast<long long>(m_change.rev),
            qPrintable(error.message));
        return nullptr;
    }

    const ObjectSource &m_source;
    const store::LoggedChange &m_change;
    std::optional<model::Object> m_object;
    std::deque<ServedObject> m_encoded; // stable addresses
};

} // namespace

WatchHub::WatchHub(ObjectSource &source, int pollIntervalMs, QObject *parent)
    : QObject(parent)
    , m_source(source)
{
    if (Result<int64_t> rev = m_source.cache().currentRev())
        m_rev = *rev;
    if (Result<int64_t> version = m_source.cache().dataVersion())
        m_dataVersion = *version;
    m_timer.setInterval(pollIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &WatchHub::poll);
    m_timer.start();
}

void WatchHub::poll()
{
    // data_version moves only when another connection commits, which is the only way the
    // change log grows under this read-only server.
    Result<int64_t> version = m_source.cache().dataVersion();
    if (!version) {
        qCWarning(lcServer, "cannot poll the cache: %s", qPrintable(version.error().message));
        return;
    }
    if (*version == m_dataVersion)
        return;
    m_dataVersion = *version;
    for (;;) {
        Result<std::vector<store::LoggedChange>> changes
            = m_source.cache().changesSince(m_rev, 1000);
        if (!changes) {
            qCWarning(
                lcServer, "cannot read the change log: %s", qPrintable(changes.error().message));
            return;
        }
        if (changes->empty())
            return;
        const std::vector<Watcher *> watchers = m_watchers;
        for (const store::LoggedChange &change : *changes) {
            m_rev = change.rev;
            if (change.cluster != m_source.cluster())
                continue;
            ChangeEncoder encoder(m_source, change); // decodes only if some watcher wants it
            for (Watcher *watcher : watchers) {
                if (!watcher->wants(change.rev, change.key))
                    continue;
                if (const ServedObject *served = encoder.in(watcher->apiVersion()))
                    watcher->deliver(change, *served);
            }
        }
    }
}

void WatchHub::remove(Watcher *watcher)
{
    std::erase(m_watchers, watcher);
}

void WatchHub::finishAll()
{
    const std::vector<Watcher *> watchers = m_watchers;
    for (Watcher *watcher : watchers)
        watcher->finish();
}

Result<WatchRequest> parseWatchRequest(const Request &request)
{
    Result<ListOptions> options = parseListOptions(request);
    if (!options)
        return std::unexpected(options.error());
    WatchRequest watch { std::move(*options) };
    const auto invalid = [](const std::string &message) {
        return dra::fail(common::Error::Code::Invalid, QString::fromStdString(message));
    };
    if (auto text = request.query.value("timeoutSeconds"); text && !text->empty()) {
        const std::optional<int64_t> parsed = parseInt(*text);
        if (!parsed)
            return invalid(
                "timeoutSeconds: Invalid value: \"" + *text + "\": must be a non-negative integer");
        watch.timeoutSeconds = *parsed;
    }
    for (auto [name, flag] : { std::pair { "allowWatchBookmarks", &watch.bookmarks },
             std::pair { "sendInitialEvents", &watch.initialEvents } }) {
        if (auto text = request.query.value(name); text && !text->empty()) {
            const std::optional<bool> parsed = parseGoBool(*text);
            if (!parsed)
                return invalid(
                    std::string(name) + ": Invalid value: \"" + *text + "\": not a boolean");
            *flag = *parsed;
        }
    }
    const std::string resourceVersion
        = request.query.value("resourceVersion").value_or(std::string());
    if (!resourceVersion.empty() && resourceVersion != "0") {
        watch.from = parseInt(resourceVersion);
        if (!watch.from)
            return invalid(
                "resourceVersion: Invalid value: \"" + resourceVersion + "\": must be an integer");
    }
    return watch;
}

void WatchHub::serve(Request &request, HttpConnection &connection, const model::KindInfo &kind,
    const std::string &ns, const std::string &apiVersion)
{
    Result<WatchRequest> watch = parseWatchRequest(request);
    if (!watch) {
        connection.respond(status::badRequest(watch.error().message.toStdString()));
        return;
    }
    if (watch->from) {
        // A resourceVersion newer than the cache's (a client of a restored or recreated
        // server) is waited for briefly, then refused before any event, as kube-apiserver does.
        const int64_t from = *watch->from;
        auto pending = std::make_shared<WatchRequest>(std::move(*watch));
        QPointer<HttpConnection> alive(&connection);
        whenRevisionReached(from, &connection,
            [this, alive, from, pending, &kind, ns, apiVersion](int64_t current) {
                if (!alive)
                    return;
                if (current < from) {
                    alive->respond(status::tooLargeResourceVersion(from, current));
                    return;
                }
                openStream(*alive, std::move(*pending), kind, ns, apiVersion);
            });
        return;
    }
    openStream(connection, std::move(*watch), kind, ns, apiVersion);
}

void WatchHub::openStream(HttpConnection &connection, WatchRequest watch,
    const model::KindInfo &kind, const std::string &ns, const std::string &apiVersion)
{
    const bool table = watch.options.rendering.table;
    HttpStream *stream = connection.beginStream(Response {
        200, table ? std::string(kTableContentType) : std::string("application/json"), {}, {} });
    if (!stream)
        return;
    start(stream, std::move(watch), kind, ns, apiVersion);
}

void WatchHub::whenRevisionReached(
    int64_t rev, QObject *context, std::function<void(int64_t current)> then)
{
    const auto current = [this] {
        poll();
        Result<int64_t> now = currentRevision();
        return now ? *now : int64_t(0);
    };
    if (const int64_t now = current(); now >= rev || m_tooLargeWaitMs == 0) {
        then(now);
        return;
    }
    auto *timer = new QTimer(context);
    timer->setInterval(50);
    const qint64 deadline = QDateTime::currentMSecsSinceEpoch() + m_tooLargeWaitMs;
    connect(timer, &QTimer::timeout, context, [timer, rev, deadline, current, then] {
        const int64_t now = current();
        if (now < rev && QDateTime::currentMSecsSinceEpoch() < deadline)
            return;
        timer->stop();
        timer->deleteLater();
        then(now);
    });
    timer->start();
}

void WatchHub::rewindTo(int64_t rev)
{
    finishAll();
    m_rev = rev;
    m_compactedRev = std::min(m_compactedRev, rev);
    m_dataVersion = -1;
}

void WatchHub::start(EventSink *sink, WatchRequest watch, const model::KindInfo &kind,
    const std::string &ns, const std::string &apiVersion)
{
    const std::optional<int64_t> from = watch.from;
    const bool initialEvents = watch.initialEvents;
    poll(); // so that m_rev is the newest revision before this watcher picks its start
    const bool labelled = !watch.options.labels.isEmpty();
    auto *watcher
        = new Watcher(*this, sink, kind, ns, apiVersion, std::move(watch.options), watch.bookmarks);
    if (watch.timeoutSeconds > 0)
        QTimer::singleShot(std::chrono::seconds(watch.timeoutSeconds), watcher, &Watcher::finish);

    if (!from || initialEvents) {
        // "" and "0": the current state as synthetic ADDED events, then live changes.
        Result<ObjectSource::Listing> listing = m_source.list(kind, ns, apiVersion);
        if (!listing) {
            watcher->sendError(500, "InternalError", listing.error().message.toStdString());
            watcher->finish();
            return;
        }
        for (const ServedObject &item : listing->items)
            watcher->sendInitial(item);
        watcher->setRev(std::max(listing->rev, m_rev));
        if (initialEvents)
            watcher->sendBookmark(true);
        m_watchers.push_back(watcher);
        return;
    }

    Result<std::vector<store::LoggedChange>> first = m_source.cache().changesSince(*from, 1);
    Result<int64_t> current = m_source.cache().currentRev();
    if (!first || !current) {
        watcher->sendError(
            500, "InternalError", (!first ? first.error() : current.error()).message.toStdString());
        watcher->finish();
        return;
    }
    // Revisions are consecutive, so a first retained change beyond from+1 means the log was
    // trimmed past the client's position: it must relist (410 Expired, as the watch cache says).
    const bool trimmed = (first->empty() ? *from < *current : first->front().rev > *from + 1)
        || *from < m_compactedRev;
    if (trimmed) {
        const int64_t oldest
            = std::max(first->empty() ? *current : first->front().rev - 1, m_compactedRev);
        watcher->sendError(410, "Expired",
            "too old resource version: " + std::to_string(*from) + " (" + std::to_string(oldest)
                + ")");
        watcher->finish();
        return;
    }
    if (labelled) {
        // Objects unchanged since `from` show whether they were inside the label selector then.
        if (Result<ObjectSource::Listing> listing = m_source.list(kind, ns, apiVersion)) {
            for (const ServedObject &item : listing->items) {
                if (item.rev <= *from)
                    watcher->knowState(item);
            }
        }
    }
    // Catch up from the log up to what the hub has fanned out; the hub delivers the rest.
    int64_t after = *from;
    while (after < m_rev) {
        Result<std::vector<store::LoggedChange>> changes
            = m_source.cache().changesSince(after, 1000);
        if (!changes || changes->empty())
            break;
        for (const store::LoggedChange &change : *changes) {
            if (change.rev > m_rev)
                break;
            after = change.rev;
            if (change.cluster != m_source.cluster() || !watcher->wants(change.rev, change.key))
                continue;
            // The encoder owns what in() returns: it must outlive the delivery.
            ChangeEncoder encoder(m_source, change);
            if (const ServedObject *served = encoder.in(apiVersion))
                watcher->deliver(change, *served);
        }
        if (changes->back().rev > m_rev)
            break;
    }
    watcher->setRev(std::max(*from, m_rev));
    m_watchers.push_back(watcher);
}

Watcher::Watcher(WatchHub &hub, EventSink *stream, const model::KindInfo &kind, std::string ns,
    std::string apiVersion, ListOptions options, bool bookmarks)
    : QObject(stream)
    , m_hub(&hub)
    , m_stream(stream)
    , m_kind(kind)
    , m_ns(std::move(ns))
    , m_apiVersion(std::move(apiVersion))
    , m_options(std::move(options))
    , m_bookmarks(bookmarks)
{
    if (m_bookmarks) {
        m_bookmarkTimer.setInterval(hub.m_bookmarkIntervalMs);
        connect(&m_bookmarkTimer, &QTimer::timeout, this, [this] { sendBookmark(); });
        m_bookmarkTimer.start();
    }
}

Watcher::~Watcher()
{
    if (m_hub)
        m_hub->remove(this);
}

bool Watcher::wants(int64_t rev, const common::ObjectKey &key) const
{
    if (rev <= m_rev || key.group != m_kind.group || key.kind != m_kind.name)
        return false;
    if (!m_ns.empty() && key.ns != m_ns)
        return false;
    const std::string name = m_options.fields.exactName();
    return name.empty() || key.name == name;
}

void Watcher::deliver(const store::LoggedChange &change, const ServedObject &item)
{
    if (change.rev <= m_rev)
        return;
    m_rev = change.rev;
    const bool matches
        = m_options.labels.matches(item.object.meta) && m_options.fields.matches(item.object.meta);
    if (m_options.labels.isEmpty()) {
        // Without a label selector an object cannot enter or leave the watch by changing.
        if (matches)
            send(eventType(change.type), item);
        return;
    }
    // As the watch cache does: entering the selector is ADDED, leaving it DELETED.
    const std::pair key { item.object.meta.ns, item.object.meta.name };
    bool wasVisible = false;
    if (m_known.contains(key))
        wasVisible = m_visible.contains(key);
    else // first seen since the watch began: it was there unless this change created it
        wasVisible = change.type != model::ChangeType::Added && matches;
    m_known.insert(key);
    if (change.type == model::ChangeType::Deleted || !matches) {
        if (wasVisible)
            send("DELETED", item);
        m_visible.erase(key);
        return;
    }
    send(wasVisible ? "MODIFIED" : "ADDED", item);
    m_visible.insert(key);
}

void Watcher::knowState(const ServedObject &item)
{
    const std::pair key { item.object.meta.ns, item.object.meta.name };
    m_known.insert(key);
    if (m_options.labels.matches(item.object.meta) && m_options.fields.matches(item.object.meta))
        m_visible.insert(key);
}

void Watcher::sendInitial(const ServedObject &item)
{
    knowState(item);
    if (m_options.labels.matches(item.object.meta) && m_options.fields.matches(item.object.meta))
        send("ADDED", item);
}

void Watcher::send(std::string_view type, const ServedObject &item)
{
    if (!m_options.rendering.table) {
        // The object's text is shared by every watcher the change goes to.
        const std::string &object = item.compactText();
        std::string line;
        line.reserve(object.size() + type.size() + 32);
        line.append(R"({"type":")").append(type).append(R"(","object":)");
        line.append(object).append("}\n");
        writeLine(line);
        return;
    }
    nlohmann::json table = makeTable(m_kind, { &item }, m_options.rendering, !m_columnsSent);
    table["metadata"] = { { "resourceVersion", std::to_string(item.rev) } };
    m_columnsSent = true;
    write({ { "type", std::string(type) }, { "object", std::move(table) } });
}

void Watcher::sendBookmark(bool initialEventsEnd)
{
    nlohmann::json metadata = { { "resourceVersion", std::to_string(m_rev) } };
    if (initialEventsEnd)
        metadata["annotations"] = { { "k8s.io/initial-events-end", "true" } };
    write({ { "type", "BOOKMARK" },
        { "object",
            { { "kind", std::string(m_kind.name) }, { "apiVersion", m_apiVersion },
                { "metadata", metadata } } } });
}

void Watcher::sendError(int code, std::string_view reason, const std::string &message)
{
    write({ { "type", "ERROR" }, { "object", status::object(code, reason, message) } });
}

void Watcher::write(const nlohmann::json &event)
{
    if (!m_stream)
        return;
    // One compact document per line: Python's watch splits the body on "\n".
    std::string line = common::compactJson(event);
    line.push_back('\n');
    writeLine(line);
}

void Watcher::writeLine(std::string_view line)
{
    if (m_stream)
        m_stream->write(QByteArrayView(line.data(), qsizetype(line.size())));
}

void Watcher::finish()
{
    m_bookmarkTimer.stop();
    if (m_stream)
        m_stream->finish();
}

} // namespace dra::server
