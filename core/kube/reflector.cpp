// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/reflector.h"

#include <QRandomGenerator>

#include "core/common/json_text.h"
#include "core/common/logging.h"
#include "core/kube/object_intake.h"
#include "core/kube/rest_client.h"
#include "core/kube/watch_stream.h"

namespace dra::kube {

namespace {

using common::Error;

std::string metadataString(const nlohmann::json &object, const char *key)
{
    const auto metadata = object.find("metadata");
    if (metadata == object.end() || !metadata->is_object())
        return {};
    const auto it = metadata->find(key);
    return it != metadata->end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool isInitialEventsEnd(const nlohmann::json &bookmark)
{
    const auto metadata = bookmark.find("metadata");
    if (metadata == bookmark.end() || !metadata->is_object())
        return false;
    const auto annotations = metadata->find("annotations");
    if (annotations == metadata->end() || !annotations->is_object())
        return false;
    const auto end = annotations->find("k8s.io/initial-events-end");
    return end != annotations->end() && end->is_string() && end->get<std::string>() == "true";
}

// Query values are opaque (continue tokens may hold '+', '/' and '='); QUrlQuery leaves '+'
// as it is, which servers decode as a space, so every value goes fully percent-encoded.
void addQueryValue(QUrlQuery &query, const QString &key, const std::string &value)
{
    query.addQueryItem(key, QString::fromLatin1(QUrl::toPercentEncoding(common::qs(value))));
}

} // namespace

Reflector::Reflector(RestClient &client, const model::KindInfo &kind, std::string apiVersion,
    std::string ns, ReflectorOptions options, common::Clock &clock, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_kind(kind)
    , m_options(std::move(options))
    , m_clock(clock)
    , m_backoff(m_options.backoff)
{
    if (!m_options.bookmarks)
        m_options.bookmarks = std::make_shared<BookmarkCadence>();
    m_status.kind = kind.kind;
    m_status.ns = kind.namespaced ? std::move(ns) : std::string();
    m_status.apiVersion = std::move(apiVersion);
}

Reflector::~Reflector()
{
    stop();
}

QString Reflector::path() const
{
    const QString apiVersion = common::qs(m_status.apiVersion);
    QString path = m_kind.group.empty() ? QStringLiteral("/api/") + apiVersion
                                        : QStringLiteral("/apis/") + apiVersion;
    if (m_kind.namespaced && !m_status.ns.empty())
        path += QStringLiteral("/namespaces/") + common::qs(m_status.ns);
    return path + QLatin1Char('/') + common::qs(m_kind.plural);
}

void Reflector::start(const std::string &resumeFrom)
{
    stop();
    if (!resumeFrom.empty()) {
        m_status.resourceVersion = resumeFrom;
        watch();
    } else {
        list();
    }
}

void Reflector::stop()
{
    ++m_generation;
    closeWatch();
    m_phase = Phase::Stopped;
    m_listed.clear();
    m_streamingList = false;
}

void Reflector::closeWatch()
{
    if (m_watch) {
        m_watch->disconnect(this);
        m_watch->abort();
        m_watch->deleteLater();
        m_watch = nullptr;
    }
}

model::WatchBatch Reflector::newBatch() const
{
    model::WatchBatch batch;
    batch.cluster = m_options.cluster;
    return batch;
}

void Reflector::setState(StreamState state, const QString &reason, bool persist)
{
    if (m_status.state == state && m_status.reason == reason)
        return;
    m_status.state = state;
    m_status.reason = reason;
    Q_EMIT statusChanged(m_status);
    if (persist) {
        model::WatchBatch batch = newBatch();
        batch.streams.push_back(m_status.record());
        Q_EMIT batchReady(batch);
    }
}

void Reflector::retryLater(
    StreamState state, const QString &reason, void (Reflector::*again)(), int64_t serverWaitMs)
{
    const int64_t backoff = m_backoff.next();
    if (serverWaitMs <= backoff) {
        retryAfter(backoff, state, reason, again);
        return;
    }
    retryAfter(serverWaitMs, state,
        QStringLiteral("%1 (the server asked to wait %2 s)")
            .arg(reason)
            .arg((serverWaitMs + 999) / 1000),
        again);
}

void Reflector::failPermanently(const Error &error, void (Reflector::*again)())
{
    const uint64_t generation = m_generation;
    Q_EMIT permanentFailure(error);
    if (generation != m_generation)
        return; // a listener stopped the stream
    const int64_t delay = permanentRetryDelay(m_options.permanentRetryMs);
    retryAfter(delay, StreamState::Error, permanentFailureReason(error.message, delay), again);
}

void Reflector::retryAfter(
    int64_t delay, StreamState state, const QString &reason, void (Reflector::*again)())
{
    closeWatch();
    setState(state, reason);
    m_phase = Phase::Waiting;
    const uint64_t generation = m_generation;
    qCInfo(lcKube).noquote() << m_status.label() << "retrying in" << delay << "ms:" << reason;
    m_clock.callLater(delay, this, [this, generation, again] {
        if (generation == m_generation)
            (this->*again)();
    });
}

// ---- listing ------------------------------------------------------------------------------

void Reflector::list()
{
    closeWatch();
    m_phase = Phase::Listing;
    m_listed.clear();
    m_continue.clear();
    m_status.objects = 0;
    setState(StreamState::Listing);
    if (m_options.streamingList && !m_streamingRefused) {
        m_streamingList = true;
        watch();
        return;
    }
    m_streamingList = false;
    requestPage();
}

void Reflector::requestPage()
{
    RestRequest request;
    request.path = path();
    if (!m_unpaged && m_options.pageSize > 0)
        request.query.addQueryItem(QStringLiteral("limit"), QString::number(m_options.pageSize));
    if (!m_continue.empty())
        addQueryValue(request.query, QStringLiteral("continue"), m_continue);
    request.timeoutMs = 120 * 1000;
    const uint64_t generation = m_generation;
    m_client.send(
        std::move(request), this, [this, generation](const Result<RestResponse> &response) {
            if (generation != m_generation)
                return;
            if (!response) {
                onListFailed(response.error());
                return;
            }
            onPage(response->body);
        });
}

void Reflector::onPage(const QByteArray &body)
{
    nlohmann::json list = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
    if (!list.is_object() || !list.contains("items") || !list["items"].is_array()) {
        onListFailed(Error { Error::Code::Parse,
            m_client.describe("GET", path()) + QStringLiteral(": not a list") });
        return;
    }
    std::string apiVersion = list.value("apiVersion", nlohmann::json()).is_string()
        ? list["apiVersion"].get<std::string>()
        : m_status.apiVersion;
    m_continue = metadataString(list, "continue");
    const std::string resourceVersion = metadataString(list, "resourceVersion");
    // The next page is asked for before this one is taken in, so the server prepares and sends
    // it meanwhile. Should a listener stop the stream below, its answer is ignored.
    if (!m_continue.empty())
        requestPage();
    for (nlohmann::json &item : list["items"]) {
        if (!mirrorKeeps(item, m_kind))
            continue;
        Result<model::ObjectRecord> record = intakeObject(std::move(item), m_kind, apiVersion);
        if (!record) {
            qCWarning(lcKube).noquote()
                << m_status.label() << "skipping an object:" << record.error().message;
            Q_EMIT objectRejected(record.error());
            continue;
        }
        m_listed.push_back(std::move(*record));
    }
    m_status.objects = int(m_listed.size());
    Q_EMIT listProgress(m_status.objects);
    if (m_phase != Phase::Listing)
        return; // stopped by a listener
    if (m_continue.empty())
        finishList(resourceVersion);
}

void Reflector::finishList(const std::string &resourceVersion)
{
    model::WatchBatch batch = newBatch();
    batch.changes.reserve(m_listed.size());
    for (model::ObjectRecord &record : m_listed)
        batch.changes.push_back(model::Change { model::ChangeType::Added, std::move(record) });
    m_listed.clear();
    const std::string group(m_kind.group), kind(m_kind.name);
    if (m_status.ns.empty())
        batch.replaceKinds.emplace_back(group, kind);
    else
        batch.replaceNamespaces.emplace_back(group, kind, m_status.ns);
    m_status.resourceVersion = resourceVersion;
    if (m_status.ns.empty() && !resourceVersion.empty())
        batch.listVersions.emplace_back(group, kind, resourceVersion);
    m_listRestarts = 0;
    m_unpaged = false;
    m_backoff.reset();
    const bool continuing = m_streamingList; // the streaming list's watch goes on
    m_streamingList = false;
    m_status.state = continuing ? StreamState::Watching : StreamState::Synced;
    m_status.reason.clear();
    batch.streams.push_back(m_status.record());
    Q_EMIT statusChanged(m_status);
    Q_EMIT batchReady(batch);
    if (!continuing && m_phase == Phase::Listing)
        watch();
}

void Reflector::onListFailed(const Error &error)
{
    if (error.permanent) {
        failPermanently(error, &Reflector::list);
        return;
    }
    if (error.code == Error::Code::Gone && !m_continue.empty()) {
        // The continue token expired: start over, and after a few tries list in one response
        // so a busy kind still gets a consistent list.
        ++m_listRestarts;
        if (m_listRestarts >= m_options.maxListRestarts)
            m_unpaged = true;
        qCInfo(lcKube).noquote() << m_status.label() << "continue token expired; listing again"
                                 << (m_unpaged ? "in one response" : "");
        list();
        return;
    }
    switch (error.code) {
    case Error::Code::Forbidden:
        retryLater(StreamState::Forbidden, error.message, &Reflector::list, error.retryAfterMs);
        return;
    case Error::Code::NotFound:
        Q_EMIT notServed();
        retryLater(StreamState::Error, error.message, &Reflector::list, error.retryAfterMs);
        return;
    case Error::Code::Network:
    case Error::Code::Busy:
        retryLater(m_status.resourceVersion.empty() ? StreamState::Error : StreamState::Stale,
            error.message, &Reflector::list, error.retryAfterMs);
        return;
    default:
        retryLater(StreamState::Error, error.message, &Reflector::list, error.retryAfterMs);
        return;
    }
}

// ---- watching -----------------------------------------------------------------------------

void Reflector::watch()
{
    closeWatch();
    m_phase = Phase::Watching;
    const int low = std::max(1, m_options.watchTimeoutMinS);
    const int high = std::max(low, m_options.watchTimeoutMaxS);
    const int timeout = low + int(QRandomGenerator::global()->bounded(high - low + 1));
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("allowWatchBookmarks"), QStringLiteral("true"));
    query.addQueryItem(QStringLiteral("timeoutSeconds"), QString::number(timeout));
    if (m_streamingList) {
        query.addQueryItem(QStringLiteral("sendInitialEvents"), QStringLiteral("true"));
        query.addQueryItem(QStringLiteral("resourceVersionMatch"), QStringLiteral("NotOlderThan"));
    } else {
        addQueryValue(query, QStringLiteral("resourceVersion"), m_status.resourceVersion);
    }
    m_watch = m_client.watch(path(), query, (timeout + 60) * 1000, this);
    m_watchStartedMs = m_clock.nowMs();
    m_lastHeardMs = m_watchStartedMs;
    ++m_watchSerial;
    m_watchSawEvents = false;
    if (m_options.bookmarks->known() && !m_streamingList)
        scheduleQuietCheck(quietLimitMs());
    connect(m_watch, &WatchStream::opened, this, [this] {
        if (m_streamingList)
            return; // still listing until the initial events end
        m_backoff.reset();
        setState(StreamState::Watching);
    });
    connect(m_watch, &WatchStream::events, this, &Reflector::onWatchEvents);
    connect(m_watch, &WatchStream::ended, this, &Reflector::onWatchEnded);
    connect(m_watch, &WatchStream::failed, this, &Reflector::onWatchFailed);
}

void Reflector::onWatchEvents(const std::vector<WatchEvent> &events)
{
    model::WatchBatch batch = newBatch();
    bool moved = false;
    bool initialEnd = false;
    const int64_t now = m_clock.nowMs();
    for (const WatchEvent &event : events) {
        m_watchSawEvents = true;
        const std::string resourceVersion = metadataString(event.object, "resourceVersion");
        if (event.type == WatchEvent::Type::Bookmark) {
            m_options.bookmarks->observe(now - m_lastHeardMs);
            if (m_streamingList && isInitialEventsEnd(event.object))
                initialEnd = true;
        } else if (mirrorKeeps(event.object, m_kind)) {
            const bool deleted = event.type == WatchEvent::Type::Deleted;
            Result<model::ObjectRecord> record
                = intakeObject(nlohmann::json(event.object), m_kind, m_status.apiVersion);
            if (!record && deleted) {
                // The deletion still counts when its last state does not decode.
                if (std::optional<common::ObjectKey> key = objectKeyOf(event.object, m_kind)) {
                    model::ObjectRecord gone;
                    gone.key = *key;
                    record = std::move(gone);
                }
            }
            if (!record) {
                qCWarning(lcKube).noquote()
                    << m_status.label() << "skipping an object:" << record.error().message;
                Q_EMIT objectRejected(record.error());
            } else if (m_streamingList) {
                std::erase_if(m_listed,
                    [&](const model::ObjectRecord &listed) { return listed.key == record->key; });
                if (!deleted)
                    m_listed.push_back(std::move(*record));
            } else {
                batch.changes.push_back(model::Change {
                    deleted ? model::ChangeType::Deleted : model::ChangeType::Modified,
                    std::move(*record) });
            }
        }
        if (!resourceVersion.empty() && resourceVersion != m_status.resourceVersion) {
            m_status.resourceVersion = resourceVersion;
            moved = true;
        }
    }
    if (!events.empty())
        m_lastHeardMs = now;
    if (m_streamingList) {
        m_status.objects = int(m_listed.size());
        Q_EMIT listProgress(m_status.objects);
        if (initialEnd)
            finishList(m_status.resourceVersion);
        return;
    }
    if (batch.changes.empty() && !moved)
        return;
    if (m_status.ns.empty())
        batch.listVersions.emplace_back(
            std::string(m_kind.group), std::string(m_kind.name), m_status.resourceVersion);
    batch.streams.push_back(m_status.record());
    Q_EMIT batchReady(batch);
}

int64_t Reflector::quietLimitMs() const
{
    return std::max(m_options.quietWatchLimitMs, 3 * m_options.bookmarks->longestGapMs);
}

void Reflector::scheduleQuietCheck(int64_t delayMs)
{
    const uint64_t generation = m_generation;
    const uint64_t serial = m_watchSerial;
    m_clock.callLater(delayMs, this, [this, generation, serial] {
        if (generation != m_generation || serial != m_watchSerial || m_phase != Phase::Watching
            || !m_watch)
            return;
        const int64_t quiet = m_clock.nowMs() - m_lastHeardMs;
        if (quiet < quietLimitMs()) {
            scheduleQuietCheck(quietLimitMs() - quiet);
            return;
        }
        // The server sends bookmarks, yet this watch has said nothing for far longer: it may be
        // waiting for a resourceVersion this server will never reach. Only a list can tell.
        qCInfo(lcKube).noquote() << m_status.label() << "watch silent for" << quiet / 1000
                                 << "s although the server sends bookmarks; listing again";
        list();
    });
}

void Reflector::onWatchEnded()
{
    closeWatch();
    if (m_streamingList) {
        retryLater(StreamState::Error,
            QStringLiteral("the streaming list ended before its initial events did"),
            &Reflector::list);
        return;
    }
    // A server closing watches at once, over and over, must not be hammered; meanwhile the
    // stream is not watching, and says so.
    if (!m_watchSawEvents && m_clock.nowMs() - m_watchStartedMs < 1000) {
        retryLater(StreamState::Stale,
            QStringLiteral("the server ended the watch at once; reconnecting"), &Reflector::watch);
        return;
    }
    watch(); // the normal end of timeoutSeconds: resume from the last resourceVersion
}

void Reflector::onWatchFailed(const Error &error)
{
    closeWatch();
    if (error.permanent) {
        failPermanently(error,
            m_streamingList || m_status.resourceVersion.empty() ? &Reflector::list
                                                                : &Reflector::watch);
        return;
    }
    if (m_streamingList
        && (error.code == Error::Code::Invalid || error.code == Error::Code::Forbidden)) {
        qCInfo(lcKube).noquote() << m_status.label()
                                 << "streaming list refused, listing page by page:"
                                 << error.message;
        m_streamingRefused = true;
        list();
        return;
    }
    switch (error.code) {
    case Error::Code::Gone:
        // Expired, or newer than anything the server has (a restored or recreated cluster):
        // either way only a list from scratch says what the cluster holds.
        qCInfo(lcKube).noquote() << m_status.label() << "cannot resume at resourceVersion"
                                 << common::qs(m_status.resourceVersion) << "(" << error.message
                                 << "); listing again";
        list();
        return;
    case Error::Code::Forbidden:
        retryLater(StreamState::Forbidden, error.message, &Reflector::watch, error.retryAfterMs);
        return;
    case Error::Code::NotFound:
        Q_EMIT notServed();
        retryLater(StreamState::Error, error.message, &Reflector::list, error.retryAfterMs);
        return;
    case Error::Code::Unauthorized:
        retryLater(StreamState::Error, error.message, &Reflector::watch, error.retryAfterMs);
        return;
    case Error::Code::Parse:
        if (!m_streamingList && !m_status.resourceVersion.empty()) {
            // As client-go: an event that cannot be read ends the watch, and the next one
            // resumes after the last change applied, so the server sends that event again.
            ++m_status.malformedEvents;
            retryLater(StreamState::Stale,
                QStringLiteral("%1 (%2 unreadable watch event(s) so far); resuming from "
                               "resourceVersion %3")
                    .arg(error.message)
                    .arg(m_status.malformedEvents)
                    .arg(common::qs(m_status.resourceVersion)),
                &Reflector::watch);
            return;
        }
        [[fallthrough]];
    default:
        if (m_streamingList || m_status.resourceVersion.empty())
            retryLater(StreamState::Stale, error.message, &Reflector::list, error.retryAfterMs);
        else
            retryLater(StreamState::Stale, error.message, &Reflector::watch, error.retryAfterMs);
        return;
    }
}

} // namespace dra::kube
