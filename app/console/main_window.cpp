// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/main_window.h"

#include <iterator>
#include <utility>

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMutex>
#include <QProcess>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "app/console/apply_dialog.h"
#include "app/console/cluster_pool_status.h"
#include "app/console/cluster_self_rules.h"
#include "app/console/console_session.h"
#include "app/console/rollout_driver.h"
#include "app/console/stream_status_button.h"
#include "app/console/web_console_button.h"
#include "core/alloc/migration_plan.h"
#include "core/alloc/simulation_cluster.h"
#include "core/inventory/free_capacity.h"
#include "core/inventory/inventory.h"
#include "core/inventory/lint.h"
#include "core/inventory/overview.h"
#include "core/inventory/readiness.h"
#include "core/inventory/snapshot_builder.h"
#include "core/common/clock.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/stream_summary.h"
#include "core/sandbox/presets.h"
#include "core/store/cache_db.h"
#include "views/claims/claim_browser.h"
#include "views/common/command_palette.h"
#include "views/common/navigation_delegate.h"
#include "views/common/page_icons.h"
#include "views/common/table_layout.h"
#include "views/common/theme.h"
#include "views/editor/template_editor.h"
#include "views/inventory/access_view.h"
#include "views/inventory/device_browser.h"
#include "views/inventory/findings_model.h"
#include "views/inventory/migration_view.h"
#include "views/inventory/node_overview.h"
#include "views/inventory/pool_status_view.h"
#include "views/inventory/node_tile_model.h"
#include "views/inventory/overview_summary.h"
#include "views/inventory/readiness_view.h"
#include "views/rollout/rollout_panel.h"
#include "views/topology/topology_panel.h"
#include "views/topology/topology_view.h"

