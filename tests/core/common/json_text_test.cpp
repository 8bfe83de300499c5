// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/common/json_text.h"

#include <gtest/gtest.h>

TEST(JsonTextTest, MalformedJsonNamesOriginAndPosition)
{
    const auto parsed = dra::common::parseJson(R"({"a": [1, 2,}")", QStringLiteral("dump.json"));
    ASSERT_FALSE(parsed.has_value());
    EXPECT_TRUE(
        parsed.error().message.startsWith(QStringLiteral("dump.json: malformed JSON at byte 13")))
        << parsed.error().message.toStdString();
}

TEST(JsonTextTest, CompactIsOneLine)
{
    const auto parsed = dra::common::parseJson("{\n \"a\": \"x\\ny\"\n}", QStringLiteral("t"));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(dra::common::compactJson(*parsed), R"({"a":"x\ny"})");
}
