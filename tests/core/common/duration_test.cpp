// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The one reader of durations: rollout plans, `--retain`, `history prune --max-age`,
// `rollout run --interval` and `history --since` all go through it.
#include "core/common/duration.h"

#include <gtest/gtest.h>

namespace {

using dra::common::formatDuration;
using dra::common::parseDuration;

struct DurationCase
{
    const char *text;
    std::optional<int64_t> ms; // nullopt: not a duration
};

void PrintTo(const DurationCase &c, std::ostream *os)
{
    *os << '"' << c.text << '"';
}

class ParseDurationTest : public testing::TestWithParam<DurationCase>
{
};

TEST_P(ParseDurationTest, ReadsWhatUsersType)
{
    EXPECT_EQ(parseDuration(GetParam().text), GetParam().ms) << '"' << GetParam().text << '"';
}

constexpr int64_t kSecond = 1000, kMinute = 60 * kSecond, kHour = 60 * kMinute, kDay = 24 * kHour;

INSTANTIATE_TEST_SUITE_P(Units, ParseDurationTest,
    testing::Values(DurationCase { "250ms", 250 }, DurationCase { "90s", 90 * kSecond },
        DurationCase { "10m", 10 * kMinute }, DurationCase { "12h", 12 * kHour },
        DurationCase { "7d", 7 * kDay }, DurationCase { "0s", 0 },
        DurationCase { "007d", 7 * kDay }));
INSTANTIATE_TEST_SUITE_P(Compound, ParseDurationTest,
    testing::Values(DurationCase { "1h30m", 90 * kMinute }, DurationCase { "1d12h", 36 * kHour },
        DurationCase { "2m30s500ms", 150'500 }, DurationCase { "30m1h", 90 * kMinute }));
INSTANTIATE_TEST_SUITE_P(NotADuration, ParseDurationTest,
    testing::Values(DurationCase { "", std::nullopt }, DurationCase { "10", std::nullopt },
        DurationCase { "-5m", std::nullopt }, DurationCase { "+5m", std::nullopt },
        DurationCase { "5 m", std::nullopt }, DurationCase { " 5m", std::nullopt },
        DurationCase { "1.5h", std::nullopt }, DurationCase { "5M", std::nullopt },
        DurationCase { "7days", std::nullopt }, DurationCase { "h", std::nullopt },
        DurationCase { "5mm", std::nullopt }, DurationCase { "1w", std::nullopt },
        DurationCase { "99999999999999999999h", std::nullopt },
        DurationCase { "106751991168d", std::nullopt }));

TEST(FormatDurationTest, WritesTheShortestTextThatReadsBack)
{
    for (const int64_t ms :
        { int64_t(250), 45 * kSecond, 90 * kMinute, 7 * kDay, kHour + kSecond + 1 }) {
        const std::string text = formatDuration(ms);
        EXPECT_EQ(parseDuration(text), ms) << text;
    }
    EXPECT_EQ(formatDuration(90 * kMinute), "1h30m");
    EXPECT_EQ(formatDuration(7 * kDay), "168h");
    EXPECT_EQ(formatDuration(0), "0s");
    EXPECT_EQ(formatDuration(-5), "0s");
}

} // namespace