namespace dra::console {
namespace {

// The example plans (resources/rollouts): installed beside the executable, or the source tree's
// when run from a build folder.
QString rolloutPlanDirectory()
{
    const QDir app(QCoreApplication::applicationDirPath());
    for (const QString &candidate : { app.filePath(QStringLiteral("../share/draconsole/rollouts")),
             app.filePath(QStringLiteral("../../../resources/rollouts")),
             QDir::current().filePath(QStringLiteral("resources/rollouts")) })
        if (QDir(candidate).exists())
            return QDir(candidate).canonicalPath();
    return QDir::homePath();
}

// The cluster the rollout controller acts on: the live context's connection.
// The session's API server as the rollout controller's worker thread reaches it: the client
// configuration is set on the GUI thread once the session connects (a live context, or the demo
// cluster once it serves) and read by the worker, hence the lock.
struct RolloutEndpoint
{
    QMutex mutex;
    std::optional<kube::ClientConfig> client;
};

ClusterFactory rolloutClusters(std::shared_ptr<RolloutEndpoint> endpoint)
{
    return [endpoint]() -> Result<rollout::HostedCluster> {
        std::optional<kube::ClientConfig> client;
        {
            QMutexLocker lock(&endpoint->mutex);
            client = endpoint->client;
        }
        if (!client)
            return fail(common::Error::Code::Invalid,
                QStringLiteral(
                    "a rollout acts through an API server: this console shows an offline cache, or "
                    "its cluster is not connected yet (open a context, or the demo cluster)"));
        return rollout::kubeClusterFactory(*client, rolloutUserAgent())();
    };
}

// A read-only table whose layout is remembered under `key`, column `stretch` taking the width.
QTableView *plainTable(QAbstractItemModel *model, const QString &key, int stretch, QWidget *parent)
{
    auto *table = new QTableView(parent);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    table->setWordWrap(false);
    new views::TableLayout(table, key, stretch);
    return table;
}

void fitToContentsOnce(QTableView *table)
{
    if (auto *layout = table->findChild<views::TableLayout *>())
        layout->fitToContentsOnce();
}

// Lint, free capacity, readiness, access and the overview's summary of one snapshot, computed
// together off the GUI thread.
struct Insights
{
    std::vector<inventory::Finding> findings;
    std::vector<inventory::FreeCapacity> free;
    inventory::ClusterOverview overview;
    inventory::Readiness readiness;
    inventory::AccessReport access;
};

// The migration plan of one snapshot under the cluster's recorded release, as `dractl migrate
// plan` computes it from the same cache; or why there is none. Any thread.
struct MigrationAnswer
{
    std::optional<alloc::MigrationPlan> plan;
    QString error;
};

MigrationAnswer migrationPlan(const inventory::Snapshot &snapshot)
{
    Result<alloc::SimulationCluster> cluster = alloc::simulationCluster(snapshot);
    if (!cluster)
        return { std::nullopt, cluster.error().message };
    Result<alloc::MigrationPlan> plan = alloc::planMigration(snapshot, *cluster);
    if (!plan)
        return { std::nullopt, plan.error().message };
    return { std::move(*plan), {} };
}

// The streams the cache records for `cluster` (their states feed the readiness checks); none
// when the cache cannot be read, and the checks that need them say "unknown". Disk: not on the
// GUI thread.
std::vector<model::StreamRecord> recordedStreams(
    const QString &cachePath, const std::string &cluster)
{
    if (cachePath.isEmpty())
        return {};
    Result<store::CacheDb> cache = store::CacheDb::open(cachePath, store::OpenMode::ReadOnly);
    if (!cache)
        return {};
    return cache->streams(cluster).value_or(std::vector<model::StreamRecord> {});
}

} // namespace

MainWindow::MainWindow(ConsoleSession *session, QWidget *parent)
    : QMainWindow(parent)
    , m_session(session)
    , m_nav(new QListWidget(this))
    , m_pages(new QStackedWidget(this))
    , m_tiles(new views::NodeTileModel(this))
    , m_overview(new views::NodeOverview(m_tiles, this))
    , m_summary(new views::OverviewSummary(this))
    , m_devices(new views::DeviceBrowser(this))
    , m_topology(new views::TopologyPanel(this))
    , m_claims(new views::ClaimBrowser(model::Kind::ResourceClaim, this))
    , m_templates(new views::ClaimBrowser(model::Kind::ResourceClaimTemplate, this))
    , m_editor(new views::TemplateEditor(this))
    , m_findings(new views::FindingsModel(this))
    , m_free(new views::FreeCapacityModel(this))
    , m_findingsTable(
          plainTable(m_findings, QStringLiteral("lint"), views::FindingsModel::Message, this))
    , m_freeTable(plainTable(m_free, QStringLiteral("free"), views::FreeCapacityModel::Group, this))
    , m_readiness(new views::ReadinessView(this))
    , m_rollouts(new views::RolloutPanel(this))
    , m_migration(new views::MigrationView(this))
    , m_access(new views::AccessView(this))
    , m_poolStatus(new views::PoolStatusView(this))
    , m_palette(new views::CommandPalette(this))
    , m_connection(new QLabel(this))
    , m_webConsole(new WebConsoleButton(this))
    , m_sync(new StreamStatusButton(this))
    , m_counts(new QLabel(this))
    , m_catchUp(new QTimer(this))
{
    m_counts->setTextFormat(Qt::PlainText); // shows cluster data or messages about it
    setWindowTitle(QStringLiteral("DRA Console"));
    for (int page = 0; page < PageCount; ++page) {
        auto *item = new QListWidgetItem(pageName(Page(page)), m_nav);
        const QString shortcut = pageShortcut(Page(page)).toString(QKeySequence::NativeText);
        item->setToolTip(QStringLiteral("%1 (%2)").arg(pageName(Page(page)), shortcut));
        item->setData(views::NavigationDelegate::ShortcutRole, shortcut);
    }
    m_nav->setItemDelegate(new views::NavigationDelegate(m_nav));
    m_nav->setTextElideMode(Qt::ElideRight); // the count goes before the name does
    m_nav->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_nav->setIconSize(QSize(18, 18));
    updateNavigationIcons();
    m_nav->setFixedWidth(240); // room for the live counts ("Claims 18 · 1 pending") and keys
    auto *overviewPage = new QWidget(this);
    auto *overviewLayout = new QVBoxLayout(overviewPage);
    overviewLayout->setContentsMargins(0, 0, 0, 0);
    overviewLayout->addWidget(m_summary);
    overviewLayout->addWidget(m_overview, 1);
    m_pages->addWidget(overviewPage);
    m_pages->addWidget(m_devices);
    m_pages->addWidget(m_topology);
    m_pages->addWidget(m_claims);
    m_pages->addWidget(m_templates);
    m_pages->addWidget(m_editor);
    m_pages->addWidget(m_findingsTable);
    m_pages->addWidget(m_readiness);
    auto *freePage = new QSplitter(Qt::Vertical, this);
    freePage->addWidget(m_freeTable);
    freePage->addWidget(m_poolStatus);
    freePage->setStretchFactor(0, 2);
    freePage->setStretchFactor(1, 1);
    m_pages->addWidget(freePage);
    connect(m_poolStatus, &views::PoolStatusView::askRequested, this, &MainWindow::askPoolStatus);
    m_pages->addWidget(m_rollouts);
    m_pages->addWidget(m_migration);
    m_pages->addWidget(m_access);

    auto *central = new QWidget(this);
    auto *layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_nav);
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);
    statusBar()->addWidget(m_connection, 1);
    statusBar()->addPermanentWidget(m_webConsole);
    statusBar()->addPermanentWidget(m_sync);
    statusBar()->addPermanentWidget(m_counts);
    m_connection->setTextFormat(Qt::PlainText); // messages quote the cluster
    // A long message is cut, never the reason the window grows wider than the screen.
    m_connection->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_connection->setText(QStringLiteral("Starting…"));
    buildMenus();

    // Rollouts: the state file dractl uses, and the controller in this process unless another
    // one (a `dractl rollout run`) drives the rollout.
    auto endpoint = std::make_shared<RolloutEndpoint>();
    const auto connectEndpoint = [endpoint, session] {
        QMutexLocker lock(&endpoint->mutex);
        endpoint->client = session->clientConfig();
    };
    connectEndpoint();
    connect(session, &ConsoleSession::connected, this, connectEndpoint);
    m_rolloutDriver = new RolloutDriver(session->options().rolloutStatePath,
        rolloutClusters(endpoint), common::Clock::system(), {}, this);
    m_rollouts->setPlanDirectory(rolloutPlanDirectory());
    connectRolloutPanel(m_rollouts, m_rolloutDriver);

    // A page is filled before it is shown, so it never paints data older than the window's.
    connect(m_nav, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < PageCount)
            freshen(Page(row));
        m_pages->setCurrentIndex(row);
    });
    // A timer, not a queued call: it fires only after the pending paint of the page on screen.
    m_catchUp->setSingleShot(true);
    m_catchUp->setInterval(10);
    connect(m_catchUp, &QTimer::timeout, this, &MainWindow::catchUp);
    connect(
        m_summary, &views::OverviewSummary::targetActivated, this, &MainWindow::openSummaryTarget);
    connect(m_overview, &views::NodeOverview::nodeActivated, this, [this](const QString &node) {
        m_topology->showNode(node);
        showPage(Topology);
    });
    connect(m_topology, &views::TopologyPanel::deviceSelected, this,
        [this](const QString &node, const QString &device) {
            if (!m_snapshot || device.isEmpty())
                return;
            freshen(Devices);
            for (const inventory::Device *d : m_snapshot->devicesOnNode(node.toStdString()))
                if (d->key.device == device.toStdString())
                    m_devices->selectDevice(
                        d->key); // selects it everywhere, without switching pages
        });
    connect(m_findingsTable, &QTableView::activated, this, [this](const QModelIndex &index) {
        const QStringList objects = index.data(views::FindingsModel::ObjectsRole).toStringList();
        if (objects.isEmpty())
            return;
        const QStringList parts = objects.front().split(QLatin1Char('|'));
        openObject(parts.value(0), parts.value(1), parts.value(2));
    });
    connect(session, &ConsoleSession::progress, m_connection, &QLabel::setText);
    connect(
        session, &ConsoleSession::streamChanged, this, [this](const kube::StreamStatus &status) {
            m_sync->setStream(status);
            m_summary->setStreams(m_sync->summary());
        });
    connect(session, &ConsoleSession::streamNote, m_sync, &StreamStatusButton::addNote);
    connect(session, &ConsoleSession::webConsoleFound, this, [this] {
        if (const std::optional<kube::ClientConfig> client = m_session->clientConfig())
            m_webConsole->setConsole(m_session->webConsole(), *client);
    });
    connect(m_webConsole, &WebConsoleButton::message, this,
        [this](const QString &text) { statusBar()->showMessage(text, 10000); });
    connect(session, &ConsoleSession::notice, this,
        [this](const QString &message) { statusBar()->showMessage(message, 15000); });
    connect(session, &ConsoleSession::loaded, this, &MainWindow::onLoaded);
    connect(session, &ConsoleSession::failed, this, [this](const common::Error &error) {
        m_connection->setText(QStringLiteral("⚠ %1").arg(error.message));
    });

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_nav->setCurrentRow(settings.value(QStringLiteral("window/page"), 0).toInt());
}

