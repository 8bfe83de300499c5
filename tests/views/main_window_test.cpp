// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The window on a cache file offline: the page on screen is filled when the data arrives, the
// others once it has painted, and any page as soon as it is shown.
#include "app/console/main_window.h"

#include <algorithm>
#include <memory>

#include <QAction>
#include <QPushButton>
#include <QApplication>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/console/console_session.h"
#include "app/console/stream_status_button.h"
#include "app/console/web_console_button.h"
#include "core/alloc/migration_plan.h"
#include "core/alloc/simulation_cluster.h"
#include "core/inventory/inventory.h"
#include "core/inventory/lint.h"
#include "core/inventory/readiness.h"
#include "core/store/cache_db.h"
#include "tests/support/inventory_fixtures.h"
#include "tests/views/console_demo_support.h"
#include "views/claims/claim_browser.h"
#include "views/claims/claim_list_model.h"
#include "views/inventory/access_view.h"
#include "views/inventory/device_browser.h"
#include "views/inventory/device_filter_model.h"
#include "views/inventory/device_table_model.h"
#include "views/inventory/migration_view.h"
#include "views/inventory/overview_summary.h"
#include "views/inventory/pool_status_view.h"
#include "views/inventory/readiness_view.h"

namespace dra::test {
namespace {

TEST(MainWindowTest, ThePageOnScreenIsFilledFirstAndEveryPageBeforeItIsShown)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    {
        Result<store::CacheDb> cache = store::CacheDb::open(path, store::OpenMode::ReadWrite);
        ASSERT_TRUE(cache.has_value()) << cache.error().message.toStdString();
        model::WatchBatch batch { .cluster = "lab" };
        for (model::ObjectRecord &record : recordsOf(presetList("mixed", 1)))
            batch.changes.push_back({ model::ChangeType::Added, std::move(record) });
        ASSERT_TRUE(cache->apply(batch).has_value());
    }
    console::SessionOptions options;
    options.mode = console::SessionOptions::Mode::Cache;
    options.cachePath = path;
    console::ConsoleSession session(options);
    console::MainWindow window(&session);
    window.showPage(console::MainWindow::Overview);

