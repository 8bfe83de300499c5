// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/template_editor.h"

#include <QPlainTextEdit>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include "tests/views/views_test_main.h"

namespace dra::views {
namespace {

QString withSelector(const QString &expression)
{
    QString text = TemplateEditor::exampleTemplate();
    const qsizetype at = text.indexOf(QStringLiteral("expression: "));
    return text.left(at) + QStringLiteral("expression: ") + expression + QLatin1Char('\n');
}

TEST(TemplateCheckTest, ExampleTemplateMatchesAndFits)
{
    ClusterIndexCache clusters;
    const TemplateCheck check = checkTemplate(test::mixedSnapshot(), TemplateEditor::exampleTemplate().toStdString(), clusters);
    ASSERT_TRUE(check.error.empty()) << check.error;
    ASSERT_EQ(check.requests.size(), 1u);
    EXPECT_TRUE(check.requests[0].classExists);
    EXPECT_GT(check.requests[0].matching, 0);
    EXPECT_LE(check.requests[0].matching, check.requests[0].ofClass);
    ASSERT_TRUE(check.simulated);
    EXPECT_GT(check.copiesThatFit, 0);
    EXPECT_FALSE(check.nodesWhereOneFits.empty());
    EXPECT_FALSE(check.firstPlacementNode.empty());
}

TEST(TemplateCheckTest, ImpossibleSelectorIsExplainedPerNode)
{
    ClusterIndexCache clusters;
    const TemplateCheck check = checkTemplate(
        test::mixedSnapshot(),
        withSelector(QStringLiteral("device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"4Ti\")) >= 0")).toStdString(),
        clusters);
    ASSERT_TRUE(check.error.empty()) << check.error;
    EXPECT_EQ(check.requests[0].matching, 0);
    EXPECT_EQ(check.copiesThatFit, 0);
    EXPECT_FALSE(check.blocked.empty());
    EXPECT_FALSE(check.explanation.empty());
    EXPECT_TRUE(templateCheckHtml(check).contains(QStringLiteral("Cannot be allocated")));
}

TEST(TemplateCheckTest, BrokenTextAndWrongKindAreClearErrors)
{
    ClusterIndexCache clusters;
    EXPECT_NE(checkTemplate(test::a100Snapshot(), "kind: [unclosed", clusters).error, "");
    const TemplateCheck pod = checkTemplate(test::a100Snapshot(),
                                            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n", clusters);
    EXPECT_NE(pod.error.find("expected a ResourceClaimTemplate"), std::string::npos) << pod.error;
    const TemplateCheck selector = checkTemplate(test::a100Snapshot(), withSelector(QStringLiteral("device.driver ==")).toStdString(), clusters);
    ASSERT_EQ(selector.requests.size(), 1u);
    ASSERT_EQ(selector.requests[0].selectorErrors.size(), 1u);
    EXPECT_EQ(selector.requests[0].selectorErrors[0].rfind("selectors[0]: ", 0), 0u);
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

} // namespace
} // namespace dra::views
