// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The Readiness page presents the report as core computes it: every check in order with its
// verdict, reason and next step, the facts below, and what the cluster says shown as text.
#include "views/inventory/readiness_view.h"

#include <QTreeWidget>

#include <gtest/gtest.h>

namespace dra::views {
namespace {

inventory::Readiness report()
{
    inventory::Readiness readiness;
    readiness.cluster = "prod";
    readiness.rev = 42;
    readiness.kubernetesVersion = "v1.34.2";
    inventory::ReadinessCheck release;
    release.id = "release";
    release.title = "Kubernetes release";
    release.verdict = inventory::Verdict::Ready;
    release.reason = "Kubernetes 1.34 has DRA GA and on by default.";
    release.details = { { "minor", 34 }, { "served", { "v1", "v1beta2" } } };
    inventory::ReadinessCheck drivers;
    drivers.id = "drivers";
    drivers.title = "DRA drivers";
    drivers.verdict = inventory::Verdict::NotReady;
    // A driver name as a cluster may publish it: shown as it is, never as markup.
    drivers.reason = "Node gpu-1 publishes <b>gpu</b><script>alert(1)</script> incompletely.";
    drivers.action = "Check the driver's pods on gpu-1.";
    drivers.details = { { "nodes", nlohmann::json::array({ { { "node", "gpu-1" } } }) } };
    readiness.checks = { release, drivers };
    return readiness;
}

TEST(ReadinessViewTest, EveryCheckInOrderWithVerdictReasonAndNextStep)
{
    ReadinessView view;
    view.setReadiness(report());
    EXPECT_EQ(view.headline(),
        QStringLiteral("Not ready — Kubernetes v1.34.2, cluster prod at revision 42"));
    QTreeWidget *checks = view.checks();
    ASSERT_EQ(checks->topLevelItemCount(), 2);
    const QTreeWidgetItem *release = checks->topLevelItem(0);
    EXPECT_EQ(release->text(0), QStringLiteral("Kubernetes release"));
    EXPECT_EQ(release->text(1), QStringLiteral("Ready"));
    const QTreeWidgetItem *drivers = checks->topLevelItem(1);
    EXPECT_EQ(drivers->text(1), QStringLiteral("Not ready"));
    ASSERT_GE(drivers->childCount(), 2);
    EXPECT_EQ(drivers->child(0)->text(0), QStringLiteral("Next step"));
    EXPECT_EQ(drivers->child(0)->text(2), QStringLiteral("Check the driver's pods on gpu-1."));
    // The facts: a list of scalars on one line, a list of objects as children.
    bool served = false;
    for (int i = 0; i < release->childCount(); ++i)
        served = served
            || (release->child(i)->text(0) == QLatin1String("served")
                && release->child(i)->text(2) == QLatin1String("v1, v1beta2"));
    EXPECT_TRUE(served);
    EXPECT_EQ(drivers->child(1)->text(0), QStringLiteral("nodes"));
    EXPECT_EQ(drivers->child(1)->child(0)->child(0)->text(2), QStringLiteral("gpu-1"));
}

TEST(ReadinessViewTest, WhatTheClusterSaysIsShownAsText)
{
    ReadinessView view;
    view.setReadiness(report());
    const QTreeWidgetItem *drivers = view.checks()->topLevelItem(1);
    const QString reason = QString::fromStdString(report().checks[1].reason);
    EXPECT_EQ(drivers->text(2), reason) << "item text is drawn as plain text";
    // Qt draws a tooltip that looks like HTML as HTML: the reason goes in escaped.
    const QString tip = drivers->toolTip(2);
    EXPECT_FALSE(tip.contains(QStringLiteral("<script>"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("&lt;script&gt;"))) << tip.toStdString();
}

TEST(ReadinessViewTest, OpenedChecksStayOpenWhenTheReportIsUpdated)
{
    ReadinessView view;
    view.setReadiness(report());
    view.checks()->topLevelItem(1)->setExpanded(true);
    view.setReadiness(report());
    EXPECT_TRUE(view.checks()->topLevelItem(1)->isExpanded());
    EXPECT_FALSE(view.checks()->topLevelItem(0)->isExpanded());
}

} // namespace
} // namespace dra::views
