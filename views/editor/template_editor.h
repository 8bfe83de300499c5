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
class QTextBrowser;

namespace dra::views {

// The claim-template editor: YAML with highlighting on the left, and on the right what the
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

Q_SIGNALS:
    void checked(const dra::views::TemplateCheck &check);

private:
    void launch();
    void open();
    void save();

    inventory::SnapshotPtr m_snapshot;
    QPlainTextEdit *m_editor;
    QTextBrowser *m_result;
    QLabel *m_status;
    QTimer m_debounce;
    std::shared_ptr<ClusterIndexCache> m_clusters = std::make_shared<ClusterIndexCache>();
    TemplateCheck m_last;
    int m_generation = 0;
    int m_running = 0;
};

} // namespace dra::views
