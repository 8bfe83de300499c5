// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/template_editor.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextLayout>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/inventory/snapshot_builder.h"
#include "tests/support/inventory_fixtures.h"
#include "tests/views/views_test_main.h"
#include "views/editor/negative_control_panel.h"

namespace dra::views {
namespace {

QString withSelector(const QString &expression)
{
    QString text = TemplateEditor::exampleTemplate();
    const qsizetype at = text.indexOf(QStringLiteral("expression: "));
    return text.left(at) + QStringLiteral("expression: ") + expression + QLatin1Char('\n');
}

// The check itself is core's (tests/core/alloc/template_check_test.cpp); here, what the editor
// makes of it.
TEST(TemplateCheckTest, TheHtmlSaysWhyNotAndUnderWhichRelease)
{
    alloc::SimulationClusterCache clusters;
    const alloc::TemplateCheck check = alloc::checkTemplate(test::mixedSnapshot(),
        withSelector(
            QStringLiteral(
                "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"4Ti\")) >= 0"))
            .toStdString(),
        clusters, release::recordedRelease({}));
    ASSERT_TRUE(check.simulated);
    const QString html = templateCheckHtml(check);
    EXPECT_TRUE(html.contains(QStringLiteral("Cannot be allocated"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QString::fromStdString(check.release))) << html.toStdString();
    EXPECT_TRUE(templateCheckHtml(alloc::checkTemplate(test::a100Snapshot(), "kind: [", clusters,
                                      release::recordedRelease({})))
                    .contains(QStringLiteral("Not checked")));
}

TEST(TemplateEditorTest, TypingRechecksOffTheGuiThread)
{
    TemplateEditor editor;
    QSignalSpy checked(&editor, &TemplateEditor::checked);
    editor.setSnapshot(test::a100Snapshot());
    ASSERT_TRUE(checked.wait(20000));
    EXPECT_TRUE(editor.lastCheck().error.empty());
    editor.setText(QStringLiteral("kind: ResourceClaimTemplate\nspec: [broken"));
    ASSERT_TRUE(checked.wait(20000));
    EXPECT_FALSE(editor.lastCheck().error.empty());
}

TEST(TemplateEditorTest, MatchCountsComeBeforeTheDebouncedSimulation)
{
    TemplateEditor editor;
    QSignalSpy matched(&editor, &TemplateEditor::matched);
    QSignalSpy checked(&editor, &TemplateEditor::checked);
    std::vector<alloc::TemplateCheck> counts;
    QObject::connect(&editor, &TemplateEditor::matched, &editor,
        [&counts](const alloc::TemplateCheck &check) { counts.push_back(check); });
    editor.setSnapshot(test::mixedSnapshot());
    ASSERT_TRUE(checked.wait(30000));
    const int before = editor.lastCheck().requests.at(0).matching;
    ASSERT_GT(before, 0);
    matched.clear();
    checked.clear();
    counts.clear();

    // A selector no device meets: the counts drop first, with no simulation yet ...
    editor.setText(withSelector(QStringLiteral(
        "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"4Ti\")) >= 0")));
    ASSERT_TRUE(matched.wait(30000));
    EXPECT_EQ(checked.count(), 0);
    ASSERT_EQ(counts.size(), 1u);
    ASSERT_EQ(counts[0].requests.size(), 1u);
    EXPECT_EQ(counts[0].requests[0].matching, 0);
    EXPECT_FALSE(counts[0].simulated);
    // ... then the simulation of the same text says why it cannot be allocated.
    ASSERT_TRUE(checked.wait(30000));
    EXPECT_TRUE(editor.lastCheck().simulated);
    EXPECT_EQ(editor.lastCheck().copiesThatFit, 0);
    EXPECT_FALSE(editor.lastCheck().blocked.empty());
}

// The mixed demo as the cache of a cluster that reported `version`.
inventory::SnapshotPtr mixedRecordedAs(const std::string &version)
{
    inventory::SnapshotSource source;
    source.cluster = "test";
    source.kubernetesVersion = version;
    source.objects = test::recordsOf(test::presetList("mixed", 2));
    source.rev = int64_t(source.objects.size());
    return inventory::buildSnapshot(std::move(source));
}

TEST(TemplateEditorTest, TheTextIsCheckedInTheReleaseChosen)
{
    TemplateEditor editor;
    QSignalSpy checked(&editor, &TemplateEditor::checked);
    // device.allowMultipleAllocations needs DRAConsumableCapacity, alpha and off in 1.34.
    editor.setText(withSelector(QStringLiteral("device.allowMultipleAllocations == false")));
    editor.setSnapshot(mixedRecordedAs("v1.34.1"));
    ASSERT_TRUE(checked.wait(30000));
    ASSERT_EQ(editor.lastCheck().requests.size(), 1u);
    EXPECT_EQ(editor.lastCheck().requests[0].selectorErrors.size(), 1u)
        << "the cluster's release refuses the selector";
    EXPECT_NE(editor.lastCheck().release.find("the cluster's version, v1.34.1"), std::string::npos)
        << editor.lastCheck().release;

    // The gate switched on for the check: the selector compiles and matches.
    checked.clear();
    editor.featureGates()->setText(QStringLiteral("DRAConsumableCapacity=true"));
    Q_EMIT editor.featureGates()->editingFinished();
    ASSERT_TRUE(checked.wait(30000));
    EXPECT_TRUE(editor.lastCheck().requests.at(0).selectorErrors.empty());
    EXPECT_GT(editor.lastCheck().requests.at(0).matching, 0);
    EXPECT_NE(editor.lastCheck().release.find("DRAConsumableCapacity=true"), std::string::npos)
        << editor.lastCheck().release;

    // Another release, as asked.
    checked.clear();
    editor.featureGates()->clear();
    editor.releaseChoice()->setCurrentIndex(
        editor.releaseChoice()->findData(QStringLiteral("1.36")));
    ASSERT_TRUE(checked.wait(30000));
    EXPECT_EQ(editor.lastCheck().kubernetesMinor, 36);
    EXPECT_NE(editor.lastCheck().release.find("as asked"), std::string::npos)
        << editor.lastCheck().release;

    // A gate Kubernetes would refuse: nothing is checked, and the reason is said.
    checked.clear();
    editor.featureGates()->setText(QStringLiteral("NoSuchGate=true"));
    Q_EMIT editor.featureGates()->editingFinished();
    ASSERT_TRUE(checked.wait(30000));
    EXPECT_NE(editor.lastCheck().error.find("NoSuchGate"), std::string::npos)
        << editor.lastCheck().error;
    EXPECT_TRUE(editor.lastCheck().requests.empty());
}

TEST(TemplateEditorTest, NegativeControlTabShowsTheManifestAndItsCheck)
{
    TemplateEditor editor;
    NegativeControlPanel *panel = editor.negativeControlPanel();
    ASSERT_NE(panel, nullptr);
    ASSERT_EQ(editor.resultTabs()->tabText(1), QStringLiteral("Negative control"));
    // The tab computes while it is shown.
    editor.resultTabs()->setCurrentIndex(1);
    editor.show();
    QSignalSpy updated(panel, &NegativeControlPanel::updated);
    editor.setSnapshot(test::mixedSnapshot());
    ASSERT_TRUE(updated.wait(30000));
    const NegativeControlResult &result = panel->lastResult();
    ASSERT_TRUE(result.control.has_value()) << result.error;
    EXPECT_GT(result.control->originalMatches, 0);
    EXPECT_EQ(result.control->negativeMatches, 0);
    EXPECT_FALSE(result.control->pendingReason.empty());
    EXPECT_TRUE(result.control->proves()) << result.control->verdict();
    EXPECT_TRUE(
        panel->manifestText().contains(QStringLiteral("name: one-gpu-40gi-negative-control")))
        << panel->manifestText().toStdString();
    EXPECT_TRUE(panel->summaryText().contains(QStringLiteral("negative control matches <b>0</b>")))
        << panel->summaryText().toStdString();
    EXPECT_TRUE(panel->summaryText().contains(QStringLiteral("Pending:")));

    // Text that is not a claim: the tab says why instead of showing a manifest.
    editor.setText(QStringLiteral("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n"));
    ASSERT_TRUE(updated.wait(30000));
    EXPECT_FALSE(panel->lastResult().control.has_value());
    EXPECT_TRUE(panel->manifestText().isEmpty());
    EXPECT_TRUE(panel->summaryText().contains(QStringLiteral("No negative control")));
}

TEST(TemplateEditorTest, SaveThenOpenRoundTrips)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    TemplateEditor editor;
    const QString text = withSelector(QStringLiteral("device.driver == \"gpu.nvidia.com\""));
    editor.setText(text);
    const QString path = dir.filePath(QStringLiteral("saved.yaml"));
    QString error;
    ASSERT_TRUE(editor.saveFile(path, &error)) << error.toStdString();
    EXPECT_EQ(editor.currentFile(), path);

    editor.setText(QStringLiteral("something else"));
    ASSERT_TRUE(editor.openFile(path, &error)) << error.toStdString();
    EXPECT_EQ(editor.text(), text);

    const QString missing = dir.filePath(QStringLiteral("missing.yaml"));
    EXPECT_FALSE(editor.openFile(missing, &error));
    EXPECT_TRUE(error.startsWith(missing)) << error.toStdString();
    EXPECT_EQ(editor.text(), text) << "a failed open must keep the text";
    EXPECT_FALSE(editor.saveFile(dir.filePath(QStringLiteral("no-such-dir/x.yaml")), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("no-such-dir"))) << error.toStdString();
}

} // namespace
} // namespace dra::views