MainWindow::~MainWindow() = default;

QString MainWindow::pageName(Page page)
{
    static const char *const names[PageCount]
        = { "Overview", "Devices", "Topology", "Claims", "Templates", "Template editor", "Lint",
              "Readiness", "Free capacity", "Rollouts", "Migration", "Access" };
    return QString::fromLatin1(names[page]);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(
        QStringLiteral("&Open template…"), QKeySequence(Qt::CTRL | Qt::Key_O), this, [this] {
            showPage(Editor);
            m_editor->open();
        });
    file->addAction(
        QStringLiteral("&Save template…"), QKeySequence(Qt::CTRL | Qt::Key_S), this, [this] {
            showPage(Editor);
            m_editor->save();
        });
    file->addAction(QStringLiteral("Template &form / YAML"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F), this, [this] {
            showPage(Editor);
            m_editor->toggleFormAndYaml();
        });
    QAction *apply = file->addAction(QStringLiteral("&Apply to cluster…"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A), this, &MainWindow::applyToCluster);
    // Server-side apply needs an API server: a live context has one, and so has the demo cluster
    // (served in this process); a cache file offline has none.
    const bool connected = m_session->options().mode != SessionOptions::Mode::Cache;
    apply->setEnabled(connected);
    if (!connected)
        apply->setToolTip(
            QStringLiteral("Connect to a cluster (--context) or run the demo cluster (--demo) "
                           "to apply."));
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    buildClusterMenu();

    QMenu *go = menuBar()->addMenu(QStringLiteral("&Go"));
    go->addAction(QStringLiteral("Command palette…"), QKeySequence(Qt::CTRL | Qt::Key_K), this,
        &MainWindow::openPalette);
    go->addSeparator();
    for (int page = 0; page < PageCount; ++page)
        go->addAction(pageName(Page(page)), pageShortcut(Page(page)), this,
            [this, page] { showPage(Page(page)); });

    QMenu *view = menuBar()->addMenu(QStringLiteral("&View"));
    QAction *dark = view->addAction(QStringLiteral("&Dark theme"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T), this, &MainWindow::toggleTheme);
    dark->setCheckable(true);
    dark->setChecked(views::currentTheme() == views::Theme::Dark);
}

