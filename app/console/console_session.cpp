// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/console_session.h"

#include <QFutureWatcher>
#include <QTemporaryDir>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include "app/console/cache_follower.h"
#include "app/console/cluster_link.h"
#include "core/inventory/inventory.h"
#include "core/sandbox/demo_cluster.h"
#include "core/store/cache_db.h"
#include "core/store/store.h"

namespace dra::console {
namespace {

// Seeds a fresh cache file with the preset. Runs on a pool thread; the writer closes on return.
Result<void> seedDemo(const QString &path, const sandbox::PresetOptions &preset)
{
    Result<store::CacheDb> cache = store::CacheDb::open(path, store::OpenMode::ReadWrite);
    if (!cache)
        return fail(cache.error());
    return sandbox::seedDemoCache(*cache, std::string(sandbox::kDemoCluster), preset);
}

} // namespace

ConsoleSession::ConsoleSession(SessionOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_cacheThread(new QThread(this))
{
    store::registerStoreMetaTypes();
    inventory::registerInventoryMetaTypes();
    qRegisterMetaType<dra::common::Error>();
    m_cacheThread->setObjectName(QStringLiteral("cache"));
}

ConsoleSession::~ConsoleSession()
{
    m_cacheThread->quit();
    m_cacheThread->wait();
}

QString ConsoleSession::description() const
{
    if (m_options.mode == SessionOptions::Mode::Demo)
        return QStringLiteral("demo cluster (%1)").arg(m_options.preset);
    if (m_options.mode == SessionOptions::Mode::Live)
        return QStringLiteral("context %1 (live)").arg(m_options.client.context);
    return m_cachePath;
}

void ConsoleSession::start()
{
    if (m_options.mode == SessionOptions::Mode::Live) {
        // The mirror writes the cache; the console follows the cache, starting from what an
        // earlier session left in it.
        m_cachePath = m_options.cachePath;
        if (m_options.cluster.empty())
            m_options.cluster = m_options.client.context.toStdString();
        m_link = new ClusterLink(m_options.client, m_cachePath, m_options.cluster, this);
        connect(m_link, &ClusterLink::cacheReady, this, &ConsoleSession::follow);
        connect(m_link, &ClusterLink::streamChanged, this, &ConsoleSession::streamChanged);
        connect(m_link, &ClusterLink::notice, this, &ConsoleSession::notice);
        connect(m_link, &ClusterLink::initialSynced, this, &ConsoleSession::initialSynced);
        connect(m_link, &ClusterLink::failed, this, &ConsoleSession::failed);
        connect(m_link, &ClusterLink::discovered, this, [this](const QString &version, const QStringList &apis) {
            Q_EMIT progress(QStringLiteral("Connected to %1: Kubernetes %2, resource.k8s.io %3")
                                .arg(m_options.client.describe(), version,
                                     apis.isEmpty() ? QStringLiteral("not served") : apis.join(QStringLiteral(", "))));
        });
        Q_EMIT progress(QStringLiteral("Connecting to %1…").arg(m_options.client.describe()));
        m_link->start();
        return;
    }
    if (m_options.mode == SessionOptions::Mode::Cache) {
        m_cachePath = m_options.cachePath;
        follow();
        return;
    }
    m_cachePath = m_options.cachePath;
    if (m_cachePath.isEmpty()) {
        m_demoDir = std::make_unique<QTemporaryDir>();
        if (!m_demoDir->isValid()) {
            Q_EMIT failed({ common::Error::Code::Internal,
                            QStringLiteral("cannot create a temporary folder for the demo cluster: %1")
                                .arg(m_demoDir->errorString()) });
            return;
        }
        m_cachePath = m_demoDir->filePath(QStringLiteral("demo-cache.db"));
    }
    m_options.cluster = std::string(sandbox::kDemoCluster);
    Q_EMIT progress(QStringLiteral("Generating the %1 demo cluster…").arg(m_options.preset));
    sandbox::PresetOptions preset{ m_options.preset.toStdString(), m_options.demoNodes, 1 };
    auto *watcher = new QFutureWatcher<Result<void>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        if (const Result<void> &seeded = watcher->result(); !seeded) {
            Q_EMIT failed(seeded.error());
            return;
        }
        follow();
    });
    watcher->setFuture(QtConcurrent::run(seedDemo, m_cachePath, preset));
}

void ConsoleSession::follow()
{
    Q_EMIT progress(QStringLiteral("Reading %1…").arg(description()));
    m_follower = new CacheFollower(m_cachePath, m_options.cluster);
    m_follower->moveToThread(m_cacheThread);
    connect(m_cacheThread, &QThread::finished, m_follower, &QObject::deleteLater);
    connect(m_follower, &CacheFollower::loaded, this, &ConsoleSession::onLoaded);
    connect(m_follower, &CacheFollower::failed, this, &ConsoleSession::failed);
    m_cacheThread->start();
    QMetaObject::invokeMethod(m_follower, &CacheFollower::start, Qt::QueuedConnection);
}

void ConsoleSession::onLoaded(const inventory::SnapshotPtr &snapshot, qint64 lastSyncMs)
{
    m_lastSyncMs = lastSyncMs;
    m_options.cluster = snapshot->cluster();
    m_inventory = new inventory::Inventory(snapshot, this);
    connect(m_follower, &CacheFollower::committed, m_inventory, &inventory::Inventory::apply);
    Q_EMIT loaded();
}

} // namespace dra::console
