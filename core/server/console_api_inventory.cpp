// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/console_api_inventory.h"

#include <set>

#include <QThread>
#include <QTimer>

#include "core/common/json_text.h"
#include "core/inventory/snapshot_builder.h"
#include "core/model/object.h"
#include "core/model/record_codec.h"
#include "core/server/api_server.h"

namespace dra::server::console {

namespace {

// The logged state of a change as the record the store would have committed.
// TODO(#18): one copy with app/console/cache_follower.cpp, once it moves into core.
model::ObjectRecord recordOf(const store::LoggedChange &change)
{
    if (Result<nlohmann::json> json
        = common::parseJson(change.json, QStringLiteral("change log"))) {
        if (Result<model::Object> object = model::decodeObject(std::move(*json))) {
            model::ObjectRecord record = model::toRecord(*object);
            record.rev = change.rev;
            return record;
        }
    }
    model::ObjectRecord record; // undecodable: the key still lets a deletion apply
    record.key = change.key;
    record.resourceVersion = change.resourceVersion;
    record.json = change.json;
    record.rev = change.rev;
    return record;
}

constexpr int kChangesPerRead = 5000;

} // namespace

Result<ConsoleState> loadConsoleState(
    store::CacheDb &cache, const std::string &cluster, bool writable)
{
    ConsoleState state;
    state.writable = writable;
    state.kubernetesVersion = recordedVersion(cache, cluster);
    Result<std::vector<model::StreamRecord>> streams = cache.streams(cluster);
    if (!streams)
        return fail(streams.error());
    state.streams = std::move(*streams);
    Result<inventory::SnapshotPtr> snapshot = inventory::loadSnapshot(cache, cluster);
    if (!snapshot)
        return fail(snapshot.error());
    state.snapshot = std::move(*snapshot);
    return state;
}

// Lives on the inventory's thread with its own connection to the cache.
class ConsoleInventory::Follower final : public QObject
{
public:
    Follower(ConsoleInventory *owner, QString path, std::string cluster, std::string version,
        bool writable, int pollIntervalMs)
        : m_owner(owner)
        , m_path(std::move(path))
        , m_cluster(std::move(cluster))
        , m_version(std::move(version))
        , m_writable(writable)
        , m_pollIntervalMs(pollIntervalMs)
    {
    }

    void start()
    {
        // The server's own connection checked the file's integrity when it opened it.
        store::OpenOptions options;
        options.deferQuickCheck = true;
        Result<store::CacheDb> cache
            = store::CacheDb::open(m_path, store::OpenMode::ReadOnly, options);
        if (!cache)
            return deliver(fail(cache.error()), {});
        m_cache = std::make_unique<store::CacheDb>(std::move(*cache));
        // The data version first, then the state: a commit in between is read again and
        // applies as unchanged, never missed.
        Result<int64_t> version = m_cache->dataVersion();
        Result<ConsoleState> state = loadConsoleState(*m_cache, m_cluster, m_writable);
        if (!version || !state)
            return deliver(fail(!version ? version.error() : state.error()), {});
        m_dataVersion = *version;
        m_rev = state->snapshot->rev();
        if (!m_version.empty())
            state->kubernetesVersion = m_version;
        m_state = *state;
        deliver(std::move(*state), {});
        auto *timer = new QTimer(this);
        connect(timer, &QTimer::timeout, this, &Follower::poll);
        timer->start(m_pollIntervalMs);
    }

private:
    void deliver(Result<ConsoleState> state, QStringList kinds)
    {
        ConsoleInventory *owner = m_owner;
        // The owner outlives this thread (its destructor stops it), so the call is delivered
        // or dropped with the owner, never to a dangling object.
        QMetaObject::invokeMethod(
            owner,
            [owner, state = std::move(state), kinds = std::move(kinds)]() mutable {
                owner->take(std::move(state), kinds);
            },
            Qt::QueuedConnection);
    }

