// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string_view>

#include <QObject>
#include <QPointer>

#include "core/server/http_connection.h"

namespace dra::server {

class ApiServer;
class HttpServer;

// Endpoints that make `dractl serve --test-hooks` misbehave on purpose, so that clients (the
// console's own reflector above all) can be tested against the faults a real API server
// produces. Off by default and refused on non-loopback addresses. Each is a POST, authenticated
// like any API request, answered with a Status of Success before the fault takes effect.
namespace test_hooks {

inline constexpr std::string_view kPrefix = "/draconsole/test/";
// Ends every open watch cleanly (the terminating chunk), as an API server shedding watches
// does; clients resume from the last resourceVersion they saw.
inline constexpr std::string_view kDropWatches = "/draconsole/test/drop-watches";
// Forgets the history up to the current revision, as an etcd compaction does: a watch that
// resumes from an older resourceVersion gets an ERROR event 410 Expired and must relist, and
// continue tokens of older lists get 410 Expired.
inline constexpr std::string_view kCompact = "/draconsole/test/compact";
// Expires every continue token handed out so far (410 Expired on the next page).
inline constexpr std::string_view kExpireContinue = "/draconsole/test/expire-continue";
// Restarts as if the API server process restarted: every connection (watches included) is
// dropped at once, the port refuses connections for `?downMillis=N` (default 500) and then
// serves again. History and resourceVersions survive, as they do in etcd.
inline constexpr std::string_view kRestart = "/draconsole/test/restart";
// Restarts as after an etcd restore from a backup taken at revision `?revision=N` (default:
// the revision before the last change): every object goes back to its state then, the later
// history is gone and its resourceVersions are issued again, so clients holding a newer
// resourceVersion meet a server behind them. Connections drop as with kRestart. Writable
// servers only (the demo cluster, --writable).
inline constexpr std::string_view kRestore = "/draconsole/test/restore";
// Sets how long a list or watch for a resourceVersion newer than the server's waits for it
// before the 504 (`?millis=N`, default 3000 as kube-apiserver), so client tests need not wait.
inline constexpr std::string_view kTooLargeWait = "/draconsole/test/too-large-wait";

} // namespace test_hooks

// Serves the test_hooks endpoints for one ApiServer and the HttpServer in front of it.
// Thread of both.
class TestHooks final : public QObject
{
    Q_OBJECT
public:
    TestHooks(ApiServer &api, HttpServer &http, QObject *parent = nullptr);

    // Handles a request under test_hooks::kPrefix; false when the path is not a hook.
    bool handle(Request &request, HttpConnection &connection);

private:
    void restart(int downMillis);
    void restore(Request &request, HttpConnection &connection);

    ApiServer &m_api;
    QPointer<HttpServer> m_http;
};

} // namespace dra::server
