// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/cache_follower.h"

#include <utility>

#include <QTimer>

#include "core/common/json_text.h"
#include "core/inventory/snapshot_builder.h"
#include "core/model/object.h"
#include "core/store/cache_db.h"
#include "core/model/record_codec.h"

namespace dra::console {
namespace {

constexpr int kQuickCheckDelayMs = 2000;

// The logged state of a change as the record the store would have committed.
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

} // namespace

CacheFollower::CacheFollower(QString path, std::string cluster, int pollIntervalMs)
    : m_path(std::move(path))
    , m_cluster(std::move(cluster))
    , m_pollIntervalMs(pollIntervalMs)
{
}

CacheFollower::~CacheFollower() = default;

void CacheFollower::start()
{
    // The integrity check reads the whole file: it runs once the data is on screen.
    store::OpenOptions options;
    options.deferQuickCheck = true;
    Result<store::CacheDb> cache = store::CacheDb::open(m_path, store::OpenMode::ReadOnly, options);
    if (!cache) {
        Q_EMIT failed(cache.error());
        return;
    }
    m_cache = std::make_unique<store::CacheDb>(std::move(*cache));
    if (m_cluster.empty()) {
        // None named: the only cluster of the cache, else the first it lists.
        Result<std::vector<store::ClusterInfo>> clusters = m_cache->clusters();
        if (!clusters) {
            Q_EMIT failed(clusters.error());
            return;
        }
        if (!clusters->empty())
            m_cluster = clusters->front().name;
    }
    // The revision first, then the snapshot: a batch committed in between is replayed again
    // and applies as unchanged, never missed.
    Result<int64_t> rev = m_cache->currentRev();
    Result<int64_t> version = m_cache->dataVersion();
    Result<inventory::SnapshotPtr> snapshot = inventory::loadSnapshot(*m_cache, m_cluster);
    if (!rev || !version || !snapshot) {
        Q_EMIT failed(!rev ? rev.error() : !version ? version.error() : snapshot.error());
        return;
    }
    m_rev = (*snapshot)->rev();
    m_dataVersion = *version;
    m_kubernetesVersion = (*snapshot)->kubernetesVersion();
    qint64 lastSync = 0;
    if (auto clusters = m_cache->clusters())
        for (const auto &info : *clusters)
            if (info.name == m_cluster)
                lastSync = info.lastSync;
    Q_EMIT loaded(*snapshot, lastSync);
    // Once the first pages have painted: the check reads the whole file and would compete with
    // them for the cores.
    QTimer::singleShot(kQuickCheckDelayMs, this, [this] {
        if (Result<void> checked = m_cache->quickCheck(); !checked)
            Q_EMIT failed(checked.error());
    });

    m_timer = new QTimer(this);
    m_timer->setInterval(m_pollIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &CacheFollower::poll);
    m_timer->start();
}

void CacheFollower::poll()
{
    Result<int64_t> version = m_cache->dataVersion();
    if (!version || *version == m_dataVersion)
        return;
    m_dataVersion = *version;
    // A live mirror records the version before its first objects: the snapshot learns it here.
    std::string serverVersion = newVersion();
    for (;;) {
        Result<std::vector<store::LoggedChange>> changes = m_cache->changesSince(m_rev, 5000);
        if (!changes) {
            Q_EMIT failed(changes.error());
            return;
        }
        if (changes->empty()) {
            if (!serverVersion.empty())
                Q_EMIT committed(
                    model::CommittedBatch { m_cluster, {}, {}, std::move(serverVersion) });
            return;
        }
        model::CommittedBatch batch;
        batch.cluster = m_cluster;
        batch.serverVersion = std::exchange(serverVersion, std::string());
        for (const store::LoggedChange &change : *changes) {
            m_rev = change.rev;
            if (change.cluster != m_cluster)
                continue;
            batch.changes.push_back({ change.type, change.rev, recordOf(change) });
            auto &summary = batch.summary;
            (change.type == model::ChangeType::Added             ? summary.added
                    : change.type == model::ChangeType::Modified ? summary.modified
                                                                 : summary.deleted)++;
            if (summary.firstRev == 0)
                summary.firstRev = change.rev;
            summary.lastRev = change.rev;
        }
        if (!batch.changes.empty() || !batch.serverVersion.empty())
            Q_EMIT committed(batch);
        if (changes->size() < 5000)
            return;
    }
}

std::string CacheFollower::newVersion()
{
    Result<std::vector<store::ClusterInfo>> clusters = m_cache->clusters();
    if (!clusters)
        return {};
    for (const store::ClusterInfo &info : *clusters)
        if (info.name == m_cluster && info.version != m_kubernetesVersion) {
            m_kubernetesVersion = info.version;
            return info.version;
        }
    return {};
}

} // namespace dra::console
