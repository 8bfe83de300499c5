// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The web console's rollout pages in the console API, answered from the state file with the
// core's rollout documents (core/rollout/rollout_status.h, the JSON `dractl rollout status -o
// json` prints):
//   GET  rollouts               every rollout, who drives it, the verbs allowed now
//   GET  rollouts/NAME          one rollout: timeline, gates with evidence, audit log with its
//                               chain verified, verbs, the hosted controller's messages
//   POST rollouts/NAME/VERB     promote, pause, resume, abort, retry-gate, reject, finalise with
//                               {"reason", "gate", "acceptInconclusive"}: queued in the state
//                               file's inbox for the controller that drives the rollout, as
//                               `dractl rollout VERB` queues it
//   POST rollouts[?reason=]     the plan (YAML) as the body: started as `dractl rollout start`
//                               starts it, when this server hosts controllers
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include "core/server/console_api.h"

namespace dra::rollout {
class RolloutHost;
}

namespace dra::server {

class HttpConnection;

namespace console {

// True for rollouts and everything under it (`path` follows /console/v1/).
bool isRolloutsPath(std::string_view path);

// GET rollouts and rollouts/NAME from the state file at `statePath` (no file: no rollouts).
// With `host`, the detail carries the messages of the controller this process hosts. Any
// thread; `dractl console-api rollouts[/NAME] --state FILE` prints the same.
Answer rolloutsAnswer(
    const QString &statePath, std::string_view path, const rollout::RolloutHost *host = nullptr);

// What a verb needs besides the request: who gives it, whether a controller of this process
// will carry it out, how long to wait for the outcome.
struct VerbContext
{
    std::string actor;
    bool hosted = false; // a RolloutHost of this process drives rollouts nobody else drives
    int waitMs = 10'000;
    std::function<void()> queued; // called once the verb is in the inbox (wakes the host)
};

// POST rollouts/NAME/VERB: refused (409) when the state machine does not allow VERB in the
// rollout's stage or when no controller would carry it out; otherwise queued for the
// controller and, when it answers within waitMs, its outcome (200, or 409 "refused: ..." as
// recorded in the audit log); still queued after that: 202. Blocks; a worker thread's.
Answer rolloutVerb(const QString &statePath, const std::string &id, const std::string &verb,
    std::string_view body, const VerbContext &context);

// The rollout part of a server's console API: the state file it answers from, and the
// controllers it hosts (optional). Thread of the server; the host lives on a thread of its
// own and must outlive this object.
class ConsoleRollouts final : public QObject
{
    Q_OBJECT
public:
    explicit ConsoleRollouts(QObject *parent = nullptr);

    // Until configured, every rollouts path answers 404.
    void configure(QString statePath, rollout::RolloutHost *host);
    void handle(Request &request, HttpConnection &connection, std::string_view path);

Q_SIGNALS:
    // The state file was written (by this process's controllers, a verb, or another process
    // such as `dractl rollout run`): pages following the "rollouts" view load it again.
    void changed();

private:
    void startFromPlan(Request &request, HttpConnection &connection);
    void checkForChanges();

    QString m_statePath;
    rollout::RolloutHost *m_host = nullptr;
    // The state file is SQLite, written by any process: its files' sizes and times, looked at
    // a few times a second, tell that it changed without opening it.
    QTimer *m_watch = nullptr;
    QString m_fingerprint;
};

} // namespace console
} // namespace dra::server
