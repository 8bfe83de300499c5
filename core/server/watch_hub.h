// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <QObject>
#include <QPointer>
#include <QTimer>

#include "core/server/http_connection.h"
#include "core/server/object_source.h"
#include "core/server/resource_controller.h"

namespace dra::server {

class Watcher;

// A `?watch=true` request's parameters, checked.
struct WatchRequest
{
    ListOptions options;
    int64_t timeoutSeconds = 0; // 0: until the client leaves
    bool bookmarks = false; // allowWatchBookmarks
    bool initialEvents = false; // sendInitialEvents
    std::optional<int64_t> from; // resourceVersion to resume after; none: "" or "0"
};

// Checks a watch request's query; the error's message is the 400 Status message.
[[nodiscard]] Result<WatchRequest> parseWatchRequest(const Request &request);

// Serves watches from the cache's change log. It polls the cache's dataVersion (so commits by
// another process, e.g. `dractl import` or a reflector, reach watchers) and fans every new
// change out to every watcher, in revision order, once. Thread of its ObjectSource.
class WatchHub final : public QObject
{
    Q_OBJECT
public:
    explicit WatchHub(ObjectSource &source, int pollIntervalMs = 100, QObject *parent = nullptr);

    // Answers a `?watch=true` request: validates its parameters (400 Status on error), then
    // streams events on `connection` until timeoutSeconds, the client leaves, or it falls behind.
    // `apiVersion` is the version events are served in.
    void serve(Request &request, HttpConnection &connection, const model::KindInfo &kind,
        const std::string &ns, const std::string &apiVersion);
    // Streams a checked watch to `sink` (a chunked response, a WebSocket).
    void start(EventSink *sink, WatchRequest watch, const model::KindInfo &kind,
        const std::string &ns, const std::string &apiVersion);

    // Reads new changes now instead of at the next poll (tests, and writers in this process).
    void poll();
    int watcherCount() const { return int(m_watchers.size()); }
    // How often an idle watch with allowWatchBookmarks gets a BOOKMARK.
    void setBookmarkIntervalMs(int ms) { m_bookmarkIntervalMs = ms; }
    // Ends every open watch cleanly (the terminating chunk), as a server shedding watches does;
    // clients resume from the last resourceVersion they saw.
    void finishAll();
    // Forgets the history up to `rev`: a watch that resumes from an older resourceVersion gets
    // 410 Expired, as after an etcd compaction. The change log itself is left alone.
    void compactTo(int64_t rev) { m_compactedRev = std::max(m_compactedRev, rev); }
    int64_t compactedRev() const { return m_compactedRev; }
    // The newest revision of the cache.
    [[nodiscard]] Result<int64_t> currentRevision() { return m_source.cache().currentRev(); }
    // Calls `then` with the cache's revision once it has reached `rev`, or with the revision it
    // is still at after waiting tooLargeWaitMs() for it, as kube-apiserver's watch cache waits
    // for a resourceVersion newer than its own (then the request fails with 504); at once when
    // the revision is there already. Not called once `context` is gone.
    void whenRevisionReached(
        int64_t rev, QObject *context, std::function<void(int64_t current)> then);
    // How long whenRevisionReached() waits (kube-apiserver: 3 s).
    void setTooLargeWaitMs(int ms) { m_tooLargeWaitMs = std::max(0, ms); }
    int tooLargeWaitMs() const { return m_tooLargeWaitMs; }
    // Starts over at revision `rev` with the watches ended, as after an etcd restore brought
    // the cache back to it: later revisions are issued again and fanned out anew.
    void rewindTo(int64_t rev);

private:
    friend class Watcher;
    void remove(Watcher *watcher);
    // Answers a checked watch on `connection` with a chunked stream of its events.
    void openStream(HttpConnection &connection, WatchRequest watch, const model::KindInfo &kind,
        const std::string &ns, const std::string &apiVersion);

    ObjectSource &m_source;
    QTimer m_timer;
    int64_t m_dataVersion = -1;
    int64_t m_rev = 0; // every change up to this revision has been fanned out
    int64_t m_compactedRev = 0; // watches may not resume from before this revision
    int m_bookmarkIntervalMs = 30 * 1000;
    int m_tooLargeWaitMs = 3000;
    std::vector<Watcher *> m_watchers;
};

// One open watch stream: filters changes for its kind, namespace and selectors and writes
// them as one compact JSON (or Table) event per line. Child of its EventSink.
class Watcher final : public QObject
{
    Q_OBJECT
public:
    Watcher(WatchHub &hub, EventSink *stream, const model::KindInfo &kind, std::string ns,
        std::string apiVersion, ListOptions options, bool bookmarks);
    ~Watcher() override;

    // Whether a change of `key` at `rev` is new to this watcher and inside its kind and namespace.
    bool wants(int64_t rev, const common::ObjectKey &key) const;
    const std::string &apiVersion() const { return m_apiVersion; }
    // Sends a change (already decoded once by the hub) if its object passes the selectors.
    void deliver(const store::LoggedChange &change, const ServedObject &item);
    // Sends ADDED for `item` (initial state).
    void sendInitial(const ServedObject &item);
    // Records whether `item` is inside the selectors without sending it (state at the start).
    void knowState(const ServedObject &item);
    void sendBookmark(bool initialEventsEnd = false);
    void sendError(int code, std::string_view reason, const std::string &message);
    void setRev(int64_t rev) { m_rev = rev; }
    int64_t rev() const { return m_rev; }
    void finish();

private:
    void send(std::string_view type, const ServedObject &item);
    void write(const nlohmann::json &event);
    // Writes one event already encoded as a line of compact JSON ending in "\n".
    void writeLine(std::string_view line);

    QPointer<WatchHub> m_hub;
    QPointer<EventSink> m_stream;
    const model::KindInfo &m_kind;
    std::string m_ns;
    std::string m_apiVersion;
    ListOptions m_options;
    bool m_bookmarks;
    bool m_columnsSent = false;
    // With a label selector: objects whose membership is known, and those inside it, so an
    // object that enters or leaves the selector is sent as ADDED or DELETED.
    std::set<std::pair<std::string, std::string>> m_known, m_visible;
    int64_t m_rev = 0;
    QTimer m_bookmarkTimer;
};

} // namespace dra::server
