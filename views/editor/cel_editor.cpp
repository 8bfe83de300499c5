// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/cel_editor.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QScrollBar>
#include <QStringListModel>
#include <QTextBlock>
#include <QToolTip>

#include "views/editor/cel_highlighter.h"

namespace dra::views {
namespace {

// Characters that continue a completable word: qualified names contain dots, slashes and dashes
// ("gpu.nvidia.com/productName").
bool isWordChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('.')
        || c == QLatin1Char('/') || c == QLatin1Char('-');
}

} // namespace

CelEditor::CelEditor(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_highlighter(new CelHighlighter(document()))
    , m_completer(new QCompleter(this))
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setTabChangesFocus(true);
    setPlaceholderText(QStringLiteral(
        "device.driver == \"gpu.nvidia.com\" && "
        "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0"));
    m_completer->setWidget(this);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setModel(new QStringListModel(m_completer));
    connect(m_completer, qOverload<const QString &>(&QCompleter::activated), this,
        &CelEditor::insertCompletion);
    connect(this, &QPlainTextEdit::textChanged, this,
        [this] { Q_EMIT expressionChanged(toPlainText()); });
}

void CelEditor::setCompletions(const QStringList &words)
{
    static_cast<QStringListModel *>(m_completer->model())->setStringList(words);
}

QTextCursor CelEditor::rangeOf(const cel::Diagnostic &diagnostic) const
{
    const QTextBlock block = document()->findBlockByNumber(diagnostic.line - 1);
    QTextCursor cursor(block.isValid() ? block : document()->lastBlock());
    const QString text = cursor.block().text();
    // Columns count code points; QString indexes UTF-16 units.
    int index = 0;
    for (int column = 1; column < diagnostic.column && index < text.size(); ++column)
        index += text[index].isHighSurrogate() ? 2 : 1;
    int end = index;
    while (end < text.size() && (isWordChar(text[end]) || text[end] == QLatin1Char('"')))
        ++end;
    if (end == index)
        end = std::min<int>(index + 1, int(text.size()));
    if (index >= text.size() && index > 0)
        --index; // an error at the end of the text underlines its last character
    cursor.setPosition(cursor.block().position() + index);
    cursor.setPosition(
        cursor.block().position() + std::max(end, index + 1), QTextCursor::KeepAnchor);
    return cursor;
}

void CelEditor::setDiagnostics(std::vector<cel::Diagnostic> diagnostics)
{
    m_diagnostics = std::move(diagnostics);
    QList<QTextEdit::ExtraSelection> selections;
    for (const cel::Diagnostic &diagnostic : m_diagnostics) {
        QTextEdit::ExtraSelection selection;
        selection.cursor = rangeOf(diagnostic);
        selection.format.setUnderlineStyle(QTextCharFormat::SpellCheckUnderline);
        selection.format.setUnderlineColor(diagnostic.severity == cel::Diagnostic::Severity::Error
                ? QColor(0xe0, 0x30, 0x30)
                : QColor(0xd0, 0x9a, 0x00));
        selection.format.setToolTip(QString::fromStdString(diagnostic.message));
        selections << selection;
    }
    setExtraSelections(selections);
}

bool CelEditor::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int position = cursorForPosition(help->pos()).position();
        QStringList messages;
        for (const cel::Diagnostic &diagnostic : m_diagnostics) {
            const QTextCursor range = rangeOf(diagnostic);
            if (position >= range.selectionStart() && position <= range.selectionEnd())
                messages << QString::fromStdString(diagnostic.message);
        }
        if (messages.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), messages.join(QLatin1Char('\n')), this);
        return true;
    }
    return QPlainTextEdit::event(event);
}

QString CelEditor::wordBeforeCursor() const
{
    const QTextCursor cursor = textCursor();
    const QString text = cursor.block().text();
    int start = cursor.positionInBlock();
    while (start > 0 && isWordChar(text[start - 1]))
        --start;
    // After `].` the member name is the word: `.productName` completes as `productName`.
    while (start < cursor.positionInBlock() && text[start] == QLatin1Char('.'))
        ++start;
    return text.mid(start, cursor.positionInBlock() - start);
}

void CelEditor::insertCompletion(const QString &completion)
{
    QTextCursor cursor = textCursor();
    const QString prefix = wordBeforeCursor();
    cursor.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, int(prefix.size()));
    cursor.insertText(completion);
    setTextCursor(cursor);
}

void CelEditor::showCompletions(bool force)
{
    const QString prefix = wordBeforeCursor();
    if (!force && prefix.size() < 2) {
        m_completer->popup()->hide();
        return;
    }
    m_completer->setCompletionPrefix(prefix);
    if (m_completer->completionCount() == 0
        || (m_completer->completionCount() == 1 && m_completer->currentCompletion() == prefix)) {
        m_completer->popup()->hide();
        return;
    }
    m_completer->popup()->setCurrentIndex(m_completer->completionModel()->index(0, 0));
    QRect rect = cursorRect();
    rect.setWidth(m_completer->popup()->sizeHintForColumn(0)
        + m_completer->popup()->verticalScrollBar()->sizeHint().width());
    m_completer->complete(rect);
}

void CelEditor::keyPressEvent(QKeyEvent *event)
{
    if (m_completer->popup()->isVisible()) {
        switch (event->key()) {
        case Qt::Key_Enter:
        case Qt::Key_Return:
        case Qt::Key_Escape:
        case Qt::Key_Tab:
        case Qt::Key_Backtab:
            event->ignore(); // the completer's popup takes these
            return;
        default:
            break;
        }
    }
    const bool force = event->key() == Qt::Key_Space && (event->modifiers() & Qt::ControlModifier);
    if (!force)
        QPlainTextEdit::keyPressEvent(event);
    if (force || (!event->text().isEmpty() && isWordChar(event->text().back())))
        showCompletions(force);
    else if (m_completer->popup()->isVisible() && event->text().isEmpty() == false)
        m_completer->popup()->hide();
}

} // namespace dra::views
