// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/overview_summary.h"

#include <map>

#include <QSignalSpy>
#include <QToolButton>

#include <gtest/gtest.h>

#include "tests/views/views_test_main.h"

namespace dra::views {
namespace {

// The figures an admin expects, counted here from the published devices and the claims.
struct Expected
{
    int gpus = 0, freeGpus = 0, allocatedGpus = 0, nics = 0, claims = 0, pending = 0;
    std::map<std::string, int> freeByProfile;
};

Expected countOf(const inventory::Snapshot &snapshot)
{
    Expected expected;
    for (const inventory::Device *device : snapshot.devices()) {
        const inventory::DeviceState state = snapshot.state(*device);
        if (const std::string profile = device->profile(); !profile.empty()) {
            expected.freeByProfile[profile] += state == inventory::DeviceState::Free;
        } else if (device->type() == "gpu") {
            ++expected.gpus;
            expected.freeGpus += state == inventory::DeviceState::Free;
            expected.allocatedGpus += state == inventory::DeviceState::Allocated;
        } else if (device->key.driver == "dra.net") {
            ++expected.nics;
        }
    }
    for (const auto &object : snapshot.objects(model::Kind::ResourceClaim)) {
        ++expected.claims;
        const auto *claim = object->as<model::ResourceClaim>();
        expected.pending += claim && !claim->allocation && claim->reservedFor.empty();
    }
    return expected;
}

const SummaryTile *tileFor(const std::vector<SummaryTile> &tiles, const QString &target)
{
    for (const SummaryTile &tile : tiles)
        if (tile.target == target)
            return &tile;
    return nullptr;
}

TEST(OverviewSummaryTest, FiguresMatchTheInventory)
{
    for (const inventory::SnapshotPtr &snapshot : { test::mixedSnapshot(), test::a100Snapshot() }) {
        const Expected expected = countOf(*snapshot);
        ASSERT_GT(expected.gpus, 0);
        const inventory::ClusterOverview overview = inventory::clusterOverview(*snapshot);
        EXPECT_EQ(overview.totals.gpus.wholeTotal, expected.gpus);
        EXPECT_EQ(overview.totals.gpus.wholeFree, expected.freeGpus);
        EXPECT_EQ(overview.totals.gpus.allocated, expected.allocatedGpus);
        EXPECT_EQ(overview.totals.nics.devices, expected.nics);
        EXPECT_EQ(overview.claims, expected.claims);
        EXPECT_EQ(overview.pendingClaims, expected.pending);

        const auto tiles = summaryTiles(overview, QStringLiteral("live: 9/9 streams watching"));
        const SummaryTile *gpus = tileFor(tiles, QStringLiteral("devices:gpu"));
        ASSERT_NE(gpus, nullptr);
        EXPECT_TRUE(gpus->figure.startsWith(QStringLiteral("%1 total · %2 free · %3 allocated")
                                                .arg(expected.gpus)
                                                .arg(expected.freeGpus)
                                                .arg(expected.allocatedGpus)))
            << gpus->figure.toStdString();
        const SummaryTile *claims = tileFor(tiles, QStringLiteral("claims:pending"));
        ASSERT_NE(claims, nullptr);
        EXPECT_EQ(claims->figure,
            QStringLiteral("%1 pending of %2").arg(expected.pending).arg(expected.claims));
        const SummaryTile *mig = tileFor(tiles, QStringLiteral("devices:mig"));
        EXPECT_EQ(mig != nullptr, !expected.freeByProfile.empty());
        for (const auto &[profile, free] : expected.freeByProfile)
            EXPECT_TRUE(mig->figure.contains(
                QStringLiteral("%1 %2 free").arg(QString::fromStdString(profile)).arg(free)))
                << profile << ": " << mig->figure.toStdString();
        const SummaryTile *streams = tileFor(tiles, QStringLiteral("streams"));
        ASSERT_NE(streams, nullptr);
        EXPECT_EQ(streams->figure, QStringLiteral("live: 9/9 streams watching"));
        EXPECT_NE(tileFor(tiles, QStringLiteral("lint")), nullptr);
    }
}

TEST(OverviewSummaryTest, EachFigureOpensItsPage)
{
    OverviewSummary summary;
    summary.setOverview(inventory::clusterOverview(*test::mixedSnapshot()));
    QSignalSpy opened(&summary, &OverviewSummary::targetActivated);
    ASSERT_FALSE(summary.tiles().empty());
    for (const SummaryTile &tile : summary.tiles()) {
        QToolButton *button = summary.button(tile.target);
        ASSERT_NE(button, nullptr) << tile.target.toStdString();
        EXPECT_TRUE(button->text().contains(tile.figure));
        button->click();
        ASSERT_FALSE(opened.isEmpty());
        EXPECT_EQ(opened.takeLast().at(0).toString(), tile.target);
    }
    // A refresh with other figures reuses the buttons and shows the new text.
    summary.setOverview(inventory::clusterOverview(*test::a100Snapshot()));
    const SummaryTile *gpus = tileFor(summary.tiles(), QStringLiteral("devices:gpu"));
    ASSERT_NE(gpus, nullptr);
    EXPECT_TRUE(summary.button(gpus->target)->text().contains(gpus->figure));
}

} // namespace
} // namespace dra::views