ApplyDialog *MainWindow::applyToCluster()
{
    showPage(Editor);
    const std::optional<kube::ClientConfig> client = m_session->clientConfig();
    if (!client) {
        statusBar()->showMessage(
            QStringLiteral("The cluster is not connected yet; apply once it is."), 5000);
        return nullptr;
    }
    const QString origin
        = m_editor->currentFile().isEmpty() ? QStringLiteral("editor") : m_editor->currentFile();
    auto *dialog = new ApplyDialog(*client, m_editor->text(), origin, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

void MainWindow::askPoolStatus(const QString &driver)
{
    const std::optional<kube::ClientConfig> client = m_session->clientConfig();
    if (!client)
        return showPoolStatus(driver, std::nullopt,
            "the console is not connected to a cluster (an offline cache, or not connected yet)");
    if (!m_poolAsker) {
        m_poolAsker = new ClusterPoolStatus(*client, this);
        connect(m_poolAsker, &ClusterPoolStatus::answered, this,
            [this](const nlohmann::json &status, const QString &error) {
                const QString asked = m_poolStatus->driver();
                if (!error.isEmpty())
                    return showPoolStatus(
                        asked, std::nullopt, "the cluster gave no answer: " + error.toStdString());
                Result<inventory::PoolCount> count = inventory::poolCountFromStatus(status);
                if (!count)
                    return showPoolStatus(asked, std::nullopt, count.error().message.toStdString());
                showPoolStatus(asked, std::move(*count), {});
            });
    }
    m_poolStatus->setAsking();
    m_poolAsker->ask(inventory::poolStatusRequest({ driver.toStdString() }));
}

void MainWindow::askSelfRules(const inventory::AccessReport &report)
{
    const std::optional<kube::ClientConfig> client = m_session->clientConfig();
    if (report.source == inventory::AccessSource::Rbac || !client || m_rulesAsking)
        return;
    std::set<std::string> namespaces;
    for (const inventory::NamespaceAccess &ns : report.namespaces)
        namespaces.insert(ns.ns);
    if (namespaces == m_rulesAskedFor)
        return; // answered, or failed, for these already
    m_rulesAskedFor = namespaces;
    if (!m_rulesAsker) {
        m_rulesAsker = new ClusterSelfRules(*client, this);
        connect(m_rulesAsker, &ClusterSelfRules::answered, this,
            [this](const inventory::SelfRules &rules, const QString &error) {
                m_rulesAsking = false;
                m_rulesError = error.toStdString();
                m_selfRules.reset();
                if (error.isEmpty())
                    m_selfRules = rules;
                if (m_snapshot)
                    refreshInsights(m_snapshot);
            });
    }
    m_rulesAsking = true;
    m_rulesAsker->ask({ namespaces.begin(), namespaces.end() });
}

void MainWindow::showPoolStatus(const QString &driver,
    const std::optional<inventory::PoolCount> &cluster, const std::string &whyOursAlone)
{
    if (!m_snapshot)
        return m_poolStatus->setError(QStringLiteral("No inventory is loaded yet."));
    const inventory::PoolQuery query { driver.toStdString() };
    // Counting one driver's pools in memory is quick: no need to leave the GUI thread.
    m_poolStatus->setComparison(inventory::comparePools(query,
        inventory::countPools(*m_snapshot, query, inventory::TaintCounting::Counted), cluster,
        whyOursAlone));
}

void MainWindow::buildClusterMenu()
{
    // The console follows one source; switching opens a new window on the other and closes
    // this one, so no view ever mixes two clusters.
    QMenu *cluster = menuBar()->addMenu(QStringLiteral("&Cluster"));
    QMenu *contexts = cluster->addMenu(QStringLiteral("Kubeconfig contexts"));
    contexts->addAction(QStringLiteral("Reading the kubeconfig…"))->setEnabled(false);
    QMenu *demo = cluster->addMenu(QStringLiteral("Demo cluster"));
    for (const auto &[name, summary] : sandbox::presetNames()) {
        const QString preset = QString::fromStdString(name);
        demo->addAction(QStringLiteral("%1 — %2").arg(preset, QString::fromStdString(summary)),
            this, [this, preset] { switchTo({ QStringLiteral("--demo=") + preset }); });
    }
    // The same cluster in a browser, once its server turns out to serve the web console.
    QAction *web = cluster->addAction(QStringLiteral("Open &web console in browser"), m_webConsole,
        &WebConsoleButton::openInBrowser);
    web->setEnabled(false);
    web->setToolTip(QStringLiteral("The demo cluster and `dractl serve` serve the web console at "
                                   "/ui/; other servers do not."));
    connect(m_session, &ConsoleSession::webConsoleFound, web, [web] { web->setEnabled(true); });
    cluster->addSeparator();
    cluster->addAction(QStringLiteral("Open cache file offline…"), this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, QStringLiteral("Open a cache file"),
            QString(), QStringLiteral("Caches (*.db);;All files (*)"));
        if (!file.isEmpty())
            switchTo({ QStringLiteral("--cache"), file });
    });

    // Reading the kubeconfig touches the disk (and KUBECONFIG may list several files): off
    // the GUI thread.
    auto *watcher = new QFutureWatcher<QStringList>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, contexts] {
        watcher->deleteLater();
        contexts->clear();
        const QStringList names = watcher->result();
        if (names.isEmpty())
            contexts->addAction(QStringLiteral("No kubeconfig contexts"))->setEnabled(false);
        for (const QString &name : names) {
            QAction *action = contexts->addAction(name, this, [this, name] {
                switchTo({ QStringLiteral("--context"), name });
            });
            action->setCheckable(true);
            action->setChecked(m_session->options().mode == SessionOptions::Mode::Live
                && m_session->options().client.context == name);
        }
    });
    watcher->setFuture(QtConcurrent::run([] {
        QStringList names;
        Result<kube::Kubeconfig> config
            = kube::loadKubeconfig(kube::KubeconfigSource::fromEnvironment({}));
        if (config)
            for (const auto &[name, context] : config->contexts)
                names << name;
        return names;
    }));
}

