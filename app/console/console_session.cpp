// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/console_session.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <QThread>

#include "app/console/cache_follower.h"
#include "app/console/demo_server.h"
#include "core/inventory/inventory.h"
#include "core/kube/live_mirror.h"
#include "core/sandbox/demo_cluster.h"
#include "core/store/cache_db.h"
#include "core/store/store.h"
#include "core/store/store_paths.h"

namespace dra::console {

std::vector<std::string> SessionOptions::mirroredWorkloadNamespaces() const
{
    if (workloadNamespaces)
        return *workloadNamespaces;
    if (mode == Mode::Demo)
        return { "*" };
    return {};
}

ConsoleSession::ConsoleSession(SessionOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_cacheThread(new QThread(this))
{
    store::registerStoreMetaTypes();
    inventory::registerInventoryMetaTypes();
    qRegisterMetaType<dra::common::Error>();
    m_cacheThread->setObjectName(QStringLiteral("cache"));
    if (m_options.rolloutStatePath.isEmpty())
        m_options.rolloutStatePath = store::defaultStatePath().value_or(QString());
}

ConsoleSession::~ConsoleSession()
{
    // The mirror lets go of the server before the demo cluster stops, and both before the
    // follower's thread ends; the temporary folder goes last, with the members. The cache says
    // that nobody follows the cluster any more, so the next offline look says so.
    if (m_link)
        m_link->stop(kube::StreamState::Stale,
            QStringLiteral("the console disconnected at %1")
                .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate)));
    delete m_link;
    m_link = nullptr;
    delete m_demoServer;
    m_demoServer = nullptr;
    m_cacheThread->quit();
    m_cacheThread->wait();
}

QString ConsoleSession::description() const
{
    if (m_options.mode == SessionOptions::Mode::Demo)
        return QStringLiteral("demo cluster (%1)").arg(m_options.preset);
    if (m_options.mode == SessionOptions::Mode::Live)
        return QStringLiteral("context %1 (live)").arg(m_options.client.context);
    return m_cachePath;
}

std::optional<kube::ClientConfig> ConsoleSession::clientConfig() const
{
    if (!m_connected)
        return std::nullopt;
    return m_options.client;
}

void ConsoleSession::start()
{
    m_cachePath = m_options.cachePath;
    if (m_options.mode == SessionOptions::Mode::Live) {
        link();
        return;
    }
    if (m_options.mode == SessionOptions::Mode::Cache) {
        follow();
        return;
    }
    if (m_cachePath.isEmpty()) {
        m_demoDir = std::make_unique<QTemporaryDir>();
        if (!m_demoDir->isValid()) {
            Q_EMIT failed({ common::Error::Code::Internal,
                QStringLiteral("cannot create a temporary folder for the demo cluster: %1")
                    .arg(m_demoDir->errorString()) });
            return;
        }
        m_cachePath = m_demoDir->filePath(QStringLiteral("demo-cache.db"));
    }
    // The demo cluster is a real API server in this process; the console mirrors it exactly as
    // it mirrors a live context, so applying, rollouts and watches work the same on both.
    sandbox::EmbeddedDemoOptions demo;
    demo.preset = sandbox::PresetOptions { m_options.preset.toStdString(), m_options.demoNodes, 1 };
    demo.cluster = std::string(sandbox::kDemoCluster);
    demo.defaultNamespace = true; // the editor's starter template applies as it is
    demo.contextNamespace = "default";
    demo.signInAs = m_options.demoUser;
    m_demoServer = new DemoServer(std::move(demo), m_options.rolloutStatePath, this);
    connect(m_demoServer, &DemoServer::failed, this, &ConsoleSession::failed);
    connect(m_demoServer, &DemoServer::ready, this, [this](const kube::ClientConfig &client) {
        m_options.client = client;
        link();
    });
    Q_EMIT progress(QStringLiteral("Starting the %1 demo cluster…").arg(m_options.preset));
    m_demoServer->start();
}

// The live path: the mirror writes the cache; the console follows the cache, starting from what
// an earlier session left in it.
void ConsoleSession::link()
{
    if (m_options.cluster.empty())
        m_options.cluster = m_options.client.context.toStdString();
    m_connected = true;
    Q_EMIT connected();
    kube::LiveMirrorOptions options;
    options.client = m_options.client;
    options.cachePath = m_cachePath;
    options.mirror.cluster = m_options.cluster;
    options.mirror.workloadNamespaces = m_options.mirroredWorkloadNamespaces();
    options.rest.userAgent = "draconsole/" DRA_VERSION " (linux)";
    // A credential plugin has no terminal here: what it asks of the user (open a URL, touch a
    // key) reaches the window instead of hanging on a prompt nobody sees.
    options.rest.exec.terminalAvailable = false;
    options.rest.exec.onMessage = [this](const QString &line) {
        Q_EMIT notice(QStringLiteral("credential plugin: ") + line);
    };
    m_link = new kube::LiveMirror(std::move(options), this);
    connect(m_link, &kube::LiveMirror::cacheReady, this, &ConsoleSession::follow);
    connect(m_link, &kube::LiveMirror::streamChanged, this, &ConsoleSession::streamChanged);
    // A kind the cluster does not serve is how that cluster is, not an alert.
    connect(m_link, &kube::LiveMirror::notice, this, [this](const common::Error &error) {
        if (error.code == common::Error::Code::NotFound)
            Q_EMIT streamNote(error.message);
        else
            Q_EMIT notice(error.message);
    });
    connect(m_link, &kube::LiveMirror::initialSynced, this, &ConsoleSession::initialSynced);
    connect(m_link, &kube::LiveMirror::webConsoleFound, this, [this](const QUrl &console) {
        m_webConsole = console;
        Q_EMIT webConsoleFound();
    });
    connect(m_link, &kube::LiveMirror::failed, this, &ConsoleSession::failed);
    connect(m_link, &kube::LiveMirror::writeFailed, this, &ConsoleSession::failed);
    connect(
        m_link, &kube::LiveMirror::discovered, this, [this](const kube::ApiDiscovery &discovery) {
            Q_EMIT progress(QStringLiteral("Connected to %1: Kubernetes %2, resource.k8s.io %3")
                                .arg(m_options.client.describe(), discovery.gitVersion,
                                    discovery.resourceVersions.isEmpty()
                                        ? QStringLiteral("not served")
                                        : discovery.resourceVersions.join(QStringLiteral(", "))));
        });
    Q_EMIT progress(QStringLiteral("Connecting to %1…").arg(m_options.client.describe()));
    m_link->start();
}

void ConsoleSession::follow()
{
    Q_EMIT progress(QStringLiteral("Reading %1…").arg(description()));
    m_follower = new CacheFollower(m_cachePath, m_options.cluster);
    m_follower->moveToThread(m_cacheThread);
    connect(m_cacheThread, &QThread::finished, m_follower, &QObject::deleteLater);
    connect(m_follower, &CacheFollower::loaded, this, &ConsoleSession::onLoaded);
    connect(m_follower, &CacheFollower::failed, this, &ConsoleSession::failed);
    m_cacheThread->start();
    QMetaObject::invokeMethod(m_follower, &CacheFollower::start, Qt::QueuedConnection);
}

void ConsoleSession::onLoaded(const inventory::SnapshotPtr &snapshot, qint64 lastSyncMs)
{
    m_lastSyncMs = lastSyncMs;
    m_options.cluster = snapshot->cluster();
    m_inventory = new inventory::Inventory(snapshot, this);
    connect(m_follower, &CacheFollower::committed, m_inventory, &inventory::Inventory::apply);
    Q_EMIT loaded();
}

} // namespace dra::console
