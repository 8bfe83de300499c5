// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Text the console colours must stay readable in both themes: WCAG AA asks for a contrast of at
// least 4.5:1 for normal text. Each check paints nothing; it reads the colours the views use (the
// models' foreground roles, the editor's syntax formats, the theme's verdict colours) and the
// backgrounds they are drawn on (the palette's Base, AlternateBase and Window).
#include "views/common/theme.h"

#include <QApplication>
#include <QPalette>

#include <gtest/gtest.h>

#include "core/inventory/lint.h"
#include "tests/views/views_test_main.h"
#include "views/editor/text_formats.h"
#include "views/inventory/device_table_model.h"
#include "views/inventory/findings_model.h"

namespace dra::views {
namespace {

constexpr double kWcagAA = 4.5;

QApplication &application()
{
    return *static_cast<QApplication *>(QCoreApplication::instance());
}

// Runs the body once per theme, and leaves the light theme behind for the other tests.
class ThemeContrastTest : public ::testing::TestWithParam<Theme>
{
protected:
    void SetUp() override { applyTheme(application(), GetParam()); }
    void TearDown() override { applyTheme(application(), Theme::Light); }

    static void expectReadable(const QColor &text, const char *what)
    {
        const QPalette palette = QApplication::palette();
        for (const auto &[role, name] : { std::pair { QPalette::Base, "Base" },
                 std::pair { QPalette::AlternateBase, "AlternateBase" },
                 std::pair { QPalette::Window, "Window" } }) {
            const QColor background = palette.color(role);
            EXPECT_GE(contrastRatio(text, background), kWcagAA)
                << what << " " << text.name().toStdString() << " on " << name << " "
                << background.name().toStdString() << " in the "
                << themeName(GetParam()).toStdString() << " theme";
        }
    }
};

TEST(ContrastRatioTest, FollowsWcagsDefinition)
{
    EXPECT_NEAR(contrastRatio(Qt::black, Qt::white), 21.0, 1e-9);
    EXPECT_NEAR(contrastRatio(Qt::white, Qt::white), 1.0, 1e-9);
    // WCAG's own example threshold: #767676 is the lightest grey that passes AA on white.
    EXPECT_GE(contrastRatio(QColor(0x76, 0x76, 0x76), Qt::white), kWcagAA);
    EXPECT_LT(contrastRatio(QColor(0x77, 0x77, 0x77), Qt::white), kWcagAA);
}

TEST_P(ThemeContrastTest, VerdictAndSecondaryTextReadOnEveryBackground)
{
    const ThemeColors &colors = themeColors();
    expectReadable(colors.okText, "okText");
    expectReadable(colors.warningText, "warningText");
    expectReadable(colors.errorText, "errorText");
    expectReadable(colors.mutedText, "mutedText");
    expectReadable(QApplication::palette().color(QPalette::Text), "Text");
    EXPECT_GE(contrastRatio(colors.mutedText, colors.groupFill), kWcagAA)
        << "a topology frame's detail on its fill";
    EXPECT_GE(contrastRatio(colors.text, colors.groupFill), kWcagAA)
        << "a topology frame's label on its fill";
}

TEST_P(ThemeContrastTest, TextOnDeviceFillsIsReadable)
{
    const ThemeColors &colors = themeColors();
    QList<QColor> fills { colors.free, colors.partlyUsed, colors.unmapped, colors.free.lighter(112),
        colors.linkNvlink.lighter(170) };
    for (int i = 0; i < 200; ++i)
        fills << holderColor(QStringLiteral("team-%1/claim-%2").arg(i % 7).arg(i));
    for (const QColor &fill : fills)
        EXPECT_GE(contrastRatio(textColorOn(fill), fill), kWcagAA) << fill.name().toStdString();
}

TEST_P(ThemeContrastTest, EditorSyntaxColoursReadOnTheEditorBackground)
{
    const SyntaxFormats formats = syntaxFormats();
    const QColor base = QApplication::palette().color(QPalette::Base);
    for (const auto &[format, name] :
        { std::pair { formats.keyword, "keyword" }, std::pair { formats.string, "string" },
            std::pair { formats.number, "number" }, std::pair { formats.comment, "comment" },
            std::pair { formats.identifier, "identifier" }, std::pair { formats.member, "member" },
            std::pair { formats.key, "key" }, std::pair { formats.punctuation, "punctuation" } })
        EXPECT_GE(contrastRatio(format.foreground().color(), base), kWcagAA)
            << name << " " << format.foreground().color().name().toStdString();
}

TEST_P(ThemeContrastTest, DeviceStatesInTheTableAreReadable)
{
    DeviceTableModel model;
    model.reset(test::a100Snapshot());
    int coloured = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QVariant foreground
            = model.index(row, DeviceTableModel::State).data(Qt::ForegroundRole);
        if (!foreground.isValid())
            continue; // allocated: the palette's own text colour
        ++coloured;
        expectReadable(foreground.value<QColor>(), "a device state");
    }
    EXPECT_GT(coloured, 0) << "the a100-mig preset has free devices";
}

TEST_P(ThemeContrastTest, LintSeveritiesAreReadable)
{
    FindingsModel model;
    model.setFindings({ { inventory::Severity::Error, "PoolIncomplete", "an error", {} },
        { inventory::Severity::Warning, "MixedDriverVersions", "a warning", {} } });
    ASSERT_EQ(model.rowCount(), 2);
    for (int row = 0; row < model.rowCount(); ++row) {
        const QVariant foreground
            = model.index(row, FindingsModel::Severity).data(Qt::ForegroundRole);
        ASSERT_TRUE(foreground.isValid()) << "errors and warnings stand out by colour";
        expectReadable(foreground.value<QColor>(), "a lint severity");
    }
}

INSTANTIATE_TEST_SUITE_P(BothThemes, ThemeContrastTest,
    ::testing::Values(Theme::Light, Theme::Dark), [](const ::testing::TestParamInfo<Theme> &info) {
        return themeName(info.param).toStdString();
    });

} // namespace
} // namespace dra::views
