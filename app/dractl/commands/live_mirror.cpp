// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/commands/live_mirror.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include "core/kube/stopped_streams.h"

namespace dra::cli {

LiveMirror::LiveMirror(const kube::ClientConfig &config, const kube::RestOptions &restOptions,
    store::CacheDb cache, kube::MirrorOptions options)
    : m_cluster(options.cluster)
{
    store::registerStoreMetaTypes();
    m_store = new store::Store(std::move(cache));
    m_store->moveToThread(&m_storeThread);
    QObject::connect(&m_storeThread, &QThread::finished, m_store, &QObject::deleteLater);
    m_storeThread.start();

    m_client = std::make_unique<kube::RestClient>(config, restOptions);
    m_mirror = std::make_unique<kube::Mirror>(*m_client, std::move(options));
    QObject::connect(m_mirror.get(), &kube::Mirror::batchReady, m_mirror.get(),
        [this](const model::WatchBatch &batch) { handToWriter(batch); });
    // Direct: counted on the writer thread, read here while draining.
    QObject::connect(
        m_store, &store::Store::committed, m_store,
        [this](const model::CommittedBatch &) { ++m_settled; }, Qt::DirectConnection);
    QObject::connect(
        m_store, &store::Store::failed, m_store,
        [this](const common::Error &) {
            ++m_failures;
            ++m_settled;
        },
        Qt::DirectConnection);
}

LiveMirror::~LiveMirror()
{
    if (!m_stopped)
        m_mirror->stop();
    m_mirror.reset();
    m_client.reset();
    m_storeThread.quit();
    m_storeThread.wait();
}

void LiveMirror::start()
{
    m_mirror->start();
}

void LiveMirror::handToWriter(const model::WatchBatch &batch)
{
    ++m_handed;
    QMetaObject::invokeMethod(
        m_store, [store = m_store, batch] { store->enqueue(batch); }, Qt::QueuedConnection);
}

int LiveMirror::stop(kube::StreamState state, const QString &reason)
{
    const model::WatchBatch final
        = kube::stoppedStreamsBatch(m_cluster, m_mirror->streams(), state, reason);
    m_mirror->stop();
    m_stopped = true;
    handToWriter(final);
    QElapsedTimer drain;
    drain.start();
    while (m_settled.load() < m_handed && drain.elapsed() < 60 * 1000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    return m_failures.load();
}

} // namespace dra::cli