void MainWindow::switchTo(const QStringList &arguments)
{
    if (QProcess::startDetached(QCoreApplication::applicationFilePath(), arguments))
        close();
    else
        statusBar()->showMessage(
            QStringLiteral("Could not start %1").arg(QCoreApplication::applicationFilePath()),
            10000);
}

QString MainWindow::statusMessage() const
{
    const QString message = statusBar()->currentMessage();
    return message.isEmpty() ? m_connection->text() : message;
}

QWidget *MainWindow::currentPage() const
{
    return m_pages->currentWidget();
}

void MainWindow::showPage(Page page)
{
    m_nav->setCurrentRow(page);
}

void MainWindow::onLoaded()
{
    inventory::Inventory *inventory = m_session->inventory();
    connect(inventory, &inventory::Inventory::changed, this, &MainWindow::onChanged);
    connect(inventory, &inventory::Inventory::wasReset, this, &MainWindow::onReset);
    onReset(inventory->snapshot());
}

void MainWindow::onReset(const inventory::SnapshotPtr &snapshot)
{
    m_snapshot = snapshot;
    m_stale.set();
    m_stale.reset(Rollouts); // the rollout panel follows its own state file
    freshen(Page(m_pages->currentIndex()));
    updateStatus();
    m_catchUp->start();
}

