// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include "core/kube/client_config.h"

class QThread;

namespace dra::console {

// Asks the cluster for its own pool totals (kube::requestPoolStatus: a ResourcePoolStatusRequest
// created with the console's credentials, read once answered, deleted) on a thread of its own,
// so the GUI thread never waits on the cluster. One question at a time.
class ClusterPoolStatus final : public QObject
{
    Q_OBJECT
public:
    explicit ClusterPoolStatus(kube::ClientConfig config, QObject *parent = nullptr);
    ~ClusterPoolStatus() override;

    // Sends `request`; answered() follows with the request's status, or an empty status and
    // why there is none.
    void ask(nlohmann::json request);

Q_SIGNALS:
    void answered(const nlohmann::json &status, const QString &error);

private:
    kube::ClientConfig m_config;
    QThread *m_thread;
    QObject *m_root = nullptr; // lives on m_thread: owns the client
};

} // namespace dra::console
