// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/age.h"

#include <gtest/gtest.h>

using namespace dra::inventory;

TEST(AgeTest, ParsesRfc3339)
{
    EXPECT_EQ(parseTimestamp("1970-01-01T00:00:00Z"), 0);
    EXPECT_EQ(parseTimestamp("2000-03-01T00:00:00Z"), 951868800);
    EXPECT_EQ(
        parseTimestamp("2026-11-30T07:14:00.123456Z"), parseTimestamp("2026-11-30T07:14:00Z"));
    EXPECT_EQ(parseTimestamp("2026-11-30T09:14:00+02:00"), parseTimestamp("2026-11-30T07:14:00Z"));
    EXPECT_EQ(parseTimestamp(""), -1);
    EXPECT_EQ(parseTimestamp("2026-13-01T00:00:00Z"), -1);
    EXPECT_EQ(parseTimestamp("yesterday"), -1);
}

struct AgeCase
{
    int64_t seconds;
    const char *expected;
};

class HumanAgeTest : public testing::TestWithParam<AgeCase>
{
};

// The boundaries of apimachinery's HumanDuration, which kubectl's AGE column uses.
TEST_P(HumanAgeTest, MatchesKubectl)
{
    const int64_t created = parseTimestamp("2026-01-01T00:00:00Z");
    EXPECT_EQ(humanAge("2026-01-01T00:00:00Z", created + GetParam().seconds), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Boundaries, HumanAgeTest,
    testing::Values(AgeCase { -5, "<invalid>" }, AgeCase { -1, "0s" }, AgeCase { 0, "0s" },
        AgeCase { 119, "119s" }, AgeCase { 120, "2m" }, AgeCase { 125, "2m5s" },
        AgeCase { 600, "10m" }, AgeCase { 179 * 60, "179m" }, AgeCase { 3 * 3600, "3h" },
        AgeCase { 3 * 3600 + 60, "3h1m" }, AgeCase { 8 * 3600, "8h" }, AgeCase { 47 * 3600, "47h" },
        AgeCase { 48 * 3600, "2d" }, AgeCase { 50 * 3600, "2d2h" }, AgeCase { 8 * 86400, "8d" },
        AgeCase { 730 * 86400, "2y" }, AgeCase { 731 * 86400, "2y1d" },
        AgeCase { 8 * 365 * 86400, "8y" }));

TEST(AgeTest, UnknownWithoutTimestamp)
{
    EXPECT_EQ(humanAge("", 100), "<unknown>");
}
