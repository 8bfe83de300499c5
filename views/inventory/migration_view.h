// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The device plugin → DRA migration plan as a page: alloc::planMigration(), what `dractl
// migrate plan` prints and the web console's Migration page shows. A headline (cluster, release,
// whether extended resources are served by DRA, how many workloads fit, where they were found),
// one row per workload (what it asks, the proposed form, the simulator's verdict and nodes), and
// for the selected one its proposal: reason and notes, the manifests to apply and the pod
// template change (with Copy), the verdict's reason, and the claim-template alternative. It only
// presents: every sentence comes from core, and all of it is shown as plain text.
#pragma once

#include <QWidget>

#include "core/alloc/migration_plan.h"

class QGroupBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSplitter;
class QTreeWidget;

namespace dra::views {

class MigrationView final : public QWidget
{
    Q_OBJECT
public:
    enum Column { WorkloadColumn, AsksColumn, ProposalColumn, VerdictColumn, NodesColumn };

    explicit MigrationView(QWidget *parent = nullptr);

    // Shows `plan`; the workload selected before stays selected when the plan still has it.
    void setPlan(alloc::MigrationPlan plan);
    // The plan could not be computed: `message` (a sentence) in the headline, no rows.
    void setError(const QString &message);

    // "demo at revision 812 · Kubernetes 1.36 (…) · extended resources served by DRA · 2
    // workload(s), 1 fit · workloads from: …": what the page says first.
    QString headline() const;
    // One row per workload in the plan's order (columns: Workload, Asks, Proposal, Verdict,
    // Nodes); hidden when the plan is empty.
    QTreeWidget *workloads() const { return m_workloads; }
    // "No workload asks for extended resources: nothing to migrate." when the plan is empty.
    QString emptyText() const;
    bool isEmptyShown() const;

    // The selected workload as workloadKey() gives it, "" when none.
    QString selectedWorkload() const;
    bool selectWorkload(const QString &key);

    // What the details pane says of the selected workload, a line per label as shown.
    QString details() const;
    // The proposal's manifests (YAML) and pod template change (JSON) as the pane shows them; ""
    // when the proposal has none. `alternative`: those of the claim-template alternative.
    QString manifests(bool alternative = false) const;
    QString podTemplateChange(bool alternative = false) const;
    // The Copy button beside the proposal's manifests.
    QPushButton *copyManifestsButton() const { return m_proposal.manifests.copy; }

    // "ns/Kind/name": a workload's key, as the web console names it.
    static QString workloadKey(const alloc::LegacyWorkload &workload);
    // "fits", "does not fit", "no proposal".
    static QString verdictText(const alloc::WorkloadMigration &workload);

private:
    // A block of YAML or JSON: title, Copy button, the text read-only in a monospace font.
    struct TextBlock
    {
        QWidget *box = nullptr;
        QPlainTextEdit *text = nullptr;
        QPushButton *copy = nullptr;
    };
    // One proposal as the pane shows it.
    struct ProposalPane
    {
        QLabel *reason = nullptr;
        QLabel *notes = nullptr;
        TextBlock manifests;
        TextBlock change;
    };

    TextBlock textBlock(const QString &title, QWidget *parent);
    ProposalPane proposalPane(QWidget *parent);
    static void showProposal(
        ProposalPane &pane, const QString &title, const alloc::MigrationProposal &proposal);
    void showDetails();
    // The text of `block` of the proposal (or its alternative) when the pane shows it, else "".
    QString shownText(bool alternative, TextBlock ProposalPane::*block) const;

    alloc::MigrationPlan m_plan;
    QLabel *m_headline;
    QLabel *m_empty;
    QSplitter *m_splitter;
    QTreeWidget *m_workloads;
    QScrollArea *m_detailsArea;
    QLabel *m_title;
    QLabel *m_facts;
    QLabel *m_verdict;
    ProposalPane m_proposal;
    QGroupBox *m_alternativeBox;
    ProposalPane m_alternative;
};

} // namespace dra::views