    void poll()
    {
        Result<int64_t> version = m_cache->dataVersion();
        if (!version || *version == m_dataVersion)
            return;
        m_dataVersion = *version;
        std::set<QString> kinds;
        inventory::SnapshotPtr snapshot = m_state.snapshot;
        for (;;) {
            Result<std::vector<store::LoggedChange>> changes
                = m_cache->changesSince(m_rev, kChangesPerRead);
            if (!changes)
                return;
            model::CommittedBatch batch;
            batch.cluster = m_cluster;
            for (const store::LoggedChange &change : *changes) {
                m_rev = change.rev;
                if (change.cluster != m_cluster)
                    continue;
                kinds.insert(QString::fromStdString(change.key.kind));
                batch.changes.push_back({ change.type, change.rev, recordOf(change) });
                auto &summary = batch.summary;
                (change.type == model::ChangeType::Added             ? summary.added
                        : change.type == model::ChangeType::Modified ? summary.modified
                                                                     : summary.deleted)++;
                if (summary.firstRev == 0)
                    summary.firstRev = change.rev;
                summary.lastRev = change.rev;
            }
            if (!batch.changes.empty())
                snapshot = inventory::applyBatch(snapshot, batch);
            if (changes->size() < size_t(kChangesPerRead))
                break;
        }
        Result<std::vector<model::StreamRecord>> streams = m_cache->streams(m_cluster);
        const bool streamsMoved = streams && *streams != m_state.streams;
        if (snapshot == m_state.snapshot && !streamsMoved)
            return;
        m_state.snapshot = snapshot;
        if (streams)
            m_state.streams = std::move(*streams);
        deliver(m_state, QStringList(kinds.begin(), kinds.end()));
    }

    ConsoleInventory *m_owner;
    QString m_path;
    std::string m_cluster, m_version;
    bool m_writable;
    int m_pollIntervalMs;
    std::unique_ptr<store::CacheDb> m_cache;
    ConsoleState m_state;
    int64_t m_dataVersion = -1;
    int64_t m_rev = 0;
};

ConsoleInventory::ConsoleInventory(QString cachePath, std::string cluster,
    std::string kubernetesVersion, bool writable, int pollIntervalMs, QObject *parent)
    : QObject(parent)
    , m_path(std::move(cachePath))
    , m_cluster(std::move(cluster))
    , m_version(std::move(kubernetesVersion))
    , m_writable(writable)
    , m_pollIntervalMs(pollIntervalMs)
{
}

ConsoleInventory::~ConsoleInventory()
{
    if (m_thread) {
        m_thread->quit();
        m_thread->wait();
    }
}

void ConsoleInventory::start()
{
    if (m_thread)
        return;
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("console inventory"));
    auto *follower = new Follower(this, m_path, m_cluster, m_version, m_writable, m_pollIntervalMs);
    follower->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, follower, &QObject::deleteLater);
    connect(m_thread, &QThread::started, follower, [follower] { follower->start(); });
    m_thread->start();
}

void ConsoleInventory::whenReady(std::function<void(const Result<ConsoleState> &)> ready)
{
    if (m_state)
        return ready(*m_state);
    if (m_error)
        return ready(fail(*m_error));
    m_waiting.push_back(std::move(ready));
    start();
}

void ConsoleInventory::take(Result<ConsoleState> state, const QStringList &kinds)
{
    if (!state) {
        m_error = state.error();
    } else {
        const bool first = !m_state;
        m_state = std::move(*state);
        m_error.reset();
        if (!first)
            Q_EMIT changed(m_state->snapshot->rev(), kinds);
    }
    std::vector<std::function<void(const Result<ConsoleState> &)>> waiting;
    waiting.swap(m_waiting);
    for (auto &ready : waiting)
        ready(m_state ? Result<ConsoleState>(*m_state) : Result<ConsoleState>(fail(*m_error)));
}

} // namespace dra::server::console
