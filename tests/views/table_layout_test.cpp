// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/common/table_layout.h"

#include <QApplication>
#include <QCoreApplication>
#include <QHeaderView>
#include <QSettings>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>

#include <gtest/gtest.h>

#include "tests/views/views_test_main.h"
#include "views/claims/claim_browser.h"
#include "views/claims/claim_list_model.h"
#include "views/inventory/device_browser.h"
#include "views/inventory/device_table_model.h"

namespace dra::views {
namespace {

// Settings go to a scratch location, never the user's.
class TableLayoutTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("dra-console-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("table-layout-test"));
        QSettings().clear();
    }
    void TearDown() override { QSettings().clear(); }
};

QStandardItemModel *namesModel(QObject *parent)
{
    auto *model = new QStandardItemModel(0, 3, parent);
    model->setHorizontalHeaderLabels(
        { QStringLiteral("Name"), QStringLiteral("Node"), QStringLiteral("State") });
    const QStringList names = { QStringLiteral("zeta-finetune-trainer-0"), QStringLiteral("alpha"),
        QStringLiteral("mid-sized-name") };
    for (int row = 0; row < names.size(); ++row)
        model->appendRow({ new QStandardItem(names[row]),
            new QStandardItem(QStringLiteral("h100-node-%1").arg(row)),
            new QStandardItem(row % 2 ? QStringLiteral("allocated") : QStringLiteral("free")) });
    return model;
}

// Every cell of `column` fits its column: nothing is elided.
void expectColumnFits(const QTableView &table, int column)
{
    const QFontMetrics metrics = table.fontMetrics();
    for (int row = 0; row < table.model()->rowCount(); ++row) {
        const QString text = table.model()->index(row, column).data().toString();
        EXPECT_LE(metrics.horizontalAdvance(text), table.columnWidth(column))
            << "column " << column << " cuts \"" << text.toStdString() << '"';
    }
}

TEST_F(TableLayoutTest, ColumnsFitTheirContentAndTheNameColumnTakesTheRest)
{
    QTableView table;
    table.setModel(namesModel(&table));
    TableLayout layout(&table, QStringLiteral("names"), 0);
    table.resize(900, 300);
    table.show();
    layout.fitToContentsOnce();
    QApplication::processEvents();

    expectColumnFits(table, 1);
    expectColumnFits(table, 2);
    EXPECT_EQ(table.horizontalHeader()->sectionResizeMode(0), QHeaderView::Stretch);
    EXPECT_EQ(table.horizontalHeader()->sectionResizeMode(1), QHeaderView::Interactive);
    // The name column gets the width the others leave.
    EXPECT_GT(table.columnWidth(0), table.columnWidth(1));
    expectColumnFits(table, 0);
}

TEST_F(TableLayoutTest, WidthsOrderAndSortAreRememberedPerTable)
{
    int nodeWidth = 0;
    {
        QTableView table;
        table.setModel(namesModel(&table));
        table.setSortingEnabled(true);
        TableLayout layout(&table, QStringLiteral("names"), 0);
        EXPECT_FALSE(layout.restored());
        table.resize(900, 300);
        table.show();
        layout.fitToContentsOnce();
        table.setColumnWidth(1, 233);
        table.horizontalHeader()->moveSection(2, 0);
        table.sortByColumn(0, Qt::DescendingOrder);
        nodeWidth = table.columnWidth(1);
    } // the layout writes what changed when it goes

    QTableView table;
    table.setModel(namesModel(&table));
    table.setSortingEnabled(true);
    TableLayout layout(&table, QStringLiteral("names"), 0);
    ASSERT_TRUE(layout.restored());
    table.resize(900, 300);
    table.show();
    layout.fitToContentsOnce(); // does not undo the user's widths
    EXPECT_EQ(table.columnWidth(1), nodeWidth);
    EXPECT_EQ(table.horizontalHeader()->visualIndex(2), 0);
    EXPECT_EQ(table.horizontalHeader()->sortIndicatorSection(), 0);
    EXPECT_EQ(table.horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    EXPECT_EQ(
        table.model()->index(0, 0).data().toString(), QStringLiteral("zeta-finetune-trainer-0"))
        << "the remembered sort is applied to the rows";

    // Another table's layout is its own.
    QTableView other;
    other.setModel(namesModel(&other));
    TableLayout otherLayout(&other, QStringLiteral("other"), 0);
    EXPECT_FALSE(otherLayout.restored());
}

TEST_F(TableLayoutTest, CutCellsGetTheirTextAsAPlainTooltip)
{
    QStandardItemModel model(1, 2);
    model.setItem(
        0, 0, new QStandardItem(QStringLiteral("<b>ns/claim</b> with a long name indeed")));
    model.setItem(0, 1, new QStandardItem(QStringLiteral("ok")));
    QTableView table;
    table.setModel(&model);
    table.setColumnWidth(0, 40);
    table.setColumnWidth(1, 200);
    table.show();
    auto *delegate = new CellToolTipDelegate(&table);
    const auto tipOf = [&](int column) {
        QStyleOptionViewItem option;
        option.initFrom(table.viewport());
        option.widget = &table;
        option.rect = table.visualRect(model.index(0, column));
        return delegate->toolTipFor(option, model.index(0, column));
    };
    EXPECT_TRUE(tipOf(1).isEmpty()) << "a cell that fits has no tooltip";
    const QString tip = tipOf(0);
    ASSERT_FALSE(tip.isEmpty()) << "a cut cell shows its text";
    // Shown literally: the markup in the data is escaped, not rendered.
    EXPECT_TRUE(tip.contains(QStringLiteral("&lt;b&gt;ns/claim&lt;/b&gt;"))) << tip.toStdString();
    EXPECT_FALSE(tip.contains(QStringLiteral("<b>")));
}

TEST_F(TableLayoutTest, DeviceDetailsPaneOpensAtTheFirstSelection)
{
    const inventory::SnapshotPtr snapshot = test::mixedSnapshot();
    DeviceBrowser browser;
    browser.resize(1280, 800);
    browser.show();
    browser.reset(snapshot);
    QApplication::processEvents();
    EXPECT_EQ(browser.splitter()->sizes().value(1), 0) << "nothing selected: the table has it all";
    ASSERT_TRUE(browser.selectDevice(snapshot->devices().front()->key));
    QApplication::processEvents();
    EXPECT_GT(browser.splitter()->sizes().value(1), 0);
    EXPECT_GT(browser.splitter()->sizes().value(0), browser.splitter()->sizes().value(1))
        << "the table keeps most of the width";
}

TEST_F(TableLayoutTest, MixedDemoShowsNodeAndStateUncut)
{
    DeviceBrowser devices;
    devices.resize(1280, 800);
    devices.show();
    devices.reset(test::mixedSnapshot());
    QApplication::processEvents();
    expectColumnFits(*devices.table(), DeviceTableModel::Node);
    expectColumnFits(*devices.table(), DeviceTableModel::State);

    ClaimBrowser claims(model::Kind::ResourceClaim);
    claims.resize(1280, 800);
    claims.show();
    claims.reset(test::mixedSnapshot());
    QApplication::processEvents();
    ASSERT_GT(claims.table()->model()->rowCount(), 0);
    expectColumnFits(*claims.table(), ClaimListModel::Node);
    expectColumnFits(*claims.table(), ClaimListModel::Phase);
    expectColumnFits(*claims.table(), ClaimListModel::Name);
    EXPECT_EQ(claims.splitter()->sizes().value(1), 0);
}

} // namespace
} // namespace dra::views
