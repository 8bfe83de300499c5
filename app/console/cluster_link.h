// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <QObject>
#include <QString>

#include "core/common/error.h"
#include "core/kube/client_config.h"
#include "core/kube/resume_points.h"
#include "core/kube/stream_status.h"

class QThread;

namespace dra::store {
class Store;
}
namespace dra::kube {
class Mirror;
}

namespace dra::console {

// Mirrors one kubeconfig context into the cache file, off the GUI thread: the cache's single
// writer (store::Store) on one thread, the REST client and kube::Mirror on another. The console
// follows the file as for any cache, so what it shows is always what the cache holds. When the
// link goes, every stream it followed is recorded as stale, so the next offline look says so.
class ClusterLink final : public QObject
{
    Q_OBJECT
public:
    // `workloadNamespaces`: where Deployments, ReplicaSets, DaemonSets, Services and HTTPRoutes
    // are mirrored ("*" for all; empty: nowhere), as kube::MirrorOptions says.
    ClusterLink(kube::ClientConfig config, QString cachePath, std::string cluster,
        std::vector<std::string> workloadNamespaces = {}, QObject *parent = nullptr);
    ~ClusterLink() override;

    void start();

Q_SIGNALS:
    // The writer holds the cache file (created if it was missing): it can be followed now.
    void cacheReady();
    void discovered(const QString &gitVersion, const QStringList &resourceVersions);
    void streamChanged(const dra::kube::StreamStatus &status);
    void initialSynced();
    // Something the user should read: a credential plugin's prompt, a namespace fallback.
    void notice(const QString &message);
    void failed(const dra::common::Error &error);

private:
    void startMirror(const kube::ResumePoints &resumeFrom);

    kube::ClientConfig m_config;
    QString m_cachePath;
    std::string m_cluster;
    std::vector<std::string> m_workloadNamespaces;
    QThread *m_storeThread;
    QThread *m_kubeThread;
    store::Store *m_store = nullptr; // lives on m_storeThread
    QObject *m_kubeRoot = nullptr; // lives on m_kubeThread: owns the client and the mirror
    kube::Mirror *m_mirror = nullptr; // child of m_kubeRoot
};

} // namespace dra::console
