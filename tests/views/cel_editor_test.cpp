// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/cel_editor.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QTest>

#include <gtest/gtest.h>

namespace dra::views {
namespace {

TEST(CelEditorTest, DiagnosticUnderlinesTheTokenAtItsColumn)
{
    CelEditor editor;
    editor.setPlainText(QStringLiteral("device.driver == gpu"));
    cel::Diagnostic diagnostic;
    diagnostic.line = 1;
    diagnostic.column = 18;
    diagnostic.message = "undeclared reference to 'gpu'";
    editor.setDiagnostics({ diagnostic });
    const auto selections = editor.extraSelections();
    ASSERT_EQ(selections.size(), 1);
    EXPECT_EQ(selections.front().cursor.selectedText(), QStringLiteral("gpu"));
    EXPECT_EQ(selections.front().format.underlineStyle(), QTextCharFormat::SpellCheckUnderline);
    editor.setDiagnostics({});
    EXPECT_TRUE(editor.extraSelections().isEmpty());
}

TEST(CelEditorTest, CompletesInventoryNamesAfterTwoCharacters)
{
    CelEditor editor;
    editor.setCompletions({ QStringLiteral("productName"), QStringLiteral("profile"),
        QStringLiteral("gpu.nvidia.com") });
    editor.show();
    editor.setPlainText(QStringLiteral("device.attributes[\"gpu.nvidia.com\"]."));
    editor.moveCursor(QTextCursor::End);
    QTest::keyClicks(&editor, QStringLiteral("prod"));
    QCompleter *completer = editor.findChild<QCompleter *>();
    ASSERT_NE(completer, nullptr);
    EXPECT_EQ(completer->completionPrefix(), QStringLiteral("prod"));
    EXPECT_EQ(completer->currentCompletion(), QStringLiteral("productName"));
    Q_EMIT completer->activated(QStringLiteral("productName"));
    EXPECT_EQ(
        editor.toPlainText(), QStringLiteral("device.attributes[\"gpu.nvidia.com\"].productName"));
}

} // namespace
} // namespace dra::views
