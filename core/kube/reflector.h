// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <QObject>
#include <QPointer>

#include "core/common/error.h"
#include "core/kube/backoff.h"
#include "core/common/clock.h"
#include "core/kube/stream_status.h"
#include "core/model/object_record.h"

namespace dra::kube {

class RestClient;
class WatchStream;
struct WatchEvent;

// How often a server sends watch bookmarks, as the reflectors of one mirror have seen it.
struct BookmarkCadence
{
    int64_t longestGapMs = 0; // the longest wait for a bookmark seen; 0: none seen yet

    bool known() const { return longestGapMs > 0; }
    void observe(int64_t gapMs) { longestGapMs = std::max({ longestGapMs, gapMs, int64_t(1) }); }
};

struct ReflectorOptions
{
    std::string cluster; // the cache's name for the cluster
    int pageSize = 500; // objects per list page; 0 lists in one response
    // List by watching with sendInitialEvents (Kubernetes' streaming list) instead of paging;
    // a server that refuses it is listed page by page instead.
    bool streamingList = false;
    int watchTimeoutMinS = 300; // each watch asks for a random timeout in this range, as
    int watchTimeoutMaxS = 600; // client-go does, so many watches do not restart together
    int maxListRestarts = 3; // expired continue tokens before listing in one response
    BackoffPolicy backoff;
    // After a permanent error (see FailureClass) the stream shows it as its state and tries
    // again only this rarely (plus up to a fifth at random). Five minutes: someone fixing the
    // cause outside the console (renewing the server's certificate, installing the exec plugin,
    // having the token re-issued) sees the mirror recover on its own within minutes, without a
    // restart; until then a broken setup costs one request per stream every five minutes instead
    // of a retry loop that fills the server's audit log and, with refused credentials, can get
    // an account locked. An edited kubeconfig still needs a restart: it is resolved once.
    int64_t permanentRetryMs = 5 * 60 * 1000;
    // A watch silent (neither an event nor a bookmark) for this long, or three times the longest
    // wait for a bookmark seen, whichever is more, is suspect when the server is known to send
    // bookmarks: a watch resumed at a resourceVersion the server does not have (a restored
    // cluster) can stay open and say nothing. It is ended and the kind listed again.
    int64_t quietWatchLimitMs = 90 * 1000;
    // Shared by the reflectors of one mirror (none: each keeps its own).
    std::shared_ptr<BookmarkCadence> bookmarks;
};

// Mirrors one kind — cluster-wide, or in one namespace — into store batches: lists it (page by
// page, restarting when a continue token expires, or as a streaming list), then watches from the
// list's resourceVersion with bookmarks. A watch that ends is resumed from the last
// resourceVersion seen; 410 Gone, and a resourceVersion newer than the server's (a restored or
// recreated cluster), relist from scratch, and the relist batch replaces the kind (or namespace)
// so objects that vanished meanwhile are deleted, with the deletion logged. A watch that stays
// silent far longer than the server's bookmarks come is taken for stuck and relisted too. Errors
// back off with jitter on the injected clock. resourceVersions are opaque strings. Each state
// change is reported and carried into the cache with the batch. Thread of its client.
class Reflector final : public QObject
{
    Q_OBJECT
public:
    Reflector(RestClient &client, const model::KindInfo &kind, std::string apiVersion,
        std::string ns, ReflectorOptions options, common::Clock &clock = common::Clock::system(),
        QObject *parent = nullptr);
    ~Reflector() override;

    // Starts with a list, or — given the resourceVersion a previous run reached — with a watch
    // from there (a 410 then relists).
    void start(const std::string &resumeFrom = {});
    // Stops listing and watching; no signal follows.
    void stop();

    const StreamStatus &status() const { return m_status; }
    const model::KindInfo &kind() const { return m_kind; }
    const std::string &ns() const { return m_status.ns; }

Q_SIGNALS:
    // Changes, list versions and the stream's state for the cache's single writer.
    void batchReady(const dra::model::WatchBatch &batch);
    void statusChanged(const dra::kube::StreamStatus &status);
    // While listing: objects received so far (after each page).
    void listProgress(int objects);
    // An object the server sent that the model cannot read: reported and skipped.
    void objectRejected(const dra::common::Error &error);
    // The list or watch path is not served any more (404): discovery should run again.
    void notServed();
    // A permanent error (error.permanent): the stream is in state Error with it as the reason
    // and tries again only after permanentRetryMs. Emitted before the state changes.
    void permanentFailure(const dra::common::Error &error);

private:
    enum class Phase { Stopped, Listing, Watching, Waiting };

    void list();
    void requestPage();
    void onPage(const QByteArray &body);
    void finishList(const std::string &resourceVersion);
    void watch();
    void onWatchEvents(const std::vector<WatchEvent> &events);
    void onWatchEnded();
    void onWatchFailed(const common::Error &error);
    void onListFailed(const common::Error &error);
    // Backs off, at least `serverWaitMs` when the server asked for a wait (Retry-After), then
    // runs `again`; the stream's state says why meanwhile.
    void retryLater(StreamState state, const QString &reason, void (Reflector::*again)(),
        int64_t serverWaitMs = 0);
    // The stream cannot go on until the user acts: says so, then tries again rarely.
    void failPermanently(const common::Error &error, void (Reflector::*again)());
    void retryAfter(
        int64_t delayMs, StreamState state, const QString &reason, void (Reflector::*again)());
    void setState(StreamState state, const QString &reason = {}, bool persist = true);
    model::WatchBatch newBatch() const;
    void closeWatch();
    QString path() const;
    // How long the open watch may stay silent before it is suspect.
    int64_t quietLimitMs() const;
    void scheduleQuietCheck(int64_t delayMs);

    RestClient &m_client;
    const model::KindInfo &m_kind;
    ReflectorOptions m_options;
    common::Clock &m_clock;
    Backoff m_backoff;
    StreamStatus m_status;
    Phase m_phase = Phase::Stopped;
    uint64_t m_generation = 0; // bumps on stop/restart, so stale callbacks do nothing

    // Listing.
    std::vector<model::ObjectRecord> m_listed;
    std::string m_continue;
    int m_listRestarts = 0;
    bool m_unpaged = false;
    bool m_streamingList = false; // this list is a sendInitialEvents watch
    bool m_streamingRefused = false; // the server does not do streaming lists

    // Watching.
    QPointer<WatchStream> m_watch;
    int64_t m_watchStartedMs = 0;
    int64_t m_lastHeardMs = 0; // when the open watch last delivered anything
    uint64_t m_watchSerial = 0; // bumps with each watch, so stale quiet checks do nothing
    bool m_watchSawEvents = false;
};

} // namespace dra::kube
