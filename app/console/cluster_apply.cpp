// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/cluster_apply.h"

#include <QPointer>
#include <QThread>

#include "core/kube/rest_client.h"

namespace dra::console {

ClusterApply::ClusterApply(kube::ClientConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_thread(new QThread(this))
{
    m_thread->setObjectName(QStringLiteral("apply"));
    m_root = new QObject;
    m_root->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_root, &QObject::deleteLater);
    m_thread->start();
}

ClusterApply::~ClusterApply()
{
    // The client goes with its root on its own thread; a run still going ends unanswered.
    QMetaObject::invokeMethod(
        m_root, [root = m_root] { delete root; }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

void ClusterApply::run(std::vector<model::ManifestDocument> documents, kube::ApplyOptions options)
{
    QPointer<ClusterApply> self(this);
    QMetaObject::invokeMethod(
        m_root,
        [self, root = m_root, config = m_config, documents = std::move(documents),
            options = std::move(options)]() mutable {
            auto *client = root->findChild<kube::RestClient *>();
            if (!client) {
                kube::RestOptions restOptions;
                restOptions.userAgent = "draconsole/" DRA_VERSION " (linux)";
                client = new kube::RestClient(config, restOptions, common::Clock::system(), root);
            }
            kube::serverSideApply(*client, std::move(documents), std::move(options), root,
                [self](std::vector<kube::ApplyOutcome> outcomes) {
                    // Back to the owner's thread; nothing is delivered once it is gone.
                    QMetaObject::invokeMethod(
                        self.data(),
                        [self, outcomes = std::move(outcomes)] {
                            if (self)
                                Q_EMIT self->finished(outcomes);
                        },
                        Qt::QueuedConnection);
                });
        },
        Qt::QueuedConnection);
}

} // namespace dra::console
