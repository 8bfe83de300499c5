// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>

#include <QTimer>
#include <QWidget>

#include "core/inventory/snapshot.h"
#include "views/editor/template_check.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTextBrowser;

namespace dra::views {

class NegativeControlPanel;
class TemplateForm;

// The claim-template editor: YAML with highlighting and a structured form kept in sync with it
// (tabs on the left), and on the right what the
// inventory says about it as you type — devices matching each request, whether copies can be
// allocated and where, or why not. Both run off the GUI thread: the match counts after every
// keystroke (one sweep at a time; a burst of keys gives one more sweep for the newest text),
// the allocation simulation debounced after the typing pauses. A result for text that has
// changed since is dropped.
class TemplateEditor final : public QWidget
{
    Q_OBJECT
public:
    explicit TemplateEditor(QWidget *parent = nullptr);

    void setSnapshot(inventory::SnapshotPtr snapshot);
    void setText(const QString &text);
    QString text() const;
    QPlainTextEdit *editor() const { return m_editor; }
    // "Wrap long lines", on by default.
    QCheckBox *wrapToggle() const { return m_wrap; }
    // The release the text is checked in: the cluster's (the first entry) or one chosen, with
    // feature gates over its defaults, as kube-apiserver would check it there. Diagnosis and
    // `dractl template check` take the same choice (release::chooseRelease()).
    QComboBox *releaseChoice() const { return m_release; }
    QLineEdit *featureGates() const { return m_gates; }
    release::ReleaseChoice releaseOptions() const;
    // The last result shown (empty before the first check; only match counts until the
    // simulation of the same text has come in).
    const alloc::TemplateCheck &lastCheck() const { return m_last; }
    bool isChecking() const { return m_running > 0; }

    // A template for one GPU of at least 40Gi, to start from.
    static QString exampleTemplate();

    NegativeControlPanel *negativeControlPanel() const { return m_negative; }
    // The structured form kept in sync with the YAML, and the "Form" | "YAML" tabs holding both.
    TemplateForm *form() const { return m_form; }
    QTabWidget *sourceTabs() const { return m_sourceTabs; }
    // Shows the form if the YAML is shown, else the YAML (Ctrl+Shift+F in the console's menu).
    void toggleFormAndYaml();
    // The right-hand tabs: the check, and the negative control.
    QTabWidget *resultTabs() const { return m_tabs; }

    // Replaces the text with the file's; false with `error` ("path: reason") when unreadable.
    bool openFile(const QString &path, QString *error);
    // Writes the text to `path`; false with `error` when it cannot.
    bool saveFile(const QString &path, QString *error);
    // The file last opened or saved, empty for new text.
    QString currentFile() const { return m_file; }

    // File dialogs around openFile() / saveFile() (Ctrl+O / Ctrl+S in the console's menu).
    void open();
    void save();

Q_SIGNALS:
    // The match counts of the current text are on screen (the simulation follows).
    void matched(const dra::alloc::TemplateCheck &check);
    // The whole check of the current text, simulation included, is on screen.
    void checked(const dra::alloc::TemplateCheck &check);

private:
    void launchMatch();
    void launch();
    // The text or the release changed: match at once, simulate after the pause.
    void recheck();
    // Puts `check` (of the text at `generation`) on screen; false when a fuller result of the
    // same text is already there.
    bool present(const alloc::TemplateCheck &check, int generation);

    inventory::SnapshotPtr m_snapshot;
    QPlainTextEdit *m_editor;
    QCheckBox *m_wrap = nullptr;
    QComboBox *m_release = nullptr;
    QLineEdit *m_gates = nullptr;
    QTextBrowser *m_result;
    NegativeControlPanel *m_negative;
    QTabWidget *m_tabs;
    TemplateForm *m_form;
    QTabWidget *m_sourceTabs;
    QString m_file;
    QLabel *m_status;
    QTimer m_debounce; // the simulation waits for a pause in typing
    QTimer m_matchSoon; // the match counts: at once, one sweep for every burst of events
    bool m_matching = false;
    bool m_matchAgain = false; // the text changed while a sweep ran
    std::shared_ptr<alloc::SimulationClusterCache> m_clusters
        = std::make_shared<alloc::SimulationClusterCache>();
    alloc::TemplateCheck m_last;
    int m_generation = 0;
    int m_shownGeneration = -1;
    int m_running = 0;
};

} // namespace dra::views
