// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <bitset>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include <QKeySequence>
#include <QMainWindow>

#include "core/inventory/device_access.h"
#include "core/inventory/overview.h"
#include "core/inventory/pool_status.h"
#include "core/inventory/snapshot.h"
#include "core/kube/stream_status.h"

class QLabel;
class QTimer;
class QListWidget;
class QStackedWidget;
class QTableView;

namespace dra::inventory {
struct ChangeSet;
}

namespace dra::views {
class ClaimBrowser;
class CommandPalette;
class DeviceBrowser;
class FindingsModel;
class FreeCapacityModel;
class MigrationView;
class NodeOverview;
class NodeTileModel;
class OverviewSummary;
class ReadinessView;
class AccessView;
class PoolStatusView;
class RolloutPanel;
class TemplateEditor;
class TopologyPanel;
} // namespace dra::views

namespace dra::console {

class ApplyDialog;
class ClusterPoolStatus;
class ClusterSelfRules;
class ConsoleSession;
class RolloutDriver;
class StreamStatusButton;
class WebConsoleButton;

// The console's window: a page per main view, a command palette (Ctrl+K), the theme toggle,
// and the status bar. It only wires views to the session's inventory; every view computes its
// own rows.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    enum Page {
        Overview,
        Devices,
        Topology,
        Claims,
        Templates,
        Editor,
        Lint,
        Readiness,
        Free,
        Rollouts,
        Migration,
        Access,
        PageCount
    };

    explicit MainWindow(ConsoleSession *session, QWidget *parent = nullptr);
    ~MainWindow() override;

    void showPage(Page page);
    static QString pageName(Page page);
    // The key that opens `page` (Ctrl+1 … Ctrl+9, Ctrl+0, Ctrl+-, Ctrl+=), in the Go menu and
    // beside its sidebar row.
    static QKeySequence pageShortcut(Page page);
    // Renders every page to DIR/<page>.png (after the data has loaded); the errors name the file.
    [[nodiscard]] QStringList saveScreenshots(const QString &dir);

    // The page on screen (the overview at start).
    QWidget *currentPage() const;
    views::DeviceBrowser *deviceBrowser() const { return m_devices; }
    views::TopologyPanel *topologyPanel() const { return m_topology; }
    views::ClaimBrowser *claimBrowser() const { return m_claims; }
    views::TemplateEditor *templateEditor() const { return m_editor; }
    views::RolloutPanel *rolloutPanel() const { return m_rollouts; }
    StreamStatusButton *streamStatus() const { return m_sync; }
    WebConsoleButton *webConsoleButton() const { return m_webConsole; }
    views::OverviewSummary *overviewSummary() const { return m_summary; }
    views::ReadinessView *readinessView() const { return m_readiness; }
    views::AccessView *accessView() const { return m_access; }
    views::PoolStatusView *poolStatusView() const { return m_poolStatus; }
    views::MigrationView *migrationView() const { return m_migration; }
    // The sidebar entry of `page` as shown (name and live count).
    QString navigationText(Page page) const;
    // Whether the lint, free capacity and overview figures are those of the newest snapshot.
    bool insightsSettled() const { return !m_insightsRunning && !m_insightsPending; }
    // Whether the Migration page shows the plan of the newest snapshot it was asked for.
    bool migrationSettled() const { return !m_migrationRunning && !m_migrationPending; }
    // The shortcut the sidebar shows beside `page`, as the user reads it ("Ctrl+4").
    QString navigationShortcut(Page page) const;
    // The status bar's left slot: the last thing the user did or a real problem.
    QString statusMessage() const;
    // "Apply to cluster…": the editor's text, dry run and diff first, then applied on
    // confirmation. The dialog (deleted on close), or null with a status message while the
    // session has no cluster to apply to.
    ApplyDialog *applyToCluster();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildMenus();
    void buildClusterMenu();
    // Opens a new console with these arguments (another cluster or cache) and closes this one.
    void switchTo(const QStringList &arguments);
    void onLoaded();
    void onReset(const inventory::SnapshotPtr &snapshot);
    void onChanged(const inventory::ChangeSet &changes);
    // Fills `page` from m_snapshot when it has not seen it yet (see m_stale).
    void freshen(Page page);
    void catchUp();
    // Lint, free capacity and the overview's figures, computed off the GUI thread.
    void refreshInsights(const inventory::SnapshotPtr &snapshot);
    void startInsights();
    // The migration plan, computed off the GUI thread while the Migration page is on screen.
    void refreshMigration(const inventory::SnapshotPtr &snapshot);
    void startMigration();
    void updateStatus();
    void openPalette();
    void toggleTheme();
    void openObject(const QString &kind, const QString &ns, const QString &name);
    // A figure of the overview's summary clicked: the page it summarizes, filtered to it.
    void openSummaryTarget(const QString &target);
    // The sidebar's live counts ("Claims 18 · 1 pending", "Lint 3").
    void updateNavigation();
    void updateNavigationIcons();
    // Pool status: the mirror's count beside the cluster's answer, or ours alone and why.
    void askPoolStatus(const QString &driver);
    void showPoolStatus(const QString &driver, const std::optional<inventory::PoolCount> &cluster,
        const std::string &whyOursAlone);
    // Access: when the Roles and bindings cannot be read, the user's own rules in the report's
    // namespaces, asked once per set of namespaces on the asker's thread.
    void askSelfRules(const inventory::AccessReport &report);

    ConsoleSession *m_session;
    inventory::SnapshotPtr m_snapshot;
    QListWidget *m_nav;
    QStackedWidget *m_pages;
    views::NodeTileModel *m_tiles;
    views::NodeOverview *m_overview;
    views::OverviewSummary *m_summary;
    views::DeviceBrowser *m_devices;
    views::TopologyPanel *m_topology;
    views::ClaimBrowser *m_claims;
    views::ClaimBrowser *m_templates;
    views::TemplateEditor *m_editor;
    views::FindingsModel *m_findings;
    views::FreeCapacityModel *m_free;
    QTableView *m_findingsTable;
    QTableView *m_freeTable;
    views::ReadinessView *m_readiness;
    views::RolloutPanel *m_rollouts;
    views::MigrationView *m_migration;
    views::AccessView *m_access;
    views::PoolStatusView *m_poolStatus;
    ClusterPoolStatus *m_poolAsker = nullptr; // made on the first question
    ClusterSelfRules *m_rulesAsker = nullptr; // made on the first question
    std::optional<inventory::SelfRules> m_selfRules; // the cluster's answer, once had
    std::set<std::string> m_rulesAskedFor; // the namespaces last asked about
    bool m_rulesAsking = false;
    std::string m_rulesError; // why the last question got no answer
    RolloutDriver *m_rolloutDriver = nullptr;
    views::CommandPalette *m_palette;
    QLabel *m_connection;
    WebConsoleButton *m_webConsole; // shown once the cluster's server serves the web console
    StreamStatusButton *m_sync; // Live: how current the mirror is, with per-stream details
    QLabel *m_counts;
    // One insights computation at a time; while it runs only the newest snapshot waits, so a
    // busy cluster sees its figures move instead of every result dropped as already stale.
    bool m_insightsRunning = false;
    inventory::SnapshotPtr m_insightsPending;
    std::optional<inventory::ClusterOverview> m_overviewFigures; // of the latest insights
    // The migration plan likewise: one simulation at a time, only the newest snapshot waits.
    bool m_migrationRunning = false;
    inventory::SnapshotPtr m_migrationPending;
    // Pages that have not seen m_snapshot. A new snapshot fills the page on screen at once, so
    // that it paints the data first; the others follow one per turn of the event loop
    // (m_catchUp), or as soon as they are shown. Changes reach only pages that are current.
    // The Migration page, a simulation per workload, is planned only while it is on screen.
    std::bitset<PageCount> m_stale;
    QTimer *m_catchUp;
};

} // namespace dra::console
