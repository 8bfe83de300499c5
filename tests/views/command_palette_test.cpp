// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/common/command_palette.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QTest>

#include <gtest/gtest.h>

namespace dra::views {
namespace {

std::vector<PaletteEntry> entries(int *ran)
{
    return { { QStringLiteral("Topology"), QStringLiteral("view"), [ran] { *ran = 1; } },
        { QStringLiteral("h100-003"), QStringLiteral("node topology"), [ran] { *ran = 2; } },
        { QStringLiteral("ml/train-h100"), QStringLiteral("ResourceClaim"), [ran] { *ran = 3; } } };
}

TEST(PaletteModelTest, EveryWordMustMatchAndPrefixMatchesComeFirst)
{
    int ran = 0;
    PaletteModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setEntries(entries(&ran));
    EXPECT_EQ(model.rowCount(), 3);
    model.setQuery(QStringLiteral("h100"));
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.entryAt(0)->title, QStringLiteral("h100-003")); // starts with the query
    model.setQuery(QStringLiteral("claim h100"));
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.entryAt(0)->title, QStringLiteral("ml/train-h100"));
    model.setQuery(QStringLiteral("nothing-like-it"));
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.entryAt(0), nullptr);
}

TEST(CommandPaletteTest, TypingAndEnterRunsTheFirstMatch)
{
    int ran = 0;
    CommandPalette palette;
    palette.open(entries(&ran));
    QTest::keyClicks(palette.queryEdit(), QStringLiteral("train"));
    EXPECT_EQ(palette.model().rowCount(), 1);
    QTest::keyClick(palette.queryEdit(), Qt::Key_Return);
    EXPECT_EQ(ran, 3);
    EXPECT_FALSE(palette.isVisible());
}

} // namespace
} // namespace dra::views
