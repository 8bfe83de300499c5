// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/cluster_apply.h"

#include <QPointer>

#include "app/console/cluster_thread.h"

namespace dra::console {

ClusterApply::ClusterApply(kube::ClientConfig config, QObject *parent)
    : QObject(parent)
    , m_thread(new ClusterThread(std::move(config), QStringLiteral("apply"), this))
{
}

void ClusterApply::run(std::vector<model::ManifestDocument> documents, kube::ApplyOptions options)
{
    QPointer<ClusterApply> self(this);
    m_thread->run([self, documents = std::move(documents), options = std::move(options)](
                      kube::RestClient &client, QObject *context) mutable {
        kube::serverSideApply(client, std::move(documents), std::move(options), context,
            [self](std::vector<kube::ApplyOutcome> outcomes) {
                deliverTo(self, [outcomes = std::move(outcomes)](ClusterApply &apply) {
                    Q_EMIT apply.finished(outcomes);
                });
            });
    });
}

} // namespace dra::console
