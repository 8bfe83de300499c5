// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/claims/claim_browser.h"

#include <QSignalSpy>
#include <QTableView>

#include <gtest/gtest.h>

#include "tests/views/views_test_main.h"
#include "views/claims/claim_list_model.h"

namespace dra::views {
namespace {

// Selecting a claim shows its details at once and then, computed off the GUI thread, the
// Pending diagnosis chain with the owner of each step and a verdict.
TEST(ClaimBrowserTest, SelectedClaimGetsItsDiagnosisChain)
{
    const inventory::SnapshotPtr snapshot = test::mixedSnapshot();
    ClaimBrowser browser(model::Kind::ResourceClaim);
    browser.reset(snapshot);
    ASSERT_GT(browser.listModel()->rowCount(), 0);
    // The preset's pending claim: its diagnosis must say why it is not allocated.
    int row = -1;
    for (int r = 0; r < browser.listModel()->rowCount(); ++r) {
        const auto *claim = browser.listModel()->objectAt(r)->as<model::ResourceClaim>();
        if (claim && !claim->allocation) {
            row = r;
            break;
        }
    }
    ASSERT_GE(row, 0) << "the mixed preset has a pending claim";
    const model::Object *object = browser.listModel()->objectAt(row);
    QSignalSpy shown(&browser, &ClaimBrowser::diagnosisShown);
    ASSERT_TRUE(browser.selectClaim(
        QString::fromStdString(object->meta.ns), QString::fromStdString(object->meta.name)));
    EXPECT_TRUE(browser.inspectorHtml().contains(QString::fromStdString(object->meta.name)));
    ASSERT_TRUE(shown.wait(60'000));
    const QString html = browser.inspectorHtml();
    EXPECT_TRUE(html.contains(QStringLiteral("Diagnosis"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("owner:"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("Verdict:"))) << html.toStdString();
    // The chain stops at allocation, owned by the scheduler.
    EXPECT_TRUE(html.contains(QStringLiteral("claim allocated"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("Stuck at"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("kube-scheduler"))) << html.toStdString();
}

} // namespace
} // namespace dra::views
