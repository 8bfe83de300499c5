// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The window on a cache file offline: the page on screen is filled when the data arrives, the
// others once it has painted, and any page as soon as it is shown.
#include "app/console/main_window.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "app/console/console_session.h"
#include "core/store/cache_db.h"
#include "tests/support/inventory_fixtures.h"
#include "tests/views/console_demo_support.h"
#include "views/claims/claim_browser.h"
#include "views/claims/claim_list_model.h"
#include "views/inventory/device_browser.h"
#include "views/inventory/device_table_model.h"

namespace dra::test {
namespace {

TEST(MainWindowTest, ThePageOnScreenIsFilledFirstAndEveryPageBeforeItIsShown)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.db"));
    {
        Result<store::CacheDb> cache = store::CacheDb::open(path, store::OpenMode::ReadWrite);
        ASSERT_TRUE(cache.has_value()) << cache.error().message.toStdString();
        model::WatchBatch batch { .cluster = "lab" };
        for (model::ObjectRecord &record : recordsOf(presetList("mixed", 1)))
            batch.changes.push_back({ model::ChangeType::Added, std::move(record) });
        ASSERT_TRUE(cache->apply(batch).has_value());
    }
    console::SessionOptions options;
    options.mode = console::SessionOptions::Mode::Cache;
    options.cachePath = path;
    console::ConsoleSession session(options);
    console::MainWindow window(&session);
    window.showPage(console::MainWindow::Overview);

    // Connected after the window's own slot: runs right after it filled the page on screen,
    // before any later turn of the event loop.
    size_t devices = 0;
    int devicesRowsAtLoad = -1, devicesRowsWhenShown = -1, claimsRowsAtLoad = -1;
    QObject::connect(&session, &console::ConsoleSession::loaded, &window, [&] {
        devices = session.inventory()->snapshot()->devices().size();
        devicesRowsAtLoad = window.deviceBrowser()->tableModel()->rowCount();
        claimsRowsAtLoad = window.claimBrowser()->listModel()->rowCount();
        window.showPage(console::MainWindow::Devices);
        devicesRowsWhenShown = window.deviceBrowser()->tableModel()->rowCount();
    });
    session.start();
    ASSERT_TRUE(consoleWaitUntil([&] { return devicesRowsWhenShown >= 0; }))
        << "the cache never loaded";
    ASSERT_GT(devices, 0u);
    EXPECT_EQ(devicesRowsAtLoad, 0) << "the Devices page waits until the overview has painted";
    EXPECT_EQ(claimsRowsAtLoad, 0);
    EXPECT_EQ(devicesRowsWhenShown, int(devices)) << "a page is filled before it shows";
    // The pages not shown are filled soon after.
    EXPECT_TRUE(
        consoleWaitUntil([&] { return window.claimBrowser()->listModel()->rowCount() > 0; }, 5000));
}

} // namespace
} // namespace dra::test