    // Connected after the window's own slot: runs right after it filled the page on screen,
    // before any later turn of the event loop.
    size_t devices = 0;
    int devicesRowsAtLoad = -1, devicesRowsWhenShown = -1, claimsRowsAtLoad = -1;
    QObject::connect(&session, &console::ConsoleSession::loaded, &window, [&] {
        devices = session.inventory()->snapshot()->devices().size();
        devicesRowsAtLoad = window.deviceBrowser()->tableModel()->rowCount();
        claimsRowsAtLoad = window.claimBrowser()->listModel()->rowCount();
        window.showPage(console::MainWindow::Devices);
        devicesRowsWhenShown = window.deviceBrowser()->tableModel()->rowCount();
    });
    session.start();
    ASSERT_TRUE(consoleWaitUntil([&] { return devicesRowsWhenShown >= 0; }))
        << "the cache never loaded";
    ASSERT_GT(devices, 0u);
    EXPECT_EQ(devicesRowsAtLoad, 0) << "the Devices page waits until the overview has painted";
    EXPECT_EQ(claimsRowsAtLoad, 0);
    EXPECT_EQ(devicesRowsWhenShown, int(devices)) << "a page is filled before it shows";
    // The pages not shown are filled soon after.
    EXPECT_TRUE(
        consoleWaitUntil([&] { return window.claimBrowser()->listModel()->rowCount() > 0; }, 5000));
}

// A window on a cache of the mixed preset, loaded.
class CachedWindow
{
public:
    CachedWindow()
    {
        const QString path = m_dir.filePath(QStringLiteral("cache.db"));
        {
            Result<store::CacheDb> cache = store::CacheDb::open(path, store::OpenMode::ReadWrite);
            EXPECT_TRUE(cache.has_value());
            model::WatchBatch batch { .cluster = "lab" };
            // The demo's own size: its summary has every MIG profile and the longest figures.
            for (model::ObjectRecord &record : recordsOf(presetList("mixed")))
                batch.changes.push_back({ model::ChangeType::Added, std::move(record) });
            EXPECT_TRUE(cache->apply(batch).has_value());
        }
        console::SessionOptions options;
        options.mode = console::SessionOptions::Mode::Cache;
        options.cachePath = path;
        m_session = std::make_unique<console::ConsoleSession>(options);
        m_window = std::make_unique<console::MainWindow>(m_session.get());
        m_window->showPage(console::MainWindow::Overview);
        QObject::connect(
            m_session.get(), &console::ConsoleSession::loaded, [this] { m_loaded = true; });
        m_session->start();
        EXPECT_TRUE(consoleWaitUntil([this] { return m_loaded; })) << "the cache never loaded";
    }
    console::ConsoleSession &session() { return *m_session; }
    console::MainWindow &window() { return *m_window; }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<console::ConsoleSession> m_session;
    std::unique_ptr<console::MainWindow> m_window;
    bool m_loaded = false;
};

TEST(MainWindowTest, BenignStreamFactsGoToThePopupNotTheMessageSlot)
{
    CachedWindow cached;
    const QString fact = QStringLiteral(
        "lab: the cluster does not serve DeviceTaintRule (resource.k8s.io versions: v1)");
    Q_EMIT cached.session().streamNote(fact);
    EXPECT_FALSE(cached.window().statusMessage().contains(fact))
        << cached.window().statusMessage().toStdString();
    EXPECT_TRUE(cached.window().streamStatus()->details().contains(fact));
    EXPECT_TRUE(cached.window().streamStatus()->text().contains(QStringLiteral("1 note")));
    EXPECT_TRUE(cached.window().streamStatus()->isVisible()
        || !cached.window().isVisible()); // shown with the window

    // A problem the user must read still takes the slot.
    const QString problem = QStringLiteral("credential plugin: touch your security key");
    Q_EMIT cached.session().notice(problem);
    EXPECT_TRUE(cached.window().statusMessage().contains(problem));
}

TEST(MainWindowTest, TheSidebarShowsTheShortcutThatOpensEachPage)
{
    CachedWindow cached;
    console::MainWindow &window = cached.window();
    const QList<QAction *> actions = window.findChildren<QAction *>();
    for (int page = 0; page < console::MainWindow::PageCount; ++page) {
        const auto which = console::MainWindow::Page(page);
        const QString shown = window.navigationShortcut(which);
        EXPECT_FALSE(shown.isEmpty()) << console::MainWindow::pageName(which).toStdString();
        // The key the row shows is the one the Go menu's action for that page answers to.
        const auto action = std::find_if(actions.begin(), actions.end(), [&](QAction *a) {
            return a->text() == console::MainWindow::pageName(which) && !a->shortcut().isEmpty();
        });
        ASSERT_NE(action, actions.end()) << console::MainWindow::pageName(which).toStdString();
        EXPECT_EQ((*action)->shortcut().toString(QKeySequence::NativeText), shown);
    }
}

TEST(MainWindowTest, TheReadinessPageShowsTheReportDractlPrints)
{
    CachedWindow cached;
    console::MainWindow &window = cached.window();
    window.showPage(console::MainWindow::Readiness);
    views::ReadinessView *view = window.readinessView();
    ASSERT_TRUE(consoleWaitUntil([&] { return view->checks()->topLevelItemCount() > 0; }, 30000))
        << "the readiness report never arrived";
    // The report `dractl readiness` computes from the same cache: the snapshot and the streams
    // the cache records (none here: an imported cache).
    const inventory::SnapshotPtr snapshot = cached.session().inventory()->snapshot();
    const inventory::Readiness expected = inventory::readiness(*snapshot, {});
    ASSERT_EQ(view->checks()->topLevelItemCount(), int(expected.checks.size()));
    for (size_t i = 0; i < expected.checks.size(); ++i) {
        const QTreeWidgetItem *row = view->checks()->topLevelItem(int(i));
        EXPECT_EQ(row->text(0).toStdString(), expected.checks[i].title);
        EXPECT_EQ(row->text(1), views::ReadinessView::verdictText(expected.checks[i].verdict));
        EXPECT_EQ(row->text(2).toStdString(), expected.checks[i].reason);
    }
    EXPECT_TRUE(view->headline().startsWith(views::ReadinessView::verdictText(expected.overall())))
        << view->headline().toStdString();
    EXPECT_TRUE(view->headline().contains(QStringLiteral("cluster lab")))
        << view->headline().toStdString();
}

TEST(MainWindowTest, TheMigrationPageShowsThePlanDractlPrints)
{
    CachedWindow cached;
    console::MainWindow &window = cached.window();
    views::MigrationView *view = window.migrationView();
    // Every other page catches up in the background; the plan simulates each workload, so it
    // waits until the page is shown.
    ASSERT_TRUE(consoleWaitUntil([&] { return window.insightsSettled(); }, 30000));
    QApplication::processEvents();
    EXPECT_TRUE(window.migrationSettled());
    EXPECT_EQ(view->workloads()->topLevelItemCount(), 0);

    window.showPage(console::MainWindow::Migration);
    EXPECT_EQ(window.currentPage(), view);
    ASSERT_TRUE(consoleWaitUntil(
        [&] { return window.migrationSettled() && view->workloads()->topLevelItemCount() > 0; },
        60000))
        << "the plan never arrived: " << view->headline().toStdString();
    // `dractl migrate plan --cache` of the same cache: the snapshot under its recorded release.
    const inventory::SnapshotPtr snapshot = cached.session().inventory()->snapshot();
    Result<alloc::SimulationCluster> cluster = alloc::simulationCluster(*snapshot);
    ASSERT_TRUE(cluster.has_value()) << cluster.error().message.toStdString();
    const Result<alloc::MigrationPlan> expected = alloc::planMigration(*snapshot, *cluster);
    ASSERT_TRUE(expected.has_value()) << expected.error().message.toStdString();
    ASSERT_EQ(view->workloads()->topLevelItemCount(), int(expected->workloads.size()));
    bool server = false;
    for (size_t i = 0; i < expected->workloads.size(); ++i) {
        const alloc::WorkloadMigration &w = expected->workloads[i];
        const QTreeWidgetItem *row = view->workloads()->topLevelItem(int(i));
        EXPECT_EQ(row->text(views::MigrationView::WorkloadColumn).toStdString(),
            w.workload.kind + " " + w.workload.ns + "/" + w.workload.name);
        EXPECT_EQ(row->text(views::MigrationView::ProposalColumn).toStdString(),
            alloc::migrationFormName(w.proposal.form));
        EXPECT_EQ(
            row->text(views::MigrationView::VerdictColumn), views::MigrationView::verdictText(w));
        for (const auto &[node, pods] : w.verdict.nodes)
            EXPECT_TRUE(
                row->text(views::MigrationView::NodesColumn).contains(QString::fromStdString(node)))
                << node;
        server = server || (w.workload.ns == "inference" && w.workload.name == "llm-server");
    }
    EXPECT_TRUE(server) << "the mixed demo's device-plugin server is a workload to migrate";
    EXPECT_TRUE(
        view->headline().startsWith(QStringLiteral("lab at revision %1 · %2")
                                        .arg(snapshot->rev())
                                        .arg(QString::fromStdString(expected->release.text()))))
        << view->headline().toStdString();
    EXPECT_FALSE(view->details().isEmpty()) << "the first workload is detailed";
}

TEST(MainWindowTest, SummaryAndSidebarCountWhatTheInventoryHolds)
{
    CachedWindow cached;
    console::MainWindow &window = cached.window();
    const inventory::SnapshotPtr snapshot = cached.session().inventory()->snapshot();
    int claims = 0, pending = 0;
    for (const auto &object : snapshot->objects(model::Kind::ResourceClaim)) {
        ++claims;
        const auto *claim = object->as<model::ResourceClaim>();
        pending += claim && !claim->allocation && claim->reservedFor.empty();
    }
    ASSERT_TRUE(consoleWaitUntil([&] { return !window.overviewSummary()->tiles().empty(); }, 30000))
        << "the summary never arrived";
    QString expected = QStringLiteral("Claims %1").arg(claims);
    if (pending > 0)
        expected += QStringLiteral(" · %1 pending").arg(pending);
    EXPECT_EQ(window.navigationText(console::MainWindow::Claims), expected);
    const std::vector<inventory::Finding> findings = inventory::lint(*snapshot);
    EXPECT_EQ(window.navigationText(console::MainWindow::Lint),
        findings.empty() ? QStringLiteral("Lint") : QStringLiteral("Lint %1").arg(findings.size()));

    // The summary fits a 1280-pixel screen: it never forces the window wider.
    QApplication::processEvents();
    EXPECT_LE(window.minimumSizeHint().width(), 1280);

    // The GPU figure opens the Devices page on GPUs only.
    window.overviewSummary()->button(QStringLiteral("devices:gpu"))->click();
    EXPECT_EQ(window.currentPage(), window.deviceBrowser());
    ASSERT_GT(window.deviceBrowser()->filterModel()->rowCount(), 0);
    for (int row = 0; row < window.deviceBrowser()->filterModel()->rowCount(); ++row)
        EXPECT_EQ(window.deviceBrowser()
                      ->filterModel()
                      ->index(row, views::DeviceTableModel::Type)
                      .data()
                      .toString(),
            QStringLiteral("gpu"));
}

// The Cluster menu's action that opens the web console, found by its text.
QAction *webConsoleAction(console::MainWindow &window)
{
    for (QAction *action : window.findChildren<QAction *>())
        if (action->text().contains(QStringLiteral("web console")))
            return action;
    return nullptr;
}

TEST(MainWindowTest, ACacheFileOfflineOffersNoWebConsole)
{
    CachedWindow cached;
    EXPECT_TRUE(cached.window().webConsoleButton()->isHidden());
    EXPECT_TRUE(cached.window().webConsoleButton()->address().isEmpty());
    QAction *open = webConsoleAction(cached.window());
    ASSERT_NE(open, nullptr);
    EXPECT_FALSE(open->isEnabled());
}

TEST(MainWindowTest, TheDemoClustersWebConsoleOpensSignedInFromTheStatusBarAndTheMenu)
{
    ConsoleDemo demo;
    console::MainWindow window(&demo.session());
    console::WebConsoleButton *button = window.webConsoleButton();
    std::vector<QUrl> opened;
    button->setOpener([&opened](const QUrl &url) {
        opened.push_back(url);
        return true;
    });
    ASSERT_TRUE(demo.startAndSync()) << demo.failure().toStdString();
    ASSERT_TRUE(consoleWaitUntil([&] { return !button->address().isEmpty(); }, 30000))
        << "the demo cluster's server was not found to serve the web console";
    const std::optional<kube::ClientConfig> client = demo.session().clientConfig();
    ASSERT_TRUE(client.has_value());
    QUrl expected = client->server;
    expected.setPath(QStringLiteral("/ui/"));
    EXPECT_EQ(button->address(), expected);
    EXPECT_EQ(demo.session().webConsole(), expected);
    EXPECT_FALSE(button->isHidden());

    // A click opens the console's overview signed in: the demo's token after the route, in the
    // fragment only, which never reaches the server.
    button->click();
    ASSERT_EQ(opened.size(), 1u);
    EXPECT_EQ(opened[0].adjusted(QUrl::RemoveFragment), expected);
    EXPECT_EQ(
        opened[0].fragment(QUrl::FullyDecoded), QStringLiteral("/overview?token=") + client->token);
    EXPECT_TRUE(opened[0].query().isEmpty());

    QAction *open = webConsoleAction(window);
    ASSERT_NE(open, nullptr);
    EXPECT_TRUE(open->isEnabled());
    open->trigger();
    ASSERT_EQ(opened.size(), 2u);
    EXPECT_EQ(opened[1], opened[0]);

    // What the page asks of the server answers: the rollouts view follows the window's own
    // state file (the window's controller drives them), as `dractl serve` follows a
    // `dractl rollout run`.
    kube::RestRequest rollouts;
    rollouts.path = QStringLiteral("/console/v1/rollouts");
    const Result<kube::RestResponse> answer = consoleRequest(*client, rollouts);
    ASSERT_TRUE(answer.has_value()) << answer.error().message.toStdString();
    const nlohmann::json list = nlohmann::json::parse(answer->body.toStdString(), nullptr, false);
    ASSERT_TRUE(list.is_object()) << answer->body.toStdString();
    EXPECT_EQ(list.value("runsControllers", true), false) << "the window's controller drives them";
}

TEST(MainWindowTest, TheFreePageSetsTheDemoClustersPoolStatusBesideTheMirrors)
{
    ConsoleDemo demo;
    console::MainWindow window(&demo.session());
    ASSERT_TRUE(demo.startAndSync()) << demo.failure().toStdString();
    views::PoolStatusView *pools = window.poolStatusView();
    window.showPage(console::MainWindow::Free);
    ASSERT_TRUE(consoleWaitUntil(
        [&] { return pools->driver() == QStringLiteral("gpu.nvidia.com"); }, 30000))
        << "the driver of the inventory's pools is suggested: " << pools->driver().toStdString();

    // The demo answers a ResourcePoolStatusRequest as a 1.36 cluster does; the page sets it
    // beside the mirror's count, pool by pool, as `dractl pools` prints it.
    pools->askButton()->click();
    EXPECT_FALSE(pools->askButton()->isEnabled()) << "one question at a time";
    ASSERT_TRUE(consoleWaitUntil([&] { return pools->askButton()->isEnabled(); }, 30000));
    EXPECT_TRUE(pools->summary().contains(QStringLiteral("the cluster's answer and ours agree")))
        << pools->summary().toStdString();
    ASSERT_GT(pools->pools()->topLevelItemCount(), 0);
    EXPECT_EQ(pools->pools()->headerItem()->text(2), QStringLiteral("total (cluster / ours)"));
    const QStringList total = pools->pools()->topLevelItem(0)->text(2).split(QStringLiteral(" / "));
    ASSERT_EQ(total.size(), 2);
    EXPECT_EQ(total[0], total[1]);
}

// Signed in as the demo's training user, who may not read Roles or bindings: the Access page
// asks the cluster what this user may do and says that is whose rules it shows.
TEST(MainWindowTest, TheAccessPageShowsTheUsersOwnRulesWhereRbacIsUnreadable)
{
    console::SessionOptions options;
    options.demoUser = "demo-training";
    ConsoleDemo demo(options);
    console::MainWindow window(&demo.session());
    ASSERT_TRUE(demo.startAndSync()) << demo.failure().toStdString();
    window.showPage(console::MainWindow::Access);
    views::AccessView *access = window.accessView();
    ASSERT_TRUE(consoleWaitUntil(
        [&] { return access->sourceNote().contains(QStringLiteral("your own rules")); }, 30000))
        << access->sourceNote().toStdString();
    EXPECT_TRUE(access->sourceNote().contains(QStringLiteral("training-user")))
        << access->sourceNote().toStdString();
    // In training the user may create claims; in inference not.
    QString trainingWho, inferenceWho;
    for (int i = 0; i < access->namespaces()->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = access->namespaces()->topLevelItem(i);
        if (item->text(views::AccessView::NameColumn) == QStringLiteral("training"))
            trainingWho = item->text(views::AccessView::WhoColumn);
        if (item->text(views::AccessView::NameColumn) == QStringLiteral("inference"))
            inferenceWho = item->text(views::AccessView::WhoColumn);
    }
    EXPECT_TRUE(trainingWho.contains(QStringLiteral("training-user"))) << trainingWho.toStdString();
    EXPECT_FALSE(inferenceWho.contains(QStringLiteral("training-user")))
        << inferenceWho.toStdString();
}

} // namespace
} // namespace dra::test
