// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/template_form.h"

#include <algorithm>

#include <QComboBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QTextCursor>

#include <gtest/gtest.h>

#include "tests/views/views_test_main.h"
#include "views/editor/template_editor.h"

namespace dra::views {
namespace {

// Types `text` at the end of the YAML as a user would (through the document, not setText()).
void typeAtEnd(QPlainTextEdit *yaml, const QString &text)
{
    QTextCursor cursor(yaml->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text);
}

QSpinBox *countBox(const TemplateEditor &editor)
{
    return editor.form()->findChild<QSpinBox *>(QStringLiteral("request-0-count"));
}

TEST(TemplateFormTest, ShowsTheExampleAndOffersTheInventorysClasses)
{
    TemplateEditor editor;
    editor.setSnapshot(test::mixedSnapshot());
    EXPECT_EQ(editor.sourceTabs()->tabText(0), QStringLiteral("Form"));
    EXPECT_EQ(editor.sourceTabs()->tabText(1), QStringLiteral("YAML"));
    const model::ClaimTemplateForm &form = editor.form()->form();
    EXPECT_TRUE(editor.form()->error().isEmpty()) << editor.form()->error().toStdString();
    EXPECT_EQ(form.name, "one-gpu-40gi");
    ASSERT_EQ(form.requests.size(), 1u);
    EXPECT_EQ(form.requests[0].exactly.deviceClassName, "gpu.nvidia.com");
    auto *deviceClass = editor.form()->findChild<QComboBox *>(QStringLiteral("request-0-class"));
    ASSERT_NE(deviceClass, nullptr);
    EXPECT_EQ(deviceClass->currentText(), QStringLiteral("gpu.nvidia.com"));
    EXPECT_GE(deviceClass->findText(QStringLiteral("gpu.nvidia.com")), 0)
        << "classes come from the snapshot";
    ASSERT_NE(countBox(editor), nullptr);
    EXPECT_EQ(countBox(editor)->value(), 1);
}

TEST(TemplateFormTest, TypingInTheYamlUpdatesTheForm)
{
    TemplateEditor editor;
    QSpinBox *count = countBox(editor);
    ASSERT_NE(count, nullptr);
    typeAtEnd(editor.editor(), QStringLiteral("          count: 3\n"));
    // Re-read on the editor's debounce, in place: the spin box is the same widget.
    ASSERT_TRUE(QTest::qWaitFor([&] { return count->value() == 3; }, 5000));
    EXPECT_EQ(countBox(editor), count);
    EXPECT_EQ(editor.form()->form().requests[0].exactly.count, 3);

    // A new request in the YAML adds its fields.
    typeAtEnd(editor.editor(),
        QStringLiteral(
            "      - name: nic\n        exactly:\n          deviceClassName: nic.example.com\n"));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return editor.form()->findChild<QSpinBox *>(QStringLiteral("request-1-count"))
                != nullptr;
        },
        5000));
    EXPECT_EQ(editor.form()->form().requests[1].name, "nic");
}

TEST(TemplateFormTest, CountInTheFormRewritesTheYamlAndTheCheck)
{
    TemplateEditor editor;
    QSignalSpy checked(&editor, &TemplateEditor::checked);
    editor.setSnapshot(test::mixedSnapshot());
    ASSERT_TRUE(checked.wait(20000));
    ASSERT_GT(editor.lastCheck().copiesThatFit, 0);
    const QString before = editor.text();

    QSpinBox *count = countBox(editor);
    ASSERT_NE(count, nullptr);
    count->setValue(1000);
    EXPECT_TRUE(editor.text().contains(QStringLiteral("\n          count: 1000\n")))
        << editor.text().toStdString();
    // Only the count was added: every line of the example is still there, in order.
    EXPECT_EQ(QString(editor.text()).remove(QStringLiteral("          count: 1000\n")), before);

    // The live check follows: a thousand GPUs do not fit.
    ASSERT_TRUE(checked.wait(20000));
    EXPECT_EQ(editor.lastCheck().copiesThatFit, 0);
    EXPECT_FALSE(editor.lastCheck().blocked.empty());
    // The debounced re-read of the form's own text changes nothing.
    EXPECT_EQ(count->value(), 1000);

    // One undo step in the YAML takes the whole edit back, and the form follows.
    editor.editor()->undo();
    EXPECT_EQ(editor.text(), before);
    ASSERT_TRUE(QTest::qWaitFor([&] { return count->value() == 1; }, 5000));
}

