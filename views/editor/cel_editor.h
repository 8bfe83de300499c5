// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <vector>

#include <QPlainTextEdit>
#include <QStringList>

#include "core/cel/diagnostic.h"

class QCompleter;

namespace dra::views {

class CelHighlighter;

// An editor for one CEL expression: highlighting, diagnostics drawn as squiggles with their
// messages as tooltips, and completion of the words the inventory offers (domains, attribute and
// capacity names, values). It shows what it is given; checking happens elsewhere, off the GUI
// thread, and comes back through setDiagnostics().
class CelEditor final : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit CelEditor(QWidget *parent = nullptr);

    // Underlines each diagnostic from its column to the end of the token there.
    void setDiagnostics(std::vector<cel::Diagnostic> diagnostics);
    const std::vector<cel::Diagnostic> &diagnostics() const { return m_diagnostics; }

    // Words offered by completion (Ctrl+Space, or after typing two characters of a word).
    void setCompletions(const QStringList &words);

    QString expression() const { return toPlainText(); }

Q_SIGNALS:
    // The text changed (each keystroke); listeners debounce.
    void expressionChanged(const QString &expression);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;

private:
    void insertCompletion(const QString &completion);
    QString wordBeforeCursor() const;
    void showCompletions(bool force);
    // The document range a diagnostic underlines.
    QTextCursor rangeOf(const cel::Diagnostic &diagnostic) const;

    CelHighlighter *m_highlighter;
    QCompleter *m_completer;
    std::vector<cel::Diagnostic> m_diagnostics;
};

} // namespace dra::views
