// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/cluster_link.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QThread>

#include "core/kube/mirror.h"
#include "core/kube/rest_client.h"
#include "core/kube/stopped_streams.h"
#include "core/store/cache_db.h"
#include "core/store/store.h"

namespace dra::console {

ClusterLink::ClusterLink(kube::ClientConfig config, QString cachePath, std::string cluster,
    std::vector<std::string> workloadNamespaces, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_cachePath(std::move(cachePath))
    , m_cluster(std::move(cluster))
    , m_workloadNamespaces(std::move(workloadNamespaces))
    , m_storeThread(new QThread(this))
    , m_kubeThread(new QThread(this))
{
    store::registerStoreMetaTypes();
    qRegisterMetaType<dra::kube::StreamStatus>();
    qRegisterMetaType<dra::common::Error>();
    m_storeThread->setObjectName(QStringLiteral("store"));
    m_kubeThread->setObjectName(QStringLiteral("kube"));
}

ClusterLink::~ClusterLink()
{
    if (m_mirror) {
        // Say in the cache that nobody follows the cluster any more; the batch is handed to
        // the writer and the writer flushed before both threads end.
        model::WatchBatch final;
        const QString reason = QStringLiteral("the console disconnected at %1")
                                   .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
        QMetaObject::invokeMethod(
            m_kubeRoot,
            [this, &final, &reason] {
                final = kube::stoppedStreamsBatch(
                    m_cluster, m_mirror->streams(), kube::StreamState::Stale, reason);
                m_mirror->stop();
                delete m_kubeRoot; // the mirror and the client with it, on their thread
            },
            Qt::BlockingQueuedConnection);
        QMetaObject::invokeMethod(
            m_store, [this, &final] { m_store->enqueue(final); }, Qt::BlockingQueuedConnection);
        // The flush enqueue() posted runs before this.
        QMetaObject::invokeMethod(
            m_store, [] {}, Qt::BlockingQueuedConnection);
    }
    m_kubeThread->quit();
    m_kubeThread->wait();
    m_storeThread->quit();
    m_storeThread->wait();
}

void ClusterLink::start()
{
    m_storeThread->start();
    m_kubeThread->start();
    // The writer opens (or creates) the file on its own thread; the GUI thread never waits on it.
    QObject *opener = new QObject;
    opener->moveToThread(m_storeThread);
    QMetaObject::invokeMethod(
        opener,
        [this, opener] {
            opener->deleteLater();
            QDir().mkpath(QFileInfo(m_cachePath).absolutePath());
            Result<store::CacheDb> cache
                = store::CacheDb::open(m_cachePath, store::OpenMode::ReadWrite);
            if (!cache) {
                Q_EMIT failed(cache.error());
                return;
            }
            const kube::ResumePoints resumeFrom = kube::resumePointsOf(*cache, m_cluster);
            m_store = new store::Store(std::move(*cache));
            connect(m_storeThread, &QThread::finished, m_store, &QObject::deleteLater);
            connect(m_store, &store::Store::failed, this, &ClusterLink::failed);
            QMetaObject::invokeMethod(
                this,
                [this, resumeFrom] {
                    Q_EMIT cacheReady();
                    startMirror(resumeFrom);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void ClusterLink::startMirror(const kube::ResumePoints &resumeFrom)
{
    m_kubeRoot = new QObject;
    m_kubeRoot->moveToThread(m_kubeThread);
    QMetaObject::invokeMethod(
        m_kubeRoot,
        [this, resumeFrom] {
            kube::RestOptions rest;
            rest.userAgent = "draconsole/" DRA_VERSION " (linux)";
            // A credential plugin has no terminal here: what it asks of the user (open a URL, touch
            // a key) reaches the window instead of hanging on a prompt nobody sees.
            rest.exec.terminalAvailable = false;
            rest.exec.onMessage = [this](const QString &line) {
                Q_EMIT notice(QStringLiteral("credential plugin: ") + line);
            };
            auto *client
                = new kube::RestClient(m_config, rest, common::Clock::system(), m_kubeRoot);
            kube::MirrorOptions options;
            options.cluster = m_cluster;
            options.resumeFrom = resumeFrom;
            options.workloadNamespaces = m_workloadNamespaces;
            m_mirror = new kube::Mirror(*client, options, common::Clock::system(), m_kubeRoot);
            connect(m_mirror, &kube::Mirror::batchReady, m_store, &store::Store::enqueue);
            connect(m_mirror, &kube::Mirror::streamChanged, this, &ClusterLink::streamChanged);
            connect(m_mirror, &kube::Mirror::initialSynced, this, &ClusterLink::initialSynced);
            connect(m_mirror, &kube::Mirror::notice, this,
                [this](const common::Error &error) { Q_EMIT notice(error.message); });
            connect(m_mirror, &kube::Mirror::discovered, this,
                [this](const kube::ApiDiscovery &discovery) {
                    Q_EMIT discovered(discovery.gitVersion, discovery.resourceVersions);
                });
            m_mirror->start();
        },
        Qt::QueuedConnection);
}

} // namespace dra::console
