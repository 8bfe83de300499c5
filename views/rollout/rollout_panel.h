// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <optional>

#include <QWidget>

#include "views/rollout/rollout_snapshot.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QListWidget;
class QPushButton;
class QStringListModel;
class QTableView;
class QTreeView;
class QVBoxLayout;

namespace dra::views {

class RolloutAuditModel;
class RolloutGateModel;
class RolloutTimelineModel;

// The rollout panel: a picker of the state file's rollouts ("Start from plan file…" for a new
// one) that opens the most recent active one on arrival and lists them all while none is open, who
// drives the open rollout, the verb buttons (always all shown, enabled as the state machine
// allows), the stage timeline, the gates with their evidence and pictures, the audit log with
// whether its chain verifies, and the controller's messages. It shows snapshots and asks for verbs
// through signals; whoever drives the rollout (RolloutDriver) decides. GUI thread only.
class RolloutPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit RolloutPanel(QWidget *parent = nullptr);

    // Where "Start from plan file…" opens (resources/rollouts).
    void setPlanDirectory(const QString &dir) { m_planDirectory = dir; }

    void showSnapshot(const dra::views::RolloutSnapshotPtr &snapshot);
    // A line of the controller, shown with the time it arrived.
    void appendMessage(const QString &text);
    // As if the user clicked the button of `verb` (tests, shortcuts); false when it is disabled.
    bool trigger(rollout::Verb verb);

    RolloutSnapshotPtr snapshot() const { return m_snapshot; }
    RolloutTimelineModel *timeline() const { return m_timeline; }
    RolloutGateModel *gates() const { return m_gates; }
    RolloutAuditModel *audit() const { return m_audit; }
    QStringListModel *messages() const { return m_messages; }
    QPushButton *button(rollout::Verb verb) const;
    QComboBox *picker() const { return m_picker; }
    // The state file's rollouts, shown while none is open.
    QListWidget *rolloutList() const { return m_list; }
    QLabel *driveLabel() const { return m_drive; }
    QLabel *chainLabel() const { return m_chain; }
    // The widgets drawing the selected gate's pictures.
    int pictureCount() const;
    void selectGate(rollout::GateKind kind);

Q_SIGNALS:
    void rolloutChosen(const QString &id);
    void startFromPlanRequested(const QString &planFile);
    void verbRequested(const dra::views::VerbRequest &request);

private:
    void chooseRollout(int index);
    // With no rollout open: lists them, and opens the most recent active one the first time.
    void showRolloutList(const RolloutSnapshot &snapshot);
    void choosePlanFile();
    void onVerbClicked(rollout::Verb verb);
    void showPictures();
    std::optional<rollout::GateKind> selectedGate() const;

    RolloutSnapshotPtr m_snapshot;
    QString m_planDirectory;
    QComboBox *m_picker;
    QListWidget *m_list;
    QLabel *m_drive;
    QLabel *m_chain;
    QLabel *m_error;
    QLineEdit *m_reason;
    QCheckBox *m_acceptInconclusive;
    QCheckBox *m_force; // shown for plans with a maintenance window
    QLabel *m_governance;
    std::map<rollout::Verb, QPushButton *> m_buttons;
    RolloutTimelineModel *m_timeline;
    RolloutGateModel *m_gates;
    RolloutAuditModel *m_audit;
    QStringListModel *m_messages;
    QTableView *m_timelineView;
    QTreeView *m_gateView;
    QTableView *m_auditView;
    QListView *m_messageView;
    QWidget *m_pictures;
    QVBoxLayout *m_picturesLayout;
    bool m_updatingPicker = false;
    bool m_openedOne = false; // a rollout was opened here (by the user or on arrival)
};

} // namespace dra::views