void MainWindow::onChanged(const inventory::ChangeSet &changes)
{
    m_snapshot = changes.snapshot;
    if (!m_stale.test(Overview))
        m_tiles->applyChanges(changes);
    if (!m_stale.test(Devices))
        m_devices->applyChanges(changes);
    if (!m_stale.test(Topology))
        m_topology->applyChanges(changes);
    if (!m_stale.test(Claims))
        m_claims->applyChanges(changes);
    if (!m_stale.test(Templates))
        m_templates->applyChanges(changes);
    if (!m_stale.test(Editor))
        m_editor->setSnapshot(changes.snapshot);
    if (!m_stale.test(Lint) || !m_stale.test(Overview) || !m_stale.test(Readiness)
        || !m_stale.test(Access))
        refreshInsights(changes.snapshot);
    // The plan follows the cluster while it is on screen; elsewhere it waits to be shown.
    if (m_pages->currentIndex() == Migration)
        refreshMigration(changes.snapshot);
    else
        m_stale.set(Migration);
    updateStatus();
}

void MainWindow::freshen(Page page)
{
    if (!m_stale.test(page) || !m_snapshot)
        return;
    m_stale.reset(page);
    switch (page) {
    case Overview:
        m_tiles->reset(m_snapshot);
        refreshInsights(m_snapshot); // the summary above the tiles
        break;
    case Devices:
        m_devices->reset(m_snapshot);
        break;
    case Topology:
        m_topology->reset(m_snapshot);
        break;
    case Claims:
        m_claims->reset(m_snapshot);
        break;
    case Templates:
        m_templates->reset(m_snapshot);
        break;
    case Editor:
        m_editor->setSnapshot(m_snapshot);
        break;
    case Lint:
    case Readiness:
    case Free:
    case Access: // one background computation fills the four
        m_stale.reset(Lint);
        m_stale.reset(Readiness);
        m_stale.reset(Free);
        m_stale.reset(Access);
        refreshInsights(m_snapshot);
        break;
    case Migration:
        refreshMigration(m_snapshot);
        break;
    case Rollouts:
    case PageCount:
        break;
    }
}

void MainWindow::catchUp()
{
    // Not the migration plan: it simulates every workload, so it waits until it is shown.
    const auto waiting = [this] { return std::bitset<PageCount>(m_stale).reset(Migration); };
    for (int page = 0; page < PageCount; ++page) {
        if (waiting().test(page)) {
            freshen(Page(page));
            break;
        }
    }
    if (waiting().any())
        m_catchUp->start();
}

void MainWindow::refreshInsights(const inventory::SnapshotPtr &snapshot)
{
    m_insightsPending = snapshot;
    if (!m_insightsRunning)
        startInsights();
}

void MainWindow::startInsights()
{
    const inventory::SnapshotPtr snapshot = std::exchange(m_insightsPending, {});
    m_insightsRunning = true;
    auto *watcher = new QFutureWatcher<Insights>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        m_insightsRunning = false;
        Insights insights = watcher->result();
        m_findings->setFindings(std::move(insights.findings));
        m_free->setCapacity(std::move(insights.free));
        m_summary->setOverview(insights.overview);
        m_readiness->setReadiness(insights.readiness);
        if (insights.access.source == inventory::AccessSource::None && !m_rulesError.empty())
            inventory::noteSelfRulesUnavailable(insights.access, m_rulesError);
        m_access->setReport(insights.access);
        askSelfRules(insights.access);
        m_overviewFigures = insights.overview;
        updateNavigation();
        fitToContentsOnce(m_findingsTable);
        fitToContentsOnce(m_freeTable);
        if (m_snapshot && !m_snapshot->pools().empty())
            m_poolStatus->suggestDriver(QString::fromStdString(m_snapshot->pools().front().driver));
        if (m_insightsPending)
            startInsights(); // the cluster moved on while these were computed
    });
    watcher->setFuture(
        QtConcurrent::run([snapshot, cachePath = m_session->cachePath(), self = m_selfRules] {
            return Insights { inventory::lint(*snapshot),
                inventory::freeCapacity(*snapshot, inventory::FreeGrouping::Pool),
                inventory::clusterOverview(*snapshot),
                inventory::readiness(*snapshot, recordedStreams(cachePath, snapshot->cluster())),
                inventory::deviceAccess(*snapshot, {}, self ? &*self : nullptr) };
        }));
}

