// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>

#include <QObject>

#include "core/common/error.h"
#include "core/kube/client_config.h"
#include "core/sandbox/embedded_demo_cluster.h"

class QThread;

namespace dra::console {

// Runs the demo cluster (sandbox::EmbeddedDemoCluster: seeded cache, API server, control plane)
// on a thread of its own, so seeding, SQLite and the server's sockets never hold up the GUI
// thread. ready() hands the owner a client of it, used like any kubeconfig context. The
// destructor stops the cluster on its thread and joins the thread. Owner's thread.
class DemoServer final : public QObject
{
    Q_OBJECT
public:
    // `rolloutStatePath`: the console's rollouts, which the cluster's web console follows (its
    // rollouts view and verbs); empty: the web console has no rollouts.
    DemoServer(
        sandbox::EmbeddedDemoOptions options, QString rolloutStatePath, QObject *parent = nullptr);
    ~DemoServer() override;

    // Seeds the cluster and starts serving it; ready() or failed() follows.
    void start();

Q_SIGNALS:
    void ready(const dra::kube::ClientConfig &client);
    void failed(const dra::common::Error &error);

private:
    sandbox::EmbeddedDemoOptions m_options;
    QString m_rolloutStatePath;
    QThread *m_thread;
    QObject *m_root = nullptr; // lives on m_thread
    std::unique_ptr<sandbox::EmbeddedDemoCluster> m_cluster; // made, used and destroyed on m_thread
};

} // namespace dra::console
