// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <string>
#include <utility>

#include <QWidget>

#include "core/alloc/simulation_cluster.h"
#include "core/inventory/snapshot.h"
#include "core/model/kind.h"

class QLineEdit;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QTextBrowser;
class QTimer;

namespace dra::inventory {
struct ChangeSet;
}

namespace dra::views {

class ClaimListModel;
class TableLayout;

// Claims (or templates) across namespaces with their state, and an inspector for the selected
// one (opened at the first selection): requests, allocation with nodes, reserving pods, events.
class ClaimBrowser final : public QWidget
{
    Q_OBJECT
public:
    explicit ClaimBrowser(model::Kind kind, QWidget *parent = nullptr);

    void reset(inventory::SnapshotPtr snapshot);
    void applyChanges(const inventory::ChangeSet &changes);
    bool selectClaim(const QString &ns, const QString &name);
    // Filters the rows as if `text` were typed in the search field.
    void setFilterText(const QString &text);

    ClaimListModel *listModel() const { return m_model; }
    QTableView *table() const { return m_table; }
    QString inspectorHtml() const;
    QSplitter *splitter() const { return m_splitter; }
    TableLayout *tableLayout() const { return m_layout; }

Q_SIGNALS:
    void claimSelected(const QString &ns, const QString &name);
    // The inspector now shows the selected claim's Pending diagnosis too.
    void diagnosisShown();

private:
    void showSelection();
    // Diagnoses the claim in m_diagnosed against the current snapshot, off the GUI thread.
    void diagnose();

    ClaimListModel *m_model;
    QSortFilterProxyModel *m_filter;
    QLineEdit *m_search;
    QTableView *m_table;
    QTextBrowser *m_inspector;
    QSplitter *m_splitter;
    TableLayout *m_layout = nullptr;
    inventory::SnapshotPtr m_snapshot;
    // Shared with the diagnosis running on the pool, which may outlive a selection.
    std::shared_ptr<alloc::SimulationClusterCache> m_clusters;
    QTimer *m_rediagnose; // after changes to the snapshot
    std::pair<std::string, std::string> m_diagnosed; // namespace, name of the claim shown
    QString m_details, m_diagnosis; // the inspector's two parts
    int m_diagnosisGeneration = 0;
};

} // namespace dra::views
