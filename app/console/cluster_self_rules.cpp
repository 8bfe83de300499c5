// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/cluster_self_rules.h"

#include <QPointer>

#include "app/console/cluster_thread.h"
#include "core/kube/self_rules_request.h"

namespace dra::console {

ClusterSelfRules::ClusterSelfRules(kube::ClientConfig config, QObject *parent)
    : QObject(parent)
    , m_thread(new ClusterThread(std::move(config), QStringLiteral("self-rules"), this))
{
}

void ClusterSelfRules::ask(std::vector<std::string> namespaces)
{
    QPointer<ClusterSelfRules> self(this);
    m_thread->run(
        [self, namespaces = std::move(namespaces)](kube::RestClient &client, QObject *context) {
            kube::requestSelfRules(
                client, namespaces, context, [self](Result<kube::SelfRulesAnswer> answer) {
                    inventory::SelfRules rules;
                    QString error;
                    if (answer)
                        rules = { { "User", answer->username, "" },
                            std::move(answer->rulesByNamespace) };
                    else
                        error = answer.error().message;
                    deliverTo(self, [rules = std::move(rules), error](ClusterSelfRules &asker) {
                        Q_EMIT asker.answered(rules, error);
                    });
                });
        });
}

} // namespace dra::console
