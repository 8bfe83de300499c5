// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <QObject>
#include <QString>

#include "core/inventory/device_access.h"
#include "core/kube/client_config.h"

namespace dra::console {

class ClusterThread;

// Asks the cluster what the console's user may do (kube::requestSelfRules: a SelfSubjectReview,
// then a SelfSubjectRulesReview per namespace) on a thread of its own, so the GUI thread never
// waits on the cluster: the Access page's answer when the Roles and bindings cannot be read.
class ClusterSelfRules final : public QObject
{
    Q_OBJECT
public:
    explicit ClusterSelfRules(kube::ClientConfig config, QObject *parent = nullptr);

    // Asks about `namespaces`; answered() follows.
    void ask(std::vector<std::string> namespaces);

Q_SIGNALS:
    // The user's rules, or empty ones and why there are none.
    void answered(const dra::inventory::SelfRules &rules, const QString &error);

private:
    ClusterThread *m_thread;
};

} // namespace dra::console
