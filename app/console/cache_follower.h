// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <QObject>
#include <QString>

#include "core/common/error.h"
#include "core/inventory/snapshot.h"
#include "core/model/object_record.h"

class QTimer;

namespace dra::store {
class CacheDb;
}

namespace dra::console {

// Reads one cluster of a cache file on its own thread: the first snapshot, then every batch
// any writer (this process's store thread, or `dractl sync` in another process) commits,
// replayed from the change log in revision order. The GUI thread never touches SQLite.
// Construct, moveToThread(), then invoke start() there.
class CacheFollower final : public QObject
{
    Q_OBJECT
public:
    // An empty `cluster` follows the only (or first) cluster the cache holds.
    CacheFollower(QString path, std::string cluster, int pollIntervalMs = 400);
    ~CacheFollower() override;

public Q_SLOTS:
    void start();

Q_SIGNALS:
    // The cluster as the cache held it when start() ran.
    void loaded(const dra::inventory::SnapshotPtr &snapshot, qint64 lastSyncMs);
    // A later change, as the writer committed it; a batch with no changes when only the
    // cluster's recorded Kubernetes version moved (serverVersion).
    void committed(const dra::model::CommittedBatch &batch);
    void failed(const dra::common::Error &error);

private:
    void poll();
    // The version the cache records for the cluster when it differs from the last one passed on.
    std::string newVersion();

    QString m_path;
    std::string m_cluster;
    int m_pollIntervalMs;
    std::unique_ptr<store::CacheDb> m_cache;
    QTimer *m_timer = nullptr;
    int64_t m_dataVersion = -1;
    int64_t m_rev = 0;
    std::string m_kubernetesVersion; // the last one passed on
};

} // namespace dra::console
