// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QObject>
#include <QStringList>

#include "core/common/result.h"
#include "core/server/console_api_json.h"
#include "core/store/cache_db.h"

class QThread;

namespace dra::server::console {

// The console state of `cluster` as the cache holds it now: its snapshot, stream states and the
// release it recorded. Thread of `cache`.
[[nodiscard]] Result<ConsoleState> loadConsoleState(
    store::CacheDb &cache, const std::string &cluster, bool writable);

// The console state of the served cluster, kept current: a thread of its own reads the cache
// over its own connection (first the whole snapshot, then every change any writer commits,
// applied to the snapshot incrementally), so the server's thread never waits on it.
// Thread of the server.
class ConsoleInventory final : public QObject
{
    Q_OBJECT
public:
    ConsoleInventory(QString cachePath, std::string cluster, std::string kubernetesVersion,
        bool writable, int pollIntervalMs = 100, QObject *parent = nullptr);
    ~ConsoleInventory() override;

    // Starts reading the cache (once); the web console's first request calls it, so a server
    // that only answers kubectl never builds a snapshot.
    void start();
    // The current state; null until the first snapshot is read.
    const ConsoleState *current() const { return m_state ? &*m_state : nullptr; }
    // Runs `ready` with the current state now, or once the first one is read (or with the
    // error that kept it from being read).
    void whenReady(std::function<void(const Result<ConsoleState> &)> ready);

Q_SIGNALS:
    // A newer state: the snapshot moved to `rev`; `kinds` are those whose objects changed
    // ("ResourceSlice", "ResourceClaim", ...), empty when only stream states moved.
    void changed(qint64 rev, const QStringList &kinds);

private:
    class Follower;
    void take(Result<ConsoleState> state, const QStringList &kinds);

    QString m_path;
    std::string m_cluster, m_version;
    bool m_writable;
    int m_pollIntervalMs;
    QThread *m_thread = nullptr;
    std::optional<ConsoleState> m_state;
    std::optional<common::Error> m_error;
    std::vector<std::function<void(const Result<ConsoleState> &)>> m_waiting;
};

} // namespace dra::server::console
