// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/version.h"

#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

using dra::model::Version;

namespace {

Version parsedVersion(std::string_view text)
{
    const dra::Result<Version> version = Version::parse(text);
    EXPECT_TRUE(version.has_value()) << text << ": " << version.error().message.toStdString();
    return version.value_or(Version());
}

using Identifiers = std::vector<std::string>;

struct VersionCase
{
    std::string text;
    uint64_t major;
    uint64_t minor;
    uint64_t patch;
    Identifiers prerelease;
    Identifiers build;
};

void PrintTo(const VersionCase &c, std::ostream *os)
{
    *os << '"' << c.text << '"';
}

class VersionParseTest : public testing::TestWithParam<VersionCase>
{
};

TEST_P(VersionParseTest, SplitsIntoPartsAndPrintsAsWritten)
{
    const Version version = parsedVersion(GetParam().text);
    EXPECT_EQ(version.major(), GetParam().major);
    EXPECT_EQ(version.minor(), GetParam().minor);
    EXPECT_EQ(version.patch(), GetParam().patch);
    EXPECT_EQ(version.prerelease(), GetParam().prerelease);
    EXPECT_EQ(version.build(), GetParam().build);
    EXPECT_EQ(version.toString(), GetParam().text);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Semver, VersionParseTest, testing::Values(
    VersionCase{"0.0.0", 0, 0, 0, {}, {}},
    VersionCase{"1.2.3", 1, 2, 3, {}, {}},
    VersionCase{"10.20.30", 10, 20, 30, {}, {}},
    VersionCase{"1.2.3-alpha", 1, 2, 3, {"alpha"}, {}},
    VersionCase{"1.2.3-alpha.1", 1, 2, 3, {"alpha", "1"}, {}},
    VersionCase{"1.0.0-0.3.7", 1, 0, 0, {"0", "3", "7"}, {}},
    VersionCase{"1.0.0-x.7.z.92", 1, 0, 0, {"x", "7", "z", "92"}, {}},
    VersionCase{"1.0.0-x-y-z.--", 1, 0, 0, {"x-y-z", "--"}, {}},
    VersionCase{"1.2.3-0a", 1, 2, 3, {"0a"}, {}},
    VersionCase{"1.0.0-alpha+001", 1, 0, 0, {"alpha"}, {"001"}},
    VersionCase{"1.0.0+20130313144700", 1, 0, 0, {}, {"20130313144700"}},
    VersionCase{
    "1.0.0-beta+exp.sha.5114f85", 1, 0, 0, {"beta"}, {"exp", "sha", "5114f85"}},
    VersionCase{"1.0.0+21AF26D3----117B344092BD", 1, 0, 0, {}, {"21AF26D3----117B344092BD"}},
    VersionCase{"1.2.3----RC-SNAPSHOT.12.9.1--.12+788", 1, 2, 3,
    {"---RC-SNAPSHOT", "12", "9", "1--", "12"}, {"788"}},
    VersionCase{"1.2.3-rc.1+build.5", 1, 2, 3, {"rc", "1"}, {"build", "5"}},
    VersionCase{"18446744073709551615.0.0", UINT64_MAX, 0, 0, {}, {}}));
// clang-format on

class VersionRejectTest : public testing::TestWithParam<std::string>
{
};

TEST_P(VersionRejectTest, IsAnInvalidError)
{
    const dra::Result<Version> version = Version::parse(GetParam());
    ASSERT_FALSE(version.has_value()) << GetParam() << " parsed as " << version->toString();
    EXPECT_EQ(version.error().code, dra::common::Error::Code::Invalid);
    EXPECT_FALSE(version.error().message.isEmpty());
}

INSTANTIATE_TEST_SUITE_P(Strict, VersionRejectTest,
    testing::Values("", "1", "1.2", "1.2.3.4", "1.2.3.DEV", "01.2.3", "1.02.3", "1.2.03", "00.0.0",
        "v1.2.3", "V1.2.3", "=1.2.3", " 1.2.3", "1.2.3 ", "-1.2.3", "1..3", "a.b.c", "1.2.x",
        "1.2.-3", "1.2.3-", "1.2.3-01", "1.2.3-alpha.01", "1.2.3-a..b", "1.2.3-a.", "1.2.3-a_b",
        "1.2.3-\xc3\xa9", "1.2.3+", "1.2.3+a..b", "1.2.3+a+b", "1.2.3+a_b", "1.2.3-+b",
        "18446744073709551616.0.0", "1.18446744073709551616.0", "1.2.3-18446744073709551616"));

TEST(VersionTest, ErrorsNameTheTextAndTheProblem)
{
    const auto zero = Version::parse("1.2.3-01");
    ASSERT_FALSE(zero.has_value());
    EXPECT_TRUE(zero.error().message.contains(QStringLiteral("\"1.2.3-01\"")));
    EXPECT_TRUE(zero.error().message.contains(QStringLiteral("leading zero")))
        << zero.error().message.toStdString();

    const auto prefixed = Version::parse("v1.2.3");
    ASSERT_FALSE(prefixed.has_value());
    EXPECT_TRUE(prefixed.error().message.contains(QStringLiteral("major")))
        << prefixed.error().message.toStdString();
}

struct VersionCompareCase
{
    std::string left;
    std::string right;
    int expected;
};

class VersionCompareTest : public testing::TestWithParam<VersionCompareCase>
{
};

TEST_P(VersionCompareTest, FollowsSemverPrecedence)
{
    const Version left = parsedVersion(GetParam().left);
    const Version right = parsedVersion(GetParam().right);
    EXPECT_EQ(left.compare(right), GetParam().expected);
    EXPECT_EQ(right.compare(left), -GetParam().expected);
    EXPECT_EQ(left == right, GetParam().expected == 0);
    EXPECT_EQ(left < right, GetParam().expected < 0);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Semver, VersionCompareTest, testing::Values(
    VersionCompareCase{"1.0.0", "1.0.0", 0},
    VersionCompareCase{"1.0.0", "2.0.0", -1},
    VersionCompareCase{"2.0.0", "2.1.0", -1},
    VersionCompareCase{"2.1.0", "2.1.1", -1},
    VersionCompareCase{"1.10.0", "1.9.0", 1},
    VersionCompareCase{"1.2.10", "1.2.9", 1},
    VersionCompareCase{"18446744073709551615.0.0", "1.0.0", 1},
    VersionCompareCase{"1.0.0-alpha", "1.0.0", -1},
    VersionCompareCase{"1.0.0-rc.1", "1.0.0", -1},
    VersionCompareCase{"1.0.0-alpha", "1.0.0-alpha.1", -1},
    VersionCompareCase{"1.0.0-alpha.1", "1.0.0-alpha.beta", -1},
    VersionCompareCase{"1.0.0-beta.2", "1.0.0-beta.11", -1},
    VersionCompareCase{"1.0.0-1", "1.0.0-a", -1},
    VersionCompareCase{"1.0.0-2", "1.0.0-10", -1},
    VersionCompareCase{"1.0.0-a10", "1.0.0-a2", -1},
    VersionCompareCase{"1.0.0-B", "1.0.0-a", -1},
    VersionCompareCase{"1.0.0-rc.1", "1.0.0-rc.1", 0},
    VersionCompareCase{"1.0.0+a", "1.0.0+b", 0},
    VersionCompareCase{"1.0.0-rc.1+build.1", "1.0.0-rc.1", 0},
    VersionCompareCase{"1.0.0+build", "1.0.0-rc.1", 1},
    VersionCompareCase{"1.0.0-99999999999999999999a", "1.0.0-1", 1}));
// clang-format on

TEST(VersionTest, SortsInSpecOrder)
{
    const std::vector<std::string> ordered { "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta",
        "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0",
        "2.0.0" };
    std::vector<Version> versions;
    for (auto it = ordered.rbegin(); it != ordered.rend(); ++it)
        versions.push_back(parsedVersion(*it));
    std::ranges::sort(versions);
    std::vector<std::string> printed;
    for (const Version &v : versions)
        printed.push_back(v.toString());
    EXPECT_EQ(printed, ordered);
}

TEST(VersionTest, DefaultIsZero)
{
    EXPECT_EQ(Version().toString(), "0.0.0");
    EXPECT_EQ(Version(), parsedVersion("0.0.0"));
    EXPECT_LT(Version(), parsedVersion("0.0.1-0"));
}

} // namespace
