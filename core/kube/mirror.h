// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <QObject>
#include <QString>

#include "core/common/error.h"
#include "core/common/clock.h"
#include "core/kube/cluster_identity.h"
#include "core/kube/discovery.h"
#include "core/kube/reflector.h"
#include "core/kube/stream_status.h"
#include "core/model/object_record.h"

namespace dra::kube {

class RestClient;

// Where a stream got to in an earlier run, as the cache recorded it.
struct ResumePoint
{
    std::string apiVersion;
    std::string resourceVersion;
};

struct MirrorOptions
{
    std::string cluster; // the cache's name for the cluster (usually the context)
    std::vector<model::Kind> kinds; // empty: every kind the model knows
    // Namespaces to try, besides those the user can list and the context's, when a namespaced
    // kind may not be listed cluster-wide.
    std::vector<std::string> namespaces;
    // Where the rollout's kinds (Deployments, ReplicaSets, DaemonSets, Services, HTTPRoutes) are
    // mirrored: one stream per namespace listed, "*" for every namespace. Empty: they are not
    // mirrored unless `kinds` names them, which mirrors them cluster-wide.
    std::vector<std::string> workloadNamespaces;
    ReflectorOptions reflector; // its `cluster` is set from `cluster`
    // Where each stream (kind, namespace) got to in an earlier run: resumed with a watch instead
    // of a full list when the cluster still serves that version; an expired one relists.
    std::map<std::pair<model::Kind, std::string>, ResumePoint> resumeFrom;
    int maxFallbackNamespaces = 200;
    // The cluster the cache recorded under `cluster` (ClusterInfo uid and server). When the
    // context now reaches another one, the mirror says so and starts afresh: nothing is resumed,
    // the cached objects are replaced and the earlier change log is kept apart.
    ClusterIdentity recordedIdentity;
    // The longest wait between bookmarks the cache recorded for the cluster's server
    // (ClusterInfo::bookmarkGapMs): known from the start, a silent watch is suspect at once.
    int64_t recordedBookmarkGapMs = 0;
};

// "ml-team, inference" -> {"ml-team", "inference"}: a comma-separated namespace list as
// --workload-namespaces takes it ("*" for all), blanks trimmed and empty items dropped.
std::vector<std::string> parseNamespaceList(const QString &text);

// The live mirror of one cluster: discovery, then one Reflector per kind (and per namespace
// where the user may not list a kind cluster-wide), all feeding one stream of batches for the
// cache's single writer. Re-runs discovery when a kind's path disappears or the connection comes
// back, so an upgraded cluster is read in its new API version without a restart. LiveMirror
// wires it to a cache file for `dractl sync`, `dractl serve --context` and the desktop console.
// Thread of its client.
class Mirror final : public QObject
{
    Q_OBJECT
public:
    Mirror(RestClient &client, MirrorOptions options,
        common::Clock &clock = common::Clock::system(), QObject *parent = nullptr);
    ~Mirror() override;

    void start();
    void stop();

    // Every stream's current state (cluster-wide ones first, then per namespace).
    std::vector<StreamStatus> streams() const;
    const ApiDiscovery &discovery() const { return m_discovery; }
    // Whether every stream has been listed once (or found forbidden or not served).
    bool initialSyncDone() const { return m_initialSyncDone; }

Q_SIGNALS:
    // For store::Store::enqueue (queued across threads).
    void batchReady(const dra::model::WatchBatch &batch);
    void discovered(const dra::kube::ApiDiscovery &discovery);
    void streamChanged(const dra::kube::StreamStatus &status);
    // While a stream lists: its status with the object count so far.
    void listProgress(const dra::kube::StreamStatus &status);
    // Every stream has been listed once; emitted once per start().
    void initialSynced();
    // Something the user should know that stops no stream: discovery failing (retried), kinds
    // the cluster does not serve, objects the model cannot read, namespaces that stay invisible.
    void notice(const dra::common::Error &error);
    // The cluster cannot be mirrored until the user acts (error.permanent: the server's
    // certificate does not verify, credentials cannot be had or are refused). The streams
    // concerned — every wanted one when discovery itself fails — show it as state Error with it
    // as the reason, and try again only every ReflectorOptions::permanentRetryMs. `dractl sync
    // --once` ends on it, as kubectl would.
    void permanentFailure(const dra::common::Error &error);

private:
    using StreamKey = std::pair<model::Kind, std::string>;

    void runDiscovery();
    void retryDiscovery(const common::Error &error);
    // Discovery failed permanently: every wanted stream shows why, and it runs again rarely.
    void blockOnDiscovery(const common::Error &error);
    // Reads which cluster the context reaches now, then goes on with onDiscovered().
    void checkIdentity(const ApiDiscovery &discovery);
    // `archive`: the context reaches another cluster; the earlier one's history goes there.
    void onDiscovered(const ApiDiscovery &discovery, const std::string &archive = {});
    // Forgets every stream and where it got to, for a cluster that is not the one they followed.
    void forgetStreams();
    Reflector *addReflector(const model::KindInfo &kind, const std::string &ns);
    void onStatus(const StreamStatus &status);
    void onBatch(const model::WatchBatch &batch);
    void fallBackToNamespaces(model::Kind kind);
    // The namespaces a kind is streamed in by choice (workload kinds), or empty for one
    // cluster-wide stream.
    std::vector<std::string> chosenNamespaces(model::Kind kind) const;
    void startNamespaceFallbacks();
    void checkInitialSync();
    void scheduleRediscovery();
    std::vector<model::Kind> wantedKinds() const;

    RestClient &m_client;
    MirrorOptions m_options;
    common::Clock &m_clock;
    Backoff m_discoveryBackoff;
    ApiDiscovery m_discovery;
    bool m_discoveredOnce = false;
    bool m_running = false;
    bool m_rediscoveryQueued = false;
    uint64_t m_generation = 0;
    std::map<StreamKey, std::unique_ptr<Reflector>> m_reflectors;
    std::set<StreamKey> m_listedOnce;
    std::set<StreamKey> m_wasStale; // streams that lost the server: re-check discovery on return
    bool m_initialSyncDone = false;
    ClusterIdentity m_identity; // of the cluster the streams follow, as far as known
    std::shared_ptr<BookmarkCadence> m_bookmarks; // shared by the reflectors
    int64_t m_recordedBookmarkGapMs = 0;
    std::set<std::string> m_namespaces; // seen through the Namespace stream
    std::set<model::Kind> m_fallbackPending; // waiting for the Namespace stream to be listed
    std::set<model::Kind> m_inFallback;
    std::map<model::Kind, StreamStatus> m_forbidden; // cluster-wide streams replaced by namespaces
    // Streams that could not start: discovery failed permanently, the reason is in each.
    std::map<model::Kind, StreamStatus> m_blocked;
};

} // namespace dra::kube
