// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <atomic>
#include <string>

#include <QObject>
#include <QString>
#include <QUrl>

#include "core/common/error.h"
#include "core/kube/client_config.h"
#include "core/kube/discovery.h"
#include "core/kube/mirror.h"
#include "core/kube/rest_client.h"
#include "core/kube/resume_points.h"
#include "core/kube/stream_status.h"
#include "core/model/object_record.h"
#include "core/store/cache_db.h"

class QThread;

namespace dra::store {
class Store;
}

namespace dra::kube {

// What a LiveMirror mirrors, and into which cache file.
struct LiveMirrorOptions
{
    ClientConfig client; // the kubeconfig context, resolved
    RestOptions rest; // user agent, how credential plugins reach the user
    QString cachePath; // created, with its folder, when missing
    // `cluster` names the cluster in the cache; resumeFrom and what the cache recorded of the
    // cluster are filled in from the cache.
    MirrorOptions mirror;
    // Resume each stream where the cache says an earlier run got to, instead of listing again.
    bool resume = true;
};

// One cluster mirrored live into a cache file: the cache's single writer (store::Store) on a
// thread of its own, the REST client and kube::Mirror on another, started from where the cache
// says an earlier run got to, unless the context now reaches another cluster than the one the
// cache recorded. What `dractl sync`, `dractl serve --context` and the desktop
// console run, so all three follow a cluster the same way. Nothing here waits on the network
// or on the file except stop(), which waits for the writer. Signals arrive on the thread that
// created the LiveMirror (it must run an event loop); create it and call it on that thread only.
class LiveMirror final : public QObject
{
    Q_OBJECT
public:
    explicit LiveMirror(LiveMirrorOptions options, QObject *parent = nullptr);
    // Stops as stop(Stale, ...) would if stop() was not called.
    ~LiveMirror() override;
    LiveMirror(const LiveMirror &) = delete;
    LiveMirror &operator=(const LiveMirror &) = delete;

    // Opens (or creates) the cache on the writer's thread, then starts mirroring: cacheReady(),
    // or failed() when the file cannot be opened (then nothing runs).
    void start();
    // Stops following the cluster, records in the cache how current it is from now on (every
    // stream that was not forbidden or failing gets `state` and `reason`), and returns once
    // every batch handed to the writer is committed, with the number of batches that failed.
    int stop(StreamState state, const QString &reason);

    const std::string &cluster() const { return m_options.mirror.cluster; }
    const QString &cachePath() const { return m_options.cachePath; }
    // What the last discovery found (empty before discovered()).
    const ApiDiscovery &discovery() const { return m_discovery; }
    // Whether every stream has been listed once since start().
    bool initialSyncDone() const { return m_initialSyncDone; }
    // Batches the writer could not store so far.
    int failures() const { return m_failures.load(); }
    // Trims the cache's change log to `policy` after the batches already handed to the writer;
    // retentionApplied() or writeFailed() tells the outcome.
    void applyRetention(const store::RetentionPolicy &policy);

Q_SIGNALS:
    // The writer holds the cache file: readers can follow it now.
    void cacheReady();
    // The cache file cannot be opened; nothing is mirrored.
    void failed(const dra::common::Error &error);
    void discovered(const dra::kube::ApiDiscovery &discovery);
    // The server also serves DRA Console's web console at `console` (it is a `dractl serve` or a
    // desktop's demo cluster); asked once, after the first discovery (kube::probeWebConsole).
    void webConsoleFound(const QUrl &console);
    void streamChanged(const dra::kube::StreamStatus &status);
    // While a stream lists: its status with the object count so far.
    void listProgress(const dra::kube::StreamStatus &status);
    // Every stream has been listed once (or found forbidden or not served).
    void initialSynced();
    // Something the user should read that stops no stream (kube::Mirror::notice).
    void notice(const dra::common::Error &error);
    // The cluster cannot be mirrored until the user acts (kube::Mirror::permanentFailure); the
    // streams concerned show it as their state and reason, and retry rarely.
    void permanentFailure(const dra::common::Error &error);
    // A Warning header the server sent.
    void warning(const QString &warning);
    // A batch is in the cache, with its revisions.
    void committed(const dra::model::CommittedBatch &batch);
    // A batch could not be stored; none of it is in the cache.
    void writeFailed(const dra::common::Error &error);
    void retentionApplied(const dra::store::RetentionSummary &summary);

private:
    // `mirror`: the options with what the cache says (resume points, the recorded cluster).
    void onCacheOpened(const MirrorOptions &mirror);
    void startMirror(const MirrorOptions &mirror);

    LiveMirrorOptions m_options;
    QThread *m_storeThread;
    QThread *m_kubeThread;
    QObject *m_storeContext; // lives on m_storeThread: where calls to the writer run
    // Set on m_storeThread once the cache is open; lives there, deleted when the thread ends.
    std::atomic<store::Store *> m_store { nullptr };
    QObject *m_kubeRoot = nullptr; // lives on m_kubeThread: owns the client and the mirror
    Mirror *m_mirror = nullptr; // child of m_kubeRoot; touched on m_kubeThread only
    ApiDiscovery m_discovery;
    bool m_initialSyncDone = false;
    bool m_started = false;
    bool m_stopped = false;
    std::atomic<int> m_failures { 0 };
};

} // namespace dra::kube
