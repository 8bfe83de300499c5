// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What a served mirror's /readyz and /metrics say of its streams.
#include <gtest/gtest.h>

#include "core/kube/stream_health.h"

namespace dra::kube {
namespace {

StreamStatus slices(StreamState state, int objects = 0, const char *reason = "")
{
    StreamStatus status;
    status.kind = model::Kind::ResourceSlice;
    status.state = state;
    status.objects = objects;
    status.reason = QString::fromLatin1(reason);
    return status;
}

TEST(StreamHealthTest, CountsBrokenWatchesAndRelistsAndTimeBehind)
{
    StreamHealth health;
    health.update(slices(StreamState::Listing), 1'000);
    EXPECT_EQ(health.unready(), std::vector<std::string> { "ResourceSlice: listing" });
    health.update(slices(StreamState::Synced, 12), 2'000);
    health.update(slices(StreamState::Watching, 12), 2'100);
    EXPECT_TRUE(health.unready().empty());
    const StreamHealth::Entry &entry = health.entries().begin()->second;
    EXPECT_EQ(StreamHealth::lagMs(entry, 9'000), 0);

    // The watch breaks: behind the cluster from then on, until it watches again.
    health.update(slices(StreamState::Stale, 12, "connection reset"), 10'000);
    EXPECT_EQ(
        health.unready(), std::vector<std::string> { "ResourceSlice: stale: connection reset" });
    EXPECT_EQ(StreamHealth::lagMs(entry, 12'500), 2'500);
    health.update(slices(StreamState::Watching, 12), 13'000);
    EXPECT_EQ(StreamHealth::lagMs(entry, 14'000), 0);
    EXPECT_EQ(entry.watchRestarts, 1);
    EXPECT_EQ(entry.relists, 0);

    // Its history gone (410): it lists again, which is a relist and not a restart.
    health.update(slices(StreamState::Listing, 12), 20'000);
    health.update(slices(StreamState::Synced, 14), 21'000);
    EXPECT_EQ(entry.relists, 1);
    EXPECT_EQ(entry.watchRestarts, 1);
    EXPECT_EQ(entry.status.objects, 14);
}

TEST(StreamHealthTest, ForbiddenStreamsAreSettledAndFirstListsAreNotRelists)
{
    StreamHealth health;
    StreamStatus pods = slices(StreamState::Forbidden, 0, "pods is forbidden");
    pods.kind = model::Kind::Pod;
    pods.ns = "ml";
    health.update(pods, 0);
    health.update(slices(StreamState::Listing), 0);
    health.update(slices(StreamState::Error, 0, "500 from the cluster"), 10);
    health.update(slices(StreamState::Listing), 20);
    EXPECT_EQ(health.unready(), std::vector<std::string> { "ResourceSlice: listing" });
    for (const auto &[key, entry] : health.entries())
        EXPECT_EQ(entry.relists, 0) << entry.status.label().toStdString();
}

} // namespace
} // namespace dra::kube
