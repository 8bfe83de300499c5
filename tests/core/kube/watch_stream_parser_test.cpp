// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/watch_stream_parser.h"

#include <gtest/gtest.h>

namespace dra::kube {
namespace {

TEST(WatchStreamParserTest, SplitsEventsAcrossChunks)
{
    WatchStreamParser parser;
    parser.feed(R"({"type":"ADDED","object":{"metadata":)");
    EXPECT_TRUE(parser.takeEvents().empty());
    parser.feed(R"({"name":"gpu-0"}}})"
                "\n");
    std::vector<Result<WatchEvent>> events = parser.takeEvents();
    ASSERT_EQ(events.size(), 1u);
    ASSERT_TRUE(events[0].has_value());
    EXPECT_EQ(events[0]->type, WatchEvent::Type::Added);
    EXPECT_EQ(events[0]->object["metadata"]["name"], "gpu-0");
    EXPECT_EQ(parser.pendingBytes(), 0);
}

TEST(WatchStreamParserTest, ReadsSeveralEventsWithOrWithoutNewlines)
{
    WatchStreamParser parser;
    parser.feed(R"({"type":"MODIFIED","object":{"a":"}{\"x"}}{"type":"DELETED","object":{}})"
                "\n"
                R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}})");
    std::vector<Result<WatchEvent>> events = parser.takeEvents();
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events[0]->type, WatchEvent::Type::Modified);
    EXPECT_EQ(events[0]->object["a"], "}{\"x"); // braces inside strings do not end the event
    EXPECT_EQ(events[1]->type, WatchEvent::Type::Deleted);
    EXPECT_EQ(events[2]->type, WatchEvent::Type::Bookmark);
}

TEST(WatchStreamParserTest, MalformedOrUnknownEventsAreErrors)
{
    WatchStreamParser parser;
    parser.feed(R"({"type":"EXPLODED","object":{}})"
                "\n"
                R"({"type":"ADDED"})"
                "\n"
                "x");
    std::vector<Result<WatchEvent>> events = parser.takeEvents();
    ASSERT_EQ(events.size(), 3u);
    EXPECT_FALSE(events[0].has_value());
    EXPECT_FALSE(events[1].has_value());
    EXPECT_FALSE(events[2].has_value());
}

// One event cut short, the next on its own line: an error for the cut one, and every event
// after it read as usual (not swallowed into one endless document).
TEST(WatchStreamParserTest, ATruncatedEventIsAnErrorAndTheNextOnesAreStillRead)
{
    for (const char *truncated : { R"({"type":"ADDED","object":{"metadata":{"name":"b")",
             R"({"type":"ADDED","object":{"metadata":{"name":"b)",
             R"({"type":"ADDED","object":{"metadata":{"labels":[{"k":1})" }) {
        WatchStreamParser parser;
        const QByteArray stream
            = QByteArray(R"({"type":"ADDED","object":{"metadata":{"name":"a"}}})"
                         "\n")
            + QByteArray(truncated) + "\n"
            + R"({"type":"MODIFIED","object":{"metadata":{"name":"c","labels":[1,{"x":[]}]}}})"
              "\n";
        parser.feed(stream);
        std::vector<Result<WatchEvent>> events = parser.takeEvents();
        ASSERT_EQ(events.size(), 3u) << truncated;
        ASSERT_TRUE(events[0].has_value());
        EXPECT_EQ(events[0]->object["metadata"]["name"], "a");
        EXPECT_FALSE(events[1].has_value()) << truncated;
        ASSERT_TRUE(events[2].has_value()) << truncated;
        EXPECT_EQ(events[2]->type, WatchEvent::Type::Modified);
        EXPECT_EQ(events[2]->object["metadata"]["name"], "c");
        EXPECT_EQ(parser.pendingBytes(), 0);
    }
}

} // namespace
} // namespace dra::kube
