// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/cluster_pool_status.h"

#include <QPointer>
#include <QThread>

#include "core/kube/pool_status_request.h"
#include "core/kube/rest_client.h"

namespace dra::console {

namespace {

constexpr int kAnswerTimeoutMs = 20'000;

} // namespace

ClusterPoolStatus::ClusterPoolStatus(kube::ClientConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_thread(new QThread(this))
{
    m_thread->setObjectName(QStringLiteral("pool-status"));
    m_root = new QObject;
    m_root->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_root, &QObject::deleteLater);
    m_thread->start();
}

ClusterPoolStatus::~ClusterPoolStatus()
{
    // The client goes with its root on its own thread; a question still open ends unanswered.
    QMetaObject::invokeMethod(
        m_root, [root = m_root] { delete root; }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

void ClusterPoolStatus::ask(nlohmann::json request)
{
    QPointer<ClusterPoolStatus> self(this);
    QMetaObject::invokeMethod(
        m_root,
        [self, root = m_root, config = m_config, request = std::move(request)]() {
            auto *client = root->findChild<kube::RestClient *>();
            if (!client) {
                kube::RestOptions restOptions;
                restOptions.userAgent = "draconsole/" DRA_VERSION " (linux)";
                client = new kube::RestClient(config, restOptions, common::Clock::system(), root);
            }
            kube::requestPoolStatus(
                *client, request, kAnswerTimeoutMs, root, [self](Result<nlohmann::json> status) {
                    const nlohmann::json answer = status ? *status : nlohmann::json();
                    const QString error = status ? QString() : status.error().message;
                    // Back to the owner's thread; nothing is delivered once it is gone.
                    QMetaObject::invokeMethod(
                        self.data(),
                        [self, answer, error] {
                            if (self)
                                Q_EMIT self->answered(answer, error);
                        },
                        Qt::QueuedConnection);
                });
        },
        Qt::QueuedConnection);
}

} // namespace dra::console
