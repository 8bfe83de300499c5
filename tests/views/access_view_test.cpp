// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The Access page presents core's access report: per namespace who may claim, per class its
// quota and verdict (the reason as tool tip), who writes the inventory, and the findings.
#include "views/inventory/access_view.h"

#include <QTreeWidget>

#include <gtest/gtest.h>

namespace dra::views::access_view_test {

inventory::AccessReport accessReport()
{
    inventory::AccessReport report;
    report.source = inventory::AccessSource::Rbac;
    report.sourceNote = "From the 4 Roles, ClusterRoles and bindings the cache holds.";
    inventory::NamespaceAccess batch;
    batch.ns = "batch";
    batch.claimAuthors = { { { "User", "root", "" }, "ClusterRoleBinding admins",
                               "ClusterRole cluster-admin", "", { "create" }, true },
        { { "Group", "batch-team", "" }, "RoleBinding batch/authors", "ClusterRole author", "batch",
            { "create" }, false } };
    inventory::ClassAccess gpu;
    gpu.className = "gpu.example.com";
    gpu.hard = 4;
    gpu.used = 1;
    gpu.quota = "devices";
    gpu.usable = true;
    gpu.why = "Group batch-team may create claims here; ResourceQuota devices allows 4 devices, "
              "1 in use.";
    inventory::ClassAccess mig;
    mig.className = "mig.example.com";
    mig.hard = 0;
    mig.used = 0;
    mig.blocked = true;
    mig.why = "ResourceQuota devices allows no devices of mig.example.com in batch.";
    batch.classes = { gpu, mig };
    report.namespaces = { batch };
    report.writers = { { "resourceslices",
        { { { "ServiceAccount", "driver", "gpu-operator" }, "ClusterRoleBinding driver",
            "ClusterRole driver", "", { "create" }, false } } } };
    report.findings = { { "WildcardDraGrant", inventory::AccessSeverity::Warning,
        { "Group", "platform", "" }, "ClusterRoleBinding platform", "ClusterRole everything",
        "Group platform is granted * on * of resource.k8s.io <b>everywhere</b>." } };
    return report;
}

TEST(AccessViewTest, NamespacesClassesWritersAndFindingsAsCoreSaysThem)
{
    AccessView view;
    view.setReport(accessReport());
    EXPECT_EQ(view.sourceNote(),
        QStringLiteral("From the 4 Roles, ClusterRoles and bindings the cache holds."));
    QTreeWidget *namespaces = view.namespaces();
    ASSERT_EQ(namespaces->topLevelItemCount(), 1);
    const QTreeWidgetItem *batch = namespaces->topLevelItem(0);
    EXPECT_EQ(batch->text(AccessView::NameColumn), QStringLiteral("batch"));
    // The admin is not named: admins may claim anything anywhere.
    EXPECT_EQ(batch->text(AccessView::WhoColumn), QStringLiteral("Group batch-team"));
    EXPECT_EQ(batch->text(AccessView::VerdictColumn), QStringLiteral("1 of 2 classes usable"));
    ASSERT_EQ(batch->childCount(), 2);
    EXPECT_EQ(batch->child(0)->text(AccessView::QuotaColumn), QStringLiteral("1/4"));
    EXPECT_EQ(batch->child(0)->text(AccessView::VerdictColumn), QStringLiteral("usable"));
    EXPECT_EQ(batch->child(1)->text(AccessView::VerdictColumn), QStringLiteral("blocked by quota"));
    EXPECT_TRUE(batch->child(1)
                    ->toolTip(AccessView::VerdictColumn)
                    .contains(QStringLiteral("allows no devices of mig.example.com")));

    ASSERT_EQ(view.writers()->topLevelItemCount(), 1);
    EXPECT_EQ(view.writers()->topLevelItem(0)->text(1),
        QStringLiteral("ServiceAccount gpu-operator/driver"));
    ASSERT_EQ(view.findings()->topLevelItemCount(), 1);
    EXPECT_EQ(view.findings()->topLevelItem(0)->text(0), QStringLiteral("warning"));
    // A finding's text is shown as it is, never as markup.
    EXPECT_TRUE(view.findings()->topLevelItem(0)->text(2).contains(QStringLiteral("<b>")));

    // An update keeps the namespaces the user opened.
    namespaces->topLevelItem(0)->setExpanded(true);
    view.setReport(accessReport());
    EXPECT_TRUE(view.namespaces()->topLevelItem(0)->isExpanded());
}

} // namespace dra::views::access_view_test
