// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/cluster_pool_status.h"

#include <QPointer>

#include "app/console/cluster_thread.h"
#include "core/kube/pool_status_request.h"

namespace dra::console {

namespace {

constexpr int kAnswerTimeoutMs = 20'000;

} // namespace

ClusterPoolStatus::ClusterPoolStatus(kube::ClientConfig config, QObject *parent)
    : QObject(parent)
    , m_thread(new ClusterThread(std::move(config), QStringLiteral("pool-status"), this))
{
}

void ClusterPoolStatus::ask(nlohmann::json request)
{
    QPointer<ClusterPoolStatus> self(this);
    m_thread->run([self, request = std::move(request)](kube::RestClient &client, QObject *context) {
        kube::requestPoolStatus(
            client, request, kAnswerTimeoutMs, context, [self](Result<nlohmann::json> status) {
                const nlohmann::json answer = status ? *status : nlohmann::json();
                const QString error = status ? QString() : status.error().message;
                deliverTo(self, [answer, error](ClusterPoolStatus &asker) {
                    Q_EMIT asker.answered(answer, error);
                });
            });
    });
}

} // namespace dra::console
