// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/cluster_thread.h"

#include <QThread>

#include "core/kube/rest_client.h"

namespace dra::console {

ClusterThread::ClusterThread(kube::ClientConfig config, const QString &name, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_thread(new QThread(this))
{
    m_thread->setObjectName(name);
    m_root = new QObject;
    m_root->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_root, &QObject::deleteLater);
    m_thread->start();
}

ClusterThread::~ClusterThread()
{
    // The client goes with its root on its own thread.
    QMetaObject::invokeMethod(
        m_root, [root = m_root] { delete root; }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

void ClusterThread::run(std::function<void(kube::RestClient &client, QObject *context)> work)
{
    QMetaObject::invokeMethod(
        m_root,
        [root = m_root, config = m_config, work = std::move(work)] {
            auto *client = root->findChild<kube::RestClient *>();
            if (!client) {
                kube::RestOptions restOptions;
                restOptions.userAgent = "draconsole/" DRA_VERSION " (linux)";
                client = new kube::RestClient(config, restOptions, common::Clock::system(), root);
            }
            work(*client, root);
        },
        Qt::QueuedConnection);
}

} // namespace dra::console
