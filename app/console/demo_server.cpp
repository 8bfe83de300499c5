// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/demo_server.h"

#include <QThread>

#include "core/server/api_server.h"
#include "core/server/console_api.h"
#include "core/server/console_api_rollouts.h"

namespace dra::console {

DemoServer::DemoServer(
    sandbox::EmbeddedDemoOptions options, QString rolloutStatePath, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_rolloutStatePath(std::move(rolloutStatePath))
    , m_thread(new QThread(this))
{
    qRegisterMetaType<dra::common::Error>();
    m_thread->setObjectName(QStringLiteral("demo-cluster"));
}

DemoServer::~DemoServer()
{
    if (m_root) {
        // The server's sockets, timers and cache connections belong to its thread.
        QMetaObject::invokeMethod(
            m_root, [this] { m_cluster.reset(); }, Qt::BlockingQueuedConnection);
    }
    m_thread->quit();
    m_thread->wait();
}

void DemoServer::start()
{
    m_root = new QObject;
    m_root->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_root, &QObject::deleteLater);
    m_thread->start();
    QMetaObject::invokeMethod(
        m_root,
        [this] {
            Result<std::unique_ptr<sandbox::EmbeddedDemoCluster>> created
                = sandbox::EmbeddedDemoCluster::create(m_options);
            // The console's rollout controller runs in the window (RolloutDriver); the web
            // console follows its state file as `dractl serve` follows a `dractl rollout run`.
            if (created && !m_rolloutStatePath.isEmpty())
                (*created)->api().consoleApi().rollouts().configure(m_rolloutStatePath, nullptr);
            Result<void> listening
                = created ? (*created)->listen() : Result<void>(dra::fail(created.error()));
            if (!listening) {
                QMetaObject::invokeMethod(
                    this, [this, error = listening.error()] { Q_EMIT failed(error); },
                    Qt::QueuedConnection);
                return;
            }
            m_cluster = std::move(*created);
            QMetaObject::invokeMethod(
                this, [this, client = m_cluster->clientConfig()] { Q_EMIT ready(client); },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

} // namespace dra::console
