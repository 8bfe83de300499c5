// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QObject>
#include <QString>
#include <QUrl>

#include "core/common/error.h"
#include "core/inventory/snapshot.h"
#include "core/kube/client_config.h"
#include "core/kube/stream_status.h"

class QTemporaryDir;
class QThread;

namespace dra::inventory {
class Inventory;
}
namespace dra::kube {
class LiveMirror;
}

namespace dra::console {

class CacheFollower;
class DemoServer;

// Where the console's data comes from.
struct SessionOptions
{
    enum class Mode { Demo, Cache, Live };
    Mode mode = Mode::Demo;
    kube::ClientConfig client; // Live: the kubeconfig context, resolved
    QString preset = QStringLiteral("mixed"); // Demo
    int demoNodes = 0; // Demo: the preset's default when 0
    QString cachePath; // Cache, Live: the file; Demo: empty for a temporary one
    std::string cluster; // the cluster to show; Cache: empty picks the only/first one
    // Live, Demo: the namespaces whose workloads (Deployments, ReplicaSets, DaemonSets,
    // Services, HTTPRoutes) are mirrored, "*" for all (kube::MirrorOptions::workloadNamespaces).
    // Unset: every namespace on the demo cluster, none on a live one.
    std::optional<std::vector<std::string>> workloadNamespaces;
    // The state file of the console's rollouts (dractl's, store::defaultStatePath(), when
    // empty). Demo: the demo cluster's web console follows the rollouts in it.
    QString rolloutStatePath;
    // Demo: the demo user the console signs in as ("demo-training"); empty: the admin.
    std::string demoUser;

    // What workloadNamespaces comes to for this mode.
    std::vector<std::string> mirroredWorkloadNamespaces() const;
};

// The console's data side, wired as docs/ARCHITECTURE.md's data flow goes: a live context, or the
// demo cluster served in-process on a thread of its own (DemoServer) and connected to like any
// context, is mirrored into a cache file by kube::LiveMirror; a CacheFollower on the cache thread
// reads the first snapshot and every later committed batch, and the Inventory on the GUI
// thread turns them into snapshots and change sets for the views. A cache file alone (offline)
// is only followed.
class ConsoleSession final : public QObject
{
    Q_OBJECT
public:
    explicit ConsoleSession(SessionOptions options, QObject *parent = nullptr);
    ~ConsoleSession() override;

    void start();
    // Null until loaded().
    inventory::Inventory *inventory() const { return m_inventory; }
    const SessionOptions &options() const { return m_options; }
    // "demo cluster (mixed)", "context prod (live)" or the cache file, for the title and the
    // status bar.
    QString description() const;
    QString cachePath() const { return m_cachePath; }
    // How to reach the cluster the console shows: the live context, or the demo cluster once it
    // serves (see connected()); none offline (a cache file alone) or before the demo serves.
    std::optional<kube::ClientConfig> clientConfig() const;
    // Where the cluster's web console is, when its server is one of DRA Console's (the demo
    // cluster, a `dractl serve`); empty until webConsoleFound() and for any other server.
    const QUrl &webConsole() const { return m_webConsole; }
    // When the cache last heard from its cluster (ms since the epoch; 0 unknown).
    qint64 lastSyncMs() const { return m_lastSyncMs; }

Q_SIGNALS:
    void progress(const QString &message);
    // Live, Demo: clientConfig() is set; the mirror is starting.
    void connected();
    void loaded();
    void failed(const dra::common::Error &error);
    // Live: a mirrored stream changed state (listing, watching, stale, forbidden, ...).
    void streamChanged(const dra::kube::StreamStatus &status);
    // Live, Demo: the server also serves the web console, at webConsole().
    void webConsoleFound();
    // Live: every stream has been listed once; the cache holds the whole cluster.
    void initialSynced();
    // Live: something the user should read (a credential plugin's prompt, a fallback).
    void notice(const QString &message);
    // Live: a fact about the streams that needs no action (a kind the cluster does not serve).
    void streamNote(const QString &message);

private:
    void link();
    void follow();
    void onLoaded(const inventory::SnapshotPtr &snapshot, qint64 lastSyncMs);

    SessionOptions m_options;
    QString m_cachePath;
    std::unique_ptr<QTemporaryDir> m_demoDir;
    QThread *m_cacheThread;
    CacheFollower *m_follower = nullptr;
    kube::LiveMirror *m_link = nullptr; // Live, Demo
    DemoServer *m_demoServer = nullptr; // Demo
    bool m_connected = false;
    inventory::Inventory *m_inventory = nullptr;
    qint64 m_lastSyncMs = 0;
    QUrl m_webConsole;
};

} // namespace dra::console
