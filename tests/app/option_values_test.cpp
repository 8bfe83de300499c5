// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl's sizes and its duration and size options: `--retain-size 2GiB` and
// `history prune --max-size 2GiB` read alike.
#include "app/dractl/option_values.h"

#include <gtest/gtest.h>

namespace {

using dra::cli::parseSize;

struct SizeCase
{
    const char *text;
    std::optional<int64_t> bytes; // nullopt: not a size
};

void PrintTo(const SizeCase &c, std::ostream *os)
{
    *os << '"' << c.text << '"';
}

class ParseSizeTest : public testing::TestWithParam<SizeCase>
{
};

constexpr int64_t kKi = 1024, kMi = kKi * kKi, kGi = kMi * kKi;

// A parser with option `name` set to `value`.
struct Parsed
{
    explicit Parsed(const char *name, const char *value)
    {
        parser.addOption({ QString::fromLatin1(name), QString(), QStringLiteral("v") });
        EXPECT_TRUE(parser.parse({ QStringLiteral("dractl"),
            QStringLiteral("--") + QString::fromLatin1(name), QString::fromUtf8(value) }));
    }
    QCommandLineParser parser;
};

} // namespace

TEST_P(ParseSizeTest, ReadsWhatUsersType)
{
    EXPECT_EQ(parseSize(GetParam().text), GetParam().bytes) << '"' << GetParam().text << '"';
}

INSTANTIATE_TEST_SUITE_P(Decimal, ParseSizeTest,
    testing::Values(SizeCase { "100000", 100'000 }, SizeCase { "100000B", 100'000 },
        SizeCase { "64k", 64'000 }, SizeCase { "64kB", 64'000 }, SizeCase { "500MB", 500'000'000 },
        SizeCase { "500mb", 500'000'000 }, SizeCase { "2G", 2'000'000'000 },
        SizeCase { "1.5GB", 1'500'000'000 }, SizeCase { "1TB", 1'000'000'000'000 }));
INSTANTIATE_TEST_SUITE_P(Binary, ParseSizeTest,
    testing::Values(SizeCase { "64KiB", 64 * kKi }, SizeCase { "64ki", 64 * kKi },
        SizeCase { "500MiB", 500 * kMi }, SizeCase { "2GiB", 2 * kGi },
        SizeCase { "2gib", 2 * kGi }, SizeCase { "0.5GiB", kGi / 2 },
        SizeCase { "1TiB", kGi *kKi }));
INSTANTIATE_TEST_SUITE_P(NotASize, ParseSizeTest,
    testing::Values(SizeCase { "", std::nullopt }, SizeCase { "0", std::nullopt },
        SizeCase { "0MB", std::nullopt }, SizeCase { "-5MB", std::nullopt },
        SizeCase { "5 MB", std::nullopt }, SizeCase { "MB", std::nullopt },
        SizeCase { ".5GB", std::nullopt }, SizeCase { "1.GB", std::nullopt },
        SizeCase { "1.2.3MB", std::nullopt }, SizeCase { "5XB", std::nullopt },
        SizeCase { "5MiBs", std::nullopt }, SizeCase { "10000000000TB", std::nullopt }));

TEST(OptionValuesTest, ADurationOptionNamesTheOptionAndWhatItTakes)
{
    EXPECT_EQ(dra::cli::durationOption(Parsed("retain", "7d").parser, QStringLiteral("retain")),
        7 * 24 * 3'600'000);
    const dra::Result<int64_t> bad
        = dra::cli::durationOption(Parsed("max-age", "7days").parser, QStringLiteral("max-age"));
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message.toStdString(),
        "--max-age 7days: expected a duration such as 500ms, 90s, 10m, 12h, 7d or 1h30m");
    const dra::Result<int64_t> short_ = dra::cli::durationOption(
        Parsed("interval", "50ms").parser, QStringLiteral("interval"), 100);
    ASSERT_FALSE(short_);
    EXPECT_NE(short_.error().message.indexOf(QStringLiteral("of at least 100ms")), -1)
        << short_.error().message.toStdString();
    EXPECT_EQ(dra::cli::durationOption(Parsed("wait", "0s").parser, QStringLiteral("wait"), 0), 0)
        << "a zero wait is allowed where the command says so";
}

TEST(OptionValuesTest, ASizeOptionNamesTheOptionAndWhatItTakes)
{
    EXPECT_EQ(dra::cli::sizeOption(Parsed("max-size", "2GiB").parser, QStringLiteral("max-size")),
        2 * kGi);
    const dra::Result<int64_t> bad
        = dra::cli::sizeOption(Parsed("retain-size", "lots").parser, QStringLiteral("retain-size"));
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message.toStdString(),
        "--retain-size lots: expected a size such as 500MB, 2GiB or 100000 (bytes)");
}
