// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>

#include <QTimer>
#include <QWidget>

#include "core/inventory/snapshot.h"
#include "views/editor/template_check.h"

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
// allocated and where, or why not. Checks run off the GUI thread, debounced; a result for text
// that has changed since is dropped.
class TemplateEditor final : public QWidget
{
    Q_OBJECT
public:
    explicit TemplateEditor(QWidget *parent = nullptr);

    void setSnapshot(inventory::SnapshotPtr snapshot);
    void setText(const QString &text);
    QString text() const;
    QPlainTextEdit *editor() const { return m_editor; }
    // The last result shown (empty before the first check).
    const TemplateCheck &lastCheck() const { return m_last; }
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
    void checked(const dra::views::TemplateCheck &check);

private:
    void launch();

    inventory::SnapshotPtr m_snapshot;
    QPlainTextEdit *m_editor;
    QTextBrowser *m_result;
    NegativeControlPanel *m_negative;
    QTabWidget *m_tabs;
    TemplateForm *m_form;
    QTabWidget *m_sourceTabs;
    QString m_file;
    QLabel *m_status;
    QTimer m_debounce;
    std::shared_ptr<ClusterIndexCache> m_clusters = std::make_shared<ClusterIndexCache>();
    TemplateCheck m_last;
    int m_generation = 0;
    int m_running = 0;
};

} // namespace dra::views
