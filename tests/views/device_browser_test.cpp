// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/device_browser.h"

#include <QAbstractButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTextBrowser>

#include <gtest/gtest.h>

#include "tests/support/inventory_fixtures.h"
#include "tests/views/views_test_main.h"
#include "views/common/selector_runner.h"
#include "views/common/table_layout.h"
#include "views/editor/cel_editor.h"
#include "views/inventory/device_filter_model.h"
#include "views/inventory/device_table_model.h"

namespace dra::views {
namespace {

// Types a selector and waits for the sweep the debounce starts.
void typeSelector(DeviceBrowser &browser, const QString &expression)
{
    QSignalSpy done(browser.selectorRunner(), &SelectorRunner::finished);
    browser.setSelectorFilter(expression);
    ASSERT_TRUE(done.wait(10000)) << "no result for " << expression.toStdString();
}

TEST(DeviceBrowserTest, SelectorFilterShowsExactlyTheMatchingDevices)
{
    const inventory::SnapshotPtr snapshot = test::mixedSnapshot();
    DeviceBrowser browser;
    browser.reset(snapshot);
    const QString expression = QStringLiteral(
        "device.driver == \"gpu.nvidia.com\" && "
        "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0");
    typeSelector(browser, expression);

    const inventory::SelectorSweep expected
        = inventory::sweepSelector(*snapshot, expression.toStdString());
    ASSERT_TRUE(expected.valid);
    ASSERT_GT(expected.matches.size(), 0u);
    EXPECT_EQ(browser.filterModel()->rowCount(), int(expected.matches.size()));
    EXPECT_TRUE(browser.selectorEditor()->diagnostics().empty());
    EXPECT_TRUE(
        browser.statusText().contains(QStringLiteral("matches %1 of").arg(expected.matches.size())))
        << browser.statusText().toStdString();
}

TEST(DeviceBrowserTest, BrokenSelectorShowsDiagnosticsAndKeepsTheLastGoodFilterOff)
{
    DeviceBrowser browser;
    browser.reset(test::a100Snapshot());
    typeSelector(browser, QStringLiteral("device.driver == "));
    ASSERT_FALSE(browser.selectorEditor()->diagnostics().empty());
    EXPECT_EQ(
        browser.selectorEditor()->diagnostics().front().severity, cel::Diagnostic::Severity::Error);
    EXPECT_FALSE(browser.selectorEditor()->extraSelections().isEmpty())
        << "the error is underlined";
    EXPECT_TRUE(browser.statusText().contains(QStringLiteral("does not compile")));
}

TEST(DeviceBrowserTest, MisspelledAttributeWarnsWithASuggestion)
{
    DeviceBrowser browser;
    browser.reset(test::a100Snapshot());
    typeSelector(
        browser, QStringLiteral("device.attributes[\"gpu.nvidia.com\"].prodctName == \"x\""));
    const auto &diagnostics = browser.selectorEditor()->diagnostics();
    ASSERT_FALSE(diagnostics.empty());
    EXPECT_EQ(diagnostics.back().severity, cel::Diagnostic::Severity::Warning);
    EXPECT_NE(diagnostics.back().message.find("did you mean \"productName\""), std::string::npos)
        << diagnostics.back().message;
}

TEST(DeviceBrowserTest, SelectDeviceSelectsItsRow)
{
    const inventory::SnapshotPtr snapshot = test::a100Snapshot();
    DeviceBrowser browser;
    browser.reset(snapshot);
    const inventory::Device *last = snapshot->devices().back();
    QSignalSpy selected(&browser, &DeviceBrowser::deviceSelected);
    ASSERT_TRUE(browser.selectDevice(last->key));
    const QModelIndex current = browser.table()->currentIndex();
    EXPECT_EQ(current.data(DeviceTableModel::DeviceKeyRole).toStringList().value(2).toStdString(),
        last->key.device);
    EXPECT_GE(selected.count(), 1);
    EXPECT_FALSE(browser.selectDevice({ "nope", "nope", "nope" }));
}

} // namespace
} // namespace dra::views

