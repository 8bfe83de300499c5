// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/claims/claim_list_model.h"

#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

#include "tests/views/views_test_main.h"
#include "views/claims/claim_details.h"

namespace dra::views {
namespace {

TEST(ClaimListModelTest, ClaimsWithTheirStateDevicesAndNode)
{
    const inventory::SnapshotPtr snapshot = test::mixedSnapshot();
    ClaimListModel model(model::Kind::ResourceClaim);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.reset(snapshot);
    const auto claims = snapshot->objects(model::Kind::ResourceClaim);
    ASSERT_EQ(model.rowCount(), int(claims.size()));
    ASSERT_GT(model.rowCount(), 0);
    int allocated = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const model::Object *object = model.objectAt(row);
        const auto *claim = object->as<model::ResourceClaim>();
        ASSERT_NE(claim, nullptr);
        const QString phase = model.index(row, ClaimListModel::Phase).data().toString();
        if (!claim->allocation) {
            EXPECT_EQ(phase, QStringLiteral("pending"));
            EXPECT_TRUE(model.index(row, ClaimListModel::Devices).data().toString().isEmpty());
            continue;
        }
        ++allocated;
        EXPECT_NE(phase, QStringLiteral("pending"));
        const auto &first = claim->allocation->results.front();
        EXPECT_TRUE(model.index(row, ClaimListModel::Devices)
                        .data()
                        .toString()
                        .contains(QString::fromStdString(first.device)));
        const auto *device = snapshot->device({ first.driver, first.pool, first.device });
        if (device && !device->node.empty()) {
            EXPECT_EQ(model.index(row, ClaimListModel::Node).data().toString().toStdString(),
                device->node);
        }
        const QString html = claimDetailsHtml(*snapshot, *object);
        EXPECT_TRUE(html.contains(QString::fromStdString(first.device)));
    }
    EXPECT_GT(allocated, 0);
}

TEST(ClaimListModelTest, TemplatesListTheirRequests)
{
    const inventory::SnapshotPtr snapshot = test::mixedSnapshot();
    ClaimListModel model(model::Kind::ResourceClaimTemplate);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.reset(snapshot);
    ASSERT_EQ(model.rowCount(), int(snapshot->objects(model::Kind::ResourceClaimTemplate).size()));
    for (int row = 0; row < model.rowCount(); ++row) {
        const auto *tmpl = model.objectAt(row)->as<model::ResourceClaimTemplate>();
        ASSERT_NE(tmpl, nullptr);
        ASSERT_FALSE(tmpl->spec.requests.empty());
        EXPECT_TRUE(model.index(row, ClaimListModel::Requests)
                        .data()
                        .toString()
                        .contains(QString::fromStdString(tmpl->spec.requests.front().name)));
    }
}

} // namespace
} // namespace dra::views
