// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include <gtest/gtest.h>

#include "core/kube/stream_summary.h"

namespace dra::kube {
namespace {

StreamStatus stream(model::Kind kind, StreamState state, std::string ns = {}, int objects = 0)
{
    StreamStatus status;
    status.kind = kind;
    status.state = state;
    status.ns = std::move(ns);
    status.objects = objects;
    return status;
}

TEST(StreamSummaryTest, AllWatchingIsLive)
{
    const QString text
        = summarizeStreams({ stream(model::Kind::ResourceSlice, StreamState::Watching),
            stream(model::Kind::Pod, StreamState::Watching) });
    EXPECT_EQ(text, QStringLiteral("live: 2/2 streams watching"));
}

TEST(StreamSummaryTest, ListingAndTroubleAreNamedNeverHidden)
{
    const QString text
        = summarizeStreams({ stream(model::Kind::ResourceSlice, StreamState::Listing, {}, 4200),
            stream(model::Kind::Pod, StreamState::Stale),
            stream(model::Kind::Event, StreamState::Forbidden, "ml"),
            stream(model::Kind::Node, StreamState::Watching) });
    EXPECT_TRUE(text.startsWith(QStringLiteral("1/4 streams watching"))) << text.toStdString();
    EXPECT_FALSE(text.startsWith(QStringLiteral("live"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("4200 objects"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("stale: "))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("forbidden: "))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("ml"))) << text.toStdString();
}

TEST(StreamSummaryTest, NoStreamsYetIsConnecting)
{
    EXPECT_EQ(summarizeStreams({}), QStringLiteral("connecting…"));
}

} // namespace
} // namespace dra::kube