namespace dra::views {
namespace {

TEST(DeviceBrowserTest, OneClickShowsOnlyOneKindOfDevice)
{
    const inventory::SnapshotPtr snapshot = test::mixedSnapshot();
    DeviceBrowser browser;
    browser.reset(snapshot);
    // Counted from the published attributes, apart from the console's classification.
    int gpus = 0, nics = 0;
    for (const inventory::Device *device : snapshot->devices()) {
        if (device->type() == "gpu" && device->profile().empty())
            ++gpus;
        if (device->key.driver == "dra.net")
            ++nics;
    }
    ASSERT_GT(gpus, 0);
    ASSERT_GT(nics, 0);

    browser.kindButton(inventory::DeviceCategory::Gpu)->click();
    EXPECT_EQ(browser.filterModel()->rowCount(), gpus);
    EXPECT_TRUE(browser.kindButton(inventory::DeviceCategory::Gpu)->isChecked());
    browser.kindButton(inventory::DeviceCategory::Nic)->click();
    EXPECT_EQ(browser.filterModel()->rowCount(), nics);
    EXPECT_FALSE(browser.kindButton(inventory::DeviceCategory::Gpu)->isChecked());
    EXPECT_TRUE(browser.statusText().contains(
        QStringLiteral("%1 of %2").arg(nics).arg(snapshot->devices().size())))
        << browser.statusText().toStdString();
    browser.kindButton(std::nullopt)->click();
    EXPECT_EQ(browser.filterModel()->rowCount(), int(snapshot->devices().size()));
}

} // namespace
} // namespace dra::views

namespace dra::views {
namespace {

// Attribute values come from whoever may publish a ResourceSlice: markup in them is shown as
// the text it is, in the details pane and in the table's tooltips, never rendered.
TEST(DeviceBrowserTest, MarkupInAttributeValuesIsShownAsText)
{
    using test::json;
    const std::string markup = "<b>x</b><script>alert(1)</script>";
    const std::string image = "<img src=x onerror=alert(1)>";
    const json slice = test::sliceObject("n1", "n1",
        { test::gpuDevice("gpu-1",
            { { "productName", { { "string", markup } } },
                { "note", { { "string", image } } } }) });
    const inventory::SnapshotPtr snapshot
        = test::snapshotOf(test::listOf({ test::nodeObject("n1"), slice }));
    ASSERT_EQ(snapshot->devices().size(), 1u);
    DeviceBrowser browser;
    browser.resize(1280, 800);
    browser.show();
    browser.reset(snapshot);
    ASSERT_TRUE(browser.selectDevice(snapshot->devices().front()->key));
    QCoreApplication::processEvents();
    QTextBrowser *details = nullptr;
    for (QTextBrowser *candidate : browser.findChildren<QTextBrowser *>()) {
        if (candidate->toPlainText().contains(QStringLiteral("gpu-1")))
            details = candidate;
    }
    ASSERT_NE(details, nullptr) << "no details pane shows the selected device";
    EXPECT_TRUE(details->toPlainText().contains(QString::fromStdString(markup)))
        << details->toPlainText().toStdString();
    EXPECT_TRUE(details->toPlainText().contains(QString::fromStdString(image)));

    // The table's cells that hold the value show it, and their tooltips (a narrow column shows
    // the whole text in one) escape it.
    QTableView *table = browser.table();
    auto *delegate = qobject_cast<CellToolTipDelegate *>(table->itemDelegate());
    ASSERT_NE(delegate, nullptr);
    int cells = 0;
    for (int column = 0; column < table->model()->columnCount(); ++column) {
        const QModelIndex index = table->model()->index(0, column);
        if (!index.data().toString().contains(QStringLiteral("<script>")))
            continue;
        ++cells;
        table->setColumnWidth(column, 20);
        QStyleOptionViewItem option;
        option.initFrom(table->viewport());
        option.widget = table;
        option.rect = table->visualRect(index);
        const QString tip = delegate->toolTipFor(option, index);
        ASSERT_FALSE(tip.isEmpty());
        EXPECT_FALSE(tip.contains(QStringLiteral("<script>"))) << tip.toStdString();
        EXPECT_TRUE(tip.contains(QStringLiteral("&lt;script&gt;"))) << tip.toStdString();
    }
    EXPECT_GT(cells, 0) << "no column shows the product name";
}

} // namespace
} // namespace dra::views
