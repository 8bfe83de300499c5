// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include "core/kube/client_config.h"

namespace dra::console {

class ClusterThread;

// Asks the cluster for its own pool totals (kube::requestPoolStatus: a ResourcePoolStatusRequest
// created with the console's credentials, read once answered, deleted) on a thread of its own,
// so the GUI thread never waits on the cluster. One question at a time.
class ClusterPoolStatus final : public QObject
{
    Q_OBJECT
public:
    explicit ClusterPoolStatus(kube::ClientConfig config, QObject *parent = nullptr);

    // Sends `request`; answered() follows with the request's status, or an empty status and
    // why there is none.
    void ask(nlohmann::json request);

Q_SIGNALS:
    void answered(const nlohmann::json &status, const QString &error);

private:
    ClusterThread *m_thread;
};

} // namespace dra::console