void MainWindow::refreshMigration(const inventory::SnapshotPtr &snapshot)
{
    m_migrationPending = snapshot;
    if (!m_migrationRunning)
        startMigration();
}

void MainWindow::startMigration()
{
    const inventory::SnapshotPtr snapshot = std::exchange(m_migrationPending, {});
    m_migrationRunning = true;
    auto *watcher = new QFutureWatcher<MigrationAnswer>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        m_migrationRunning = false;
        MigrationAnswer answer = watcher->result();
        if (answer.plan)
            m_migration->setPlan(std::move(*answer.plan));
        else
            m_migration->setError(answer.error);
        if (m_migrationPending)
            startMigration(); // the cluster moved on while this plan was computed
    });
    watcher->setFuture(QtConcurrent::run([snapshot] { return migrationPlan(*snapshot); }));
}

void MainWindow::updateStatus()
{
    if (!m_snapshot)
        return;
    QString connection
        = QStringLiteral("%1 · cluster %2 · revision %3")
              .arg(m_session->description(),
                  m_snapshot->cluster().empty() ? QStringLiteral("(unnamed)")
                                                : QString::fromStdString(m_snapshot->cluster()))
              .arg(m_snapshot->rev());
    if (m_session->options().mode == SessionOptions::Mode::Cache && m_session->lastSyncMs() > 0)
        connection += QStringLiteral(" · offline, data from %1")
                          .arg(QDateTime::fromMSecsSinceEpoch(m_session->lastSyncMs())
                                   .toString(Qt::ISODate));
    m_connection->setText(connection);
    const inventory::SnapshotStats stats = m_snapshot->stats();
    m_counts->setText(QStringLiteral("%1 nodes · %2 devices · %3 pools · %4 claims")
                          .arg(m_snapshot->deviceNodes().size())
                          .arg(stats.devices)
                          .arg(stats.pools)
                          .arg(m_snapshot->objects(model::Kind::ResourceClaim).size()));
}

QKeySequence MainWindow::pageShortcut(Page page)
{
    // Ctrl+1…9, then Ctrl+0, Ctrl+- and Ctrl+= (the keys after 9 on the number row), as the web
    // console's Alt+ keys.
    static constexpr int kAfterNine[] = { Qt::Key_0, Qt::Key_Minus, Qt::Key_Equal };
    static_assert(PageCount <= 9 + std::size(kAfterNine), "a page without a key");
    const int key = int(page) < 9 ? Qt::Key_1 + int(page) : kAfterNine[int(page) - 9];
    return QKeySequence(Qt::CTRL | key);
}

QString MainWindow::navigationShortcut(Page page) const
{
    return m_nav->item(page)->data(views::NavigationDelegate::ShortcutRole).toString();
}

QString MainWindow::navigationText(Page page) const
{
    return m_nav->item(page)->text();
}

void MainWindow::updateNavigationIcons()
{
    const QStringList names = views::pageIconNames();
    const QColor stroke = palette().color(QPalette::Text);
    for (int page = 0; page < PageCount && page < names.size(); ++page)
        m_nav->item(page)->setIcon(views::pageIcon(names[page], stroke));
}

void MainWindow::updateNavigation()
{
    for (int page = 0; page < PageCount; ++page) {
        QString text = pageName(Page(page));
        if (m_overviewFigures) {
            const inventory::ClusterOverview &figures = *m_overviewFigures;
            const int findings = figures.lintErrors + figures.lintWarnings + figures.lintInfo;
            switch (Page(page)) {
            case Devices:
                text += QStringLiteral(" %1").arg(figures.totals.all.devices);
                break;
            case Claims:
                text += QStringLiteral(" %1").arg(figures.claims);
                if (figures.pendingClaims > 0)
                    text += QStringLiteral(" · %1 pending").arg(figures.pendingClaims);
                break;
            case Lint:
                if (findings > 0)
                    text += QStringLiteral(" %1").arg(findings);
                break;
            default:
                break;
            }
        }
        m_nav->item(page)->setText(text);
    }
}

