// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/demo_ages.h"

#include <algorithm>

#include <QDateTime>

#include <gtest/gtest.h>

#include "core/inventory/age.h"
#include "tests/views/views_test_main.h"
#include "views/claims/claim_list_model.h"

namespace dra::views {
namespace {

qint64 secondsOld(const std::string &timestamp, qint64 nowSeconds)
{
    const QDateTime time = QDateTime::fromString(QString::fromStdString(timestamp), Qt::ISODate);
    EXPECT_TRUE(time.isValid()) << timestamp;
    return nowSeconds - time.toSecsSinceEpoch();
}

TEST(DemoAgesTest, ClaimsAndPodsAreMinutesOldNodesAndSlicesDays)
{
    test::json list = test::presetList("mixed", 2);
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    sandbox::dateDemoObjects(list["items"], now * 1000);
    const inventory::SnapshotPtr snapshot = test::snapshotOf(list);

    // Nodes and the slices their drivers publish have been up for days.
    int dated = 0;
    for (const test::json &item : list["items"]) {
        const std::string kind = item.value("kind", "");
        if (kind != "Node" && kind != "ResourceSlice")
            continue;
        const std::string created = item["metadata"]["creationTimestamp"];
        EXPECT_GE(secondsOld(created, now), 24 * 3600) << kind << " " << item["metadata"]["name"];
        EXPECT_LT(secondsOld(created, now), 200 * 24 * 3600);
        ++dated;
    }
    EXPECT_GT(dated, 2);

    // The claims table reads minutes for the newest and hours at most for the oldest.
    ClaimListModel claims(model::Kind::ResourceClaim);
    claims.reset(snapshot);
    ASSERT_GT(claims.rowCount(), 1);
    qint64 newest = 1LL << 40, oldest = 0;
    QStringList ages;
    for (int row = 0; row < claims.rowCount(); ++row) {
        const qint64 age = secondsOld(claims.objectAt(row)->meta.creationTimestamp, now);
        newest = std::min(newest, age);
        oldest = std::max(oldest, age);
        ages << claims.index(row, ClaimListModel::Age).data().toString();
    }
    EXPECT_GE(newest, 60);
    EXPECT_LT(newest, 10 * 60) << "the newest claim is minutes old";
    EXPECT_LT(oldest, 24 * 3600);
    EXPECT_GT(oldest, newest) << "claims were not all made at once";
    EXPECT_TRUE(std::ranges::any_of(ages, [](const QString &age) { return age.endsWith(u'm'); }))
        << ages.join(u' ').toStdString();

    // What orders pods by creation time still finds them in name order, as with one timestamp.
    std::vector<std::pair<std::string, std::string>> pods; // creation, name
    for (const auto &pod : snapshot->objects(model::Kind::Pod))
        pods.emplace_back(pod->meta.creationTimestamp, pod->meta.name);
    ASSERT_GT(pods.size(), 1u);
    std::ranges::sort(pods);
    EXPECT_TRUE(std::ranges::is_sorted(
        pods, [](const auto &a, const auto &b) { return a.second < b.second; }));
}

TEST(DemoAgesTest, DatingIsTheSameForTheSameStart)
{
    test::json a = test::presetList("a100-mig");
    test::json b = a;
    sandbox::dateDemoObjects(a["items"], 1'800'000'000'000);
    sandbox::dateDemoObjects(b["items"], 1'800'000'000'000);
    EXPECT_EQ(a, b);
}

} // namespace
} // namespace dra::views
