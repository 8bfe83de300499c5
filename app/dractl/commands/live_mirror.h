// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <utility>

#include <QString>
#include <QThread>

#include "core/kube/client_config.h"
#include "core/kube/mirror.h"
#include "core/kube/resume_points.h"
#include "core/kube/rest_client.h"
#include "core/store/cache_db.h"
#include "core/store/store.h"

namespace dra::cli {

// A kube::Mirror feeding the cache's single writer (store::Store, on a thread of its own): what
// `dractl sync` and `dractl serve --context` run. Network and parsing happen on the thread that
// creates it, which must run an event loop.
class LiveMirror final
{
public:
    LiveMirror(const kube::ClientConfig &config, const kube::RestOptions &restOptions,
        store::CacheDb cache, kube::MirrorOptions options);
    ~LiveMirror();
    LiveMirror(const LiveMirror &) = delete;
    LiveMirror &operator=(const LiveMirror &) = delete;

    kube::Mirror &mirror() { return *m_mirror; }
    kube::RestClient &client() { return *m_client; }
    // Lives on the writer thread: connect to its signals; call it only through queued calls.
    store::Store &store() { return *m_store; }
    const std::string &cluster() const { return m_cluster; }

    void start();
    // Stops following the cluster, records in the cache how current it is from now on (every
    // stream that was not forbidden or failing gets `state` and `reason`), and waits until
    // every batch handed to the writer is committed. Returns the number of failed commits.
    int stop(kube::StreamState state, const QString &reason);
    int failures() const { return m_failures.load(); }

private:
    void handToWriter(const model::WatchBatch &batch);

    std::string m_cluster;
    QThread m_storeThread;
    store::Store *m_store = nullptr; // deleted on its thread when that ends
    std::unique_ptr<kube::RestClient> m_client;
    std::unique_ptr<kube::Mirror> m_mirror;
    int m_handed = 0;
    std::atomic<int> m_settled { 0 };
    std::atomic<int> m_failures { 0 };
    bool m_stopped = false;
};

} // namespace dra::cli