TEST(TemplateFormTest, SwitchingToFirstAvailableAndAddingATolerationRestructure)
{
    TemplateEditor editor;
    auto *mode = editor.form()->findChild<QComboBox *>(QStringLiteral("request-0-mode"));
    ASSERT_NE(mode, nullptr);
    ASSERT_TRUE(editor.form()->edit(
        [](model::ClaimTemplateForm &f) { model::setFirstAvailable(f.requests[0], true); }, true));
    EXPECT_TRUE(editor.text().contains(QStringLiteral("firstAvailable:\n        - name: gpu\n")))
        << editor.text().toStdString();
    EXPECT_FALSE(editor.text().contains(QStringLiteral("exactly:")));
    EXPECT_NE(editor.form()->findChild<QSpinBox *>(QStringLiteral("request-0-alternative-0-count")),
        nullptr);

    auto buttons = editor.form()->findChildren<QPushButton *>();
    const auto add = std::find_if(buttons.begin(), buttons.end(),
        [](QPushButton *b) { return b->text() == QStringLiteral("Add toleration"); });
    ASSERT_NE(add, buttons.end());
    (*add)->click();
    EXPECT_TRUE(editor.text().contains(QStringLiteral(
        "tolerations:\n          - operator: Exists\n            effect: NoSchedule\n")))
        << editor.text().toStdString();
    EXPECT_EQ(editor.form()->form().requests[0].alternatives[0].tolerations.size(), 1u);
}

TEST(TemplateFormTest, BrokenYamlDisablesTheFormAndKeepsTheText)
{
    TemplateEditor editor;
    typeAtEnd(editor.editor(), QStringLiteral("          count: [2\n"));
    const QString broken = editor.text();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !editor.form()->error().isEmpty(); }, 5000));
    EXPECT_TRUE(editor.form()->error().contains(QStringLiteral("editor:")))
        << editor.form()->error().toStdString();
    QSpinBox *count = countBox(editor);
    ASSERT_NE(count, nullptr);
    EXPECT_FALSE(count->isEnabled());
    // The last good values stay.
    EXPECT_EQ(editor.form()->form().requests.size(), 1u);
    EXPECT_EQ(count->value(), 1);
    // An edit now (a script, a shortcut) refuses rather than writing stale data over the YAML.
    EXPECT_FALSE(
        editor.form()->edit([](model::ClaimTemplateForm &f) { f.requests[0].exactly.count = 5; }));
    EXPECT_EQ(editor.text(), broken);

    // Fixed, the form is back.
    QTextCursor cursor(editor.editor()->document());
    cursor.movePosition(QTextCursor::End);
    cursor.movePosition(QTextCursor::PreviousCharacter, QTextCursor::KeepAnchor, 4);
    cursor.insertText(QStringLiteral(" 2\n"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return editor.form()->error().isEmpty(); }, 5000));
    ASSERT_TRUE(QTest::qWaitFor([&] { return countBox(editor)->value() == 2; }, 5000));
    EXPECT_TRUE(countBox(editor)->isEnabled());
}

TEST(TemplateFormTest, TextIsNotRewrittenUntilTheFormIsEdited)
{
    TemplateEditor editor;
    // Comments and flow style would not survive a write; reading must leave them alone.
    const QString text
        = TemplateEditor::exampleTemplate().replace(QStringLiteral("  name: one-gpu-40gi\n"),
            QStringLiteral("  name: one-gpu-40gi # keep me\n"));
    editor.setText(text);
    QSignalSpy checked(&editor, &TemplateEditor::checked);
    editor.setSnapshot(test::mixedSnapshot());
    ASSERT_TRUE(checked.wait(20000));
    EXPECT_EQ(editor.text(), text);
    EXPECT_EQ(editor.form()->form().name, "one-gpu-40gi");
}

} // namespace
} // namespace dra::views