namespace dra::views {
namespace {

TEST(TemplateEditorTest, LongExpressionsWrapUntilWrappingIsTurnedOff)
{
    TemplateEditor editor;
    editor.resize(1280, 800);
    editor.show();
    const QString expression = QStringLiteral(
        "          - cel:\n              expression: device.attributes[\"gpu.nvidia.com\"]"
        ".productName == \"NVIDIA H100 80GB HBM3\" && device.capacity[\"gpu.nvidia.com\"]"
        ".memory.compareTo(quantity(\"40Gi\")) >= 0 && device.attributes[\"gpu.nvidia.com\"]"
        ".architecture == \"Hopper\"\n");
    editor.setText(expression);
    QApplication::processEvents();
    ASSERT_NE(editor.wrapToggle(), nullptr);
    EXPECT_TRUE(editor.wrapToggle()->isChecked()) << "soft wrap is on by default";
    const QTextBlock line = editor.editor()->document()->findBlockByNumber(1);
    ASSERT_TRUE(line.text().contains(QStringLiteral("expression:")));
    EXPECT_GT(line.layout()->lineCount(), 1) << "the expression wraps inside the pane";

    editor.wrapToggle()->setChecked(false);
    QApplication::processEvents();
    EXPECT_EQ(editor.editor()->lineWrapMode(), QPlainTextEdit::NoWrap);
    EXPECT_EQ(editor.editor()->document()->findBlockByNumber(1).layout()->lineCount(), 1);
}

} // namespace
} // namespace dra::views