void MainWindow::openSummaryTarget(const QString &target)
{
    const auto showDevices = [this](inventory::DeviceCategory category) {
        showPage(Devices);
        m_devices->setKindFilter(category);
    };
    if (target == QLatin1String("devices:gpu"))
        showDevices(inventory::DeviceCategory::Gpu);
    else if (target == QLatin1String("devices:mig"))
        showDevices(inventory::DeviceCategory::Partition);
    else if (target == QLatin1String("devices:nic"))
        showDevices(inventory::DeviceCategory::Nic);
    else if (target == QLatin1String("claims:pending")) {
        showPage(Claims);
        m_claims->setFilterText(QStringLiteral("pending"));
    } else if (target == QLatin1String("lint"))
        showPage(Lint);
    else if (target == QLatin1String("free"))
        showPage(Free);
    else if (target == QLatin1String("streams") && m_sync->isVisible())
        m_sync->showMenu();
}

void MainWindow::openPalette()
{
    std::vector<views::PaletteEntry> entries;
    for (int page = 0; page < PageCount; ++page)
        entries.push_back({ pageName(Page(page)),
            QStringLiteral("view · %1")
                .arg(pageShortcut(Page(page)).toString(QKeySequence::NativeText)),
            [this, page] { showPage(Page(page)); } });
    if (m_snapshot) {
        for (const std::string &node : m_snapshot->deviceNodes()) {
            const QString name = QString::fromStdString(node);
            entries.push_back({ name, QStringLiteral("node topology"),
                [this, name] { openObject(QStringLiteral("Node"), {}, name); } });
        }
        for (model::Kind kind :
            { model::Kind::ResourceClaim, model::Kind::ResourceClaimTemplate }) {
            const QString kindName = QString::fromUtf8(
                model::kindInfo(kind).name.data(), qsizetype(model::kindInfo(kind).name.size()));
            for (const auto &object : m_snapshot->objects(kind)) {
                const QString ns = QString::fromStdString(object->meta.ns),
                              name = QString::fromStdString(object->meta.name);
                entries.push_back({ ns + QLatin1Char('/') + name, kindName,
                    [this, kindName, ns, name] { openObject(kindName, ns, name); } });
            }
        }
    }
    m_palette->open(std::move(entries));
}

void MainWindow::openObject(const QString &kind, const QString &ns, const QString &name)
{
    if (kind == QLatin1String("Node") || kind == QLatin1String("ResourceSlice")) {
        const QString node = kind == QLatin1String("Node") || !m_snapshot ? name : [&] {
            const auto *slice = m_snapshot->slice(name.toStdString());
            return slice ? QString::fromStdString(slice->node) : QString();
        }();
        if (m_topology->showNode(node))
            showPage(Topology);
        return;
    }
    if (kind == QLatin1String("ResourceClaim") && m_claims->selectClaim(ns, name)) {
        showPage(Claims);
        return;
    }
    if (kind == QLatin1String("ResourceClaimTemplate") && m_templates->selectClaim(ns, name)) {
        showPage(Templates);
        return;
    }
    if (kind == QLatin1String("DeviceClass")) {
        m_devices->setSelectorFilter(QStringLiteral("true"));
        showPage(Devices);
    }
}

void MainWindow::toggleTheme()
{
    const views::Theme next
        = views::currentTheme() == views::Theme::Dark ? views::Theme::Light : views::Theme::Dark;
    views::applyTheme(*qApp, next);
    updateNavigationIcons(); // drawn in the theme's text colour
    QSettings().setValue(QStringLiteral("window/theme"), views::themeName(next));
    m_topology->reset(m_snapshot); // the drawing picks its colours when built
}

QStringList MainWindow::saveScreenshots(const QString &dir)
{
    QStringList problems;
    QDir().mkpath(dir);
    const int current = m_pages->currentIndex();
    for (int page = 0; page < PageCount; ++page) {
        showPage(Page(page));
        if (page == Topology)
            m_topology->view()->fitAll();
        // The plan is simulated once the page is shown: the picture waits for it.
        const QDeadlineTimer deadline(60'000);
        while (page == Migration && !migrationSettled() && !deadline.hasExpired()) {
            QApplication::processEvents();
            QThread::msleep(20);
        }
        QApplication::processEvents();
        const QString file = QDir(dir).filePath(
            pageName(Page(page)).toLower().replace(QLatin1Char(' '), QLatin1Char('-'))
            + QStringLiteral(".png"));
        if (!grab().save(file))
            problems << QStringLiteral("%1: cannot write the screenshot").arg(file);
    }
    showPage(Page(current));
    return problems;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/page"), m_nav->currentRow());
    QMainWindow::closeEvent(event);
}

} // namespace dra::console
