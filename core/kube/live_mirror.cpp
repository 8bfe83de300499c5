// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/live_mirror.h"

#include <utility>

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QThread>

#include "core/kube/stopped_streams.h"
#include "core/kube/web_console_probe.h"
#include "core/store/store.h"

namespace dra::kube {

LiveMirror::LiveMirror(LiveMirrorOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_storeThread(new QThread(this))
    , m_kubeThread(new QThread(this))
    , m_storeContext(new QObject)
{
    store::registerStoreMetaTypes();
    qRegisterMetaType<dra::kube::StreamStatus>();
    qRegisterMetaType<dra::kube::ApiDiscovery>();
    m_storeThread->setObjectName(QStringLiteral("store"));
    m_kubeThread->setObjectName(QStringLiteral("kube"));
    m_storeContext->moveToThread(m_storeThread);
    connect(m_storeThread, &QThread::finished, m_storeContext, &QObject::deleteLater);
}

LiveMirror::~LiveMirror()
{
    if (!m_stopped)
        stop(StreamState::Stale,
            QStringLiteral("stopped following at %1")
                .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate)));
    m_kubeThread->quit();
    m_kubeThread->wait();
    m_storeThread->quit();
    m_storeThread->wait();
    if (!m_started)
        delete m_storeContext; // its thread never ran, so it was never handed a deleteLater
}

void LiveMirror::start()
{
    if (m_started)
        return;
    m_started = true;
    m_storeThread->start();
    m_kubeThread->start();
    // The writer opens (or creates) the file on its own thread; the caller never waits on it.
    QMetaObject::invokeMethod(
        m_storeContext,
        [this] {
            QDir().mkpath(QFileInfo(m_options.cachePath).absolutePath());
            Result<store::CacheDb> cache
                = store::CacheDb::open(m_options.cachePath, store::OpenMode::ReadWrite);
            if (!cache) {
                QMetaObject::invokeMethod(
                    this, [this, error = cache.error()] { Q_EMIT failed(error); },
                    Qt::QueuedConnection);
                return;
            }
            // Where the streams got to, and which cluster the name reached, as the cache says.
            MirrorOptions mirror = m_options.mirror;
            if (m_options.resume)
                mirror.resumeFrom = resumePointsOf(*cache, cluster());
            if (Result<std::vector<store::ClusterInfo>> clusters = cache->clusters()) {
                for (const store::ClusterInfo &info : *clusters) {
                    if (info.name != cluster())
                        continue;
                    mirror.recordedIdentity = { info.uid, info.server };
                    mirror.recordedBookmarkGapMs = info.bookmarkGapMs;
                }
            }
            auto *writer = new store::Store(std::move(*cache));
            connect(m_storeThread, &QThread::finished, writer, &QObject::deleteLater);
            connect(writer, &store::Store::committed, this, &LiveMirror::committed);
            connect(writer, &store::Store::failed, this, &LiveMirror::writeFailed);
            connect(writer, &store::Store::retentionApplied, this, &LiveMirror::retentionApplied);
            // Counted where it happens, so stop() can answer without waiting for the signal.
            connect(
                writer, &store::Store::failed, writer, [this] { ++m_failures; },
                Qt::DirectConnection);
            m_store = writer;
            QMetaObject::invokeMethod(
                this, [this, mirror] { onCacheOpened(mirror); }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void LiveMirror::onCacheOpened(const MirrorOptions &mirror)
{
    if (m_stopped)
        return;
    Q_EMIT cacheReady();
    if (!m_stopped)
        startMirror(mirror);
}

void LiveMirror::startMirror(const MirrorOptions &mirror)
{
    m_kubeRoot = new QObject;
    m_kubeRoot->moveToThread(m_kubeThread);
    connect(m_kubeThread, &QThread::finished, m_kubeRoot, &QObject::deleteLater);
    store::Store *writer = m_store.load();
    QMetaObject::invokeMethod(
        m_kubeRoot,
        [this, writer, options = mirror] {
            auto *client = new RestClient(
                m_options.client, m_options.rest, common::Clock::system(), m_kubeRoot);
            auto *mirror = new Mirror(*client, options, common::Clock::system(), m_kubeRoot);
            connect(mirror, &Mirror::batchReady, writer, &store::Store::enqueue);
            connect(client, &RestClient::warning, this, &LiveMirror::warning);
            connect(mirror, &Mirror::discovered, this, [this](const ApiDiscovery &discovery) {
                m_discovery = discovery;
                Q_EMIT discovered(discovery);
            });
            // Asked on the client's thread, once: whether the server is one of ours.
            connect(mirror, &Mirror::discovered, m_kubeRoot,
                [this, client, asked = false](const ApiDiscovery &) mutable {
                    if (std::exchange(asked, true))
                        return;
                    probeWebConsole(
                        *client, m_kubeRoot, [this](const std::optional<QUrl> &console) {
                            if (console)
                                Q_EMIT webConsoleFound(*console);
                        });
                });
            connect(mirror, &Mirror::streamChanged, this, &LiveMirror::streamChanged);
            connect(mirror, &Mirror::listProgress, this, &LiveMirror::listProgress);
            connect(mirror, &Mirror::notice, this, &LiveMirror::notice);
            connect(mirror, &Mirror::permanentFailure, this, &LiveMirror::permanentFailure);
            connect(mirror, &Mirror::initialSynced, this, [this] {
                m_initialSyncDone = true;
                Q_EMIT initialSynced();
            });
            m_mirror = mirror;
            mirror->start();
        },
        Qt::QueuedConnection);
}

void LiveMirror::applyRetention(const store::RetentionPolicy &policy)
{
    QMetaObject::invokeMethod(
        m_storeContext,
        [this, policy] {
            if (store::Store *writer = m_store.load())
                writer->applyRetention(policy);
        },
        Qt::QueuedConnection);
}

int LiveMirror::stop(StreamState state, const QString &reason)
{
    if (m_stopped || !m_started) {
        m_stopped = true;
        return m_failures.load();
    }
    m_stopped = true;
    // Stop the mirror on its thread and take its streams' last states there; every batch it
    // handed to the writer is queued to it before what follows.
    model::WatchBatch final;
    bool ran = false;
    if (m_kubeRoot) {
        QMetaObject::invokeMethod(
            m_kubeRoot,
            [this, &final, &ran, state, &reason] {
                if (m_mirror) {
                    final = stoppedStreamsBatch(cluster(), m_mirror->streams(), state, reason);
                    m_mirror->stop();
                    ran = true;
                }
                delete m_kubeRoot; // the mirror and the client with it, on their thread
            },
            Qt::BlockingQueuedConnection);
        m_kubeRoot = nullptr;
        m_mirror = nullptr;
    }
    // The opening (if it is still under way) finishes before this runs; the flush enqueue()
    // posts runs before the second call returns.
    QMetaObject::invokeMethod(
        m_storeContext,
        [this, &final, ran] {
            if (store::Store *writer = m_store.load(); writer && ran)
                writer->enqueue(std::move(final));
        },
        Qt::BlockingQueuedConnection);
    QMetaObject::invokeMethod(
        m_storeContext, [] {}, Qt::BlockingQueuedConnection);
    return m_failures.load();
}

} // namespace dra::kube
