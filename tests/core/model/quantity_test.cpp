// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/quantity.h"

#include <algorithm>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

using dra::model::Quantity;
using Format = Quantity::Format;

namespace {

Quantity parsedQuantity(std::string_view text)
{
    const dra::Result<Quantity> quantity = Quantity::parse(text);
    EXPECT_TRUE(quantity.has_value()) << text << ": " << quantity.error().message.toStdString();
    return quantity.value_or(Quantity());
}

// --- parsing and the canonical form -------------------------------------------------------

struct QuantityCase
{
    std::string text;
    std::string canonical; // what Kubernetes String() prints
    Format format; // the format the quantity remembers
};

void PrintTo(const QuantityCase &c, std::ostream *os)
{
    *os << '"' << c.text << '"';
}

class QuantityParseTest : public testing::TestWithParam<QuantityCase>
{
};

TEST_P(QuantityParseTest, PrintsCanonicalFormAndKeepsFormat)
{
    const Quantity quantity = parsedQuantity(GetParam().text);
    EXPECT_EQ(quantity.toString(), GetParam().canonical);
    EXPECT_EQ(quantity.format(), GetParam().format);
}

TEST_P(QuantityParseTest, CanonicalFormParsesBackToTheSameValue)
{
    const Quantity quantity = parsedQuantity(GetParam().text);
    const Quantity again = parsedQuantity(quantity.toString());
    EXPECT_EQ(again, quantity);
    EXPECT_EQ(again.toString(), quantity.toString());
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Zero, QuantityParseTest, testing::Values(
    QuantityCase{"0", "0", Format::DecimalSI},
    QuantityCase{"0m", "0", Format::DecimalSI},
    QuantityCase{"0Ki", "0", Format::BinarySI},
    QuantityCase{"-0", "0", Format::DecimalSI},
    QuantityCase{"0e99", "0", Format::DecimalExponent},
    QuantityCase{"000.000", "0", Format::DecimalSI}));
// clang-format on

// clang-format off
INSTANTIATE_TEST_SUITE_P(BinarySuffixes, QuantityParseTest, testing::Values(
    QuantityCase{"1Ki", "1Ki", Format::BinarySI},
    QuantityCase{"8Ki", "8Ki", Format::BinarySI},
    QuantityCase{"7Mi", "7Mi", Format::BinarySI},
    QuantityCase{"6Gi", "6Gi", Format::BinarySI},
    QuantityCase{"5Ti", "5Ti", Format::BinarySI},
    QuantityCase{"4Pi", "4Pi", Format::BinarySI},
    QuantityCase{"3Ei", "3Ei", Format::BinarySI},
    QuantityCase{"1024Mi", "1Gi", Format::BinarySI},
    QuantityCase{"1048576Ki", "1Gi", Format::BinarySI},
    QuantityCase{"1025Ki", "1025Ki", Format::BinarySI},
    QuantityCase{"0.5Gi", "512Mi", Format::BinarySI},
    QuantityCase{"1.5Gi", "1536Mi", Format::BinarySI},
    QuantityCase{"0.5Mi", "512Ki", Format::BinarySI},
    QuantityCase{"0.025Ti", "27487790694400m", Format::BinarySI},
    // Whole numbers below 1024 and fractional values print as DecimalSI, never rounded.
    QuantityCase{"1.5Ki", "1536", Format::BinarySI},
    QuantityCase{".001Ki", "1024m", Format::BinarySI},
    QuantityCase{"100.035Ki", "102435840m", Format::BinarySI},
    QuantityCase{"1.0001Ki", "1024102400u", Format::BinarySI},
    // Below one the quantity itself switches to DecimalSI.
    QuantityCase{".000001Ki", "1024u", Format::DecimalSI},
    QuantityCase{"0.000000000001Ki", "2n", Format::DecimalSI},
    QuantityCase{"7Ei", "7Ei", Format::BinarySI},
    QuantityCase{"8191Pi", "8191Pi", Format::BinarySI}));
// clang-format on

// clang-format off
INSTANTIATE_TEST_SUITE_P(DecimalSuffixes, QuantityParseTest, testing::Values(
    QuantityCase{"1", "1", Format::DecimalSI},
    QuantityCase{"5n", "5n", Format::DecimalSI},
    QuantityCase{"4u", "4u", Format::DecimalSI},
    QuantityCase{"100m", "100m", Format::DecimalSI},
    QuantityCase{"8k", "8k", Format::DecimalSI},
    QuantityCase{"50k", "50k", Format::DecimalSI},
    QuantityCase{"7M", "7M", Format::DecimalSI},
    QuantityCase{"6G", "6G", Format::DecimalSI},
    QuantityCase{"40T", "40T", Format::DecimalSI},
    QuantityCase{"2P", "2P", Format::DecimalSI},
    QuantityCase{"1E", "1E", Format::DecimalSI},
    QuantityCase{"9E", "9E", Format::DecimalSI},
    QuantityCase{"1000k", "1M", Format::DecimalSI},
    QuantityCase{"1000M", "1G", Format::DecimalSI},
    QuantityCase{"1000000000n", "1", Format::DecimalSI},
    QuantityCase{"1500000u", "1500m", Format::DecimalSI},
    QuantityCase{"1.5", "1500m", Format::DecimalSI},
    QuantityCase{"0.1", "100m", Format::DecimalSI},
    QuantityCase{"100.035k", "100035", Format::DecimalSI},
    QuantityCase{"10.035M", "10035k", Format::DecimalSI},
    QuantityCase{"1.01E", "1010P", Format::DecimalSI},
    QuantityCase{"0.0005k", "500m", Format::DecimalSI},
    QuantityCase{".001", "1m", Format::DecimalSI},
    QuantityCase{"1.", "1", Format::DecimalSI},
    QuantityCase{"1.G", "1G", Format::DecimalSI},
    QuantityCase{"007", "7", Format::DecimalSI},
    QuantityCase{"1025", "1025", Format::DecimalSI},
    QuantityCase{"9223372036854775807", "9223372036854775807", Format::DecimalSI},
    QuantityCase{"9223372036854775807.000", "9223372036854775807", Format::DecimalSI}));
// clang-format on

// clang-format off
INSTANTIATE_TEST_SUITE_P(DecimalExponents, QuantityParseTest, testing::Values(
    QuantityCase{"1e3", "1e3", Format::DecimalExponent},
    QuantityCase{"1E6", "1e6", Format::DecimalExponent},
    QuantityCase{"1e+3", "1e3", Format::DecimalExponent},
    QuantityCase{"12E-3", "12e-3", Format::DecimalExponent},
    QuantityCase{"1.5e-2", "15e-3", Format::DecimalExponent},
    QuantityCase{"1.2e3", "1200", Format::DecimalExponent},
    QuantityCase{"1.3E+6", "1300e3", Format::DecimalExponent},
    QuantityCase{"0.5e0", "500e-3", Format::DecimalExponent},
    QuantityCase{"1000e0", "1e3", Format::DecimalExponent},
    QuantityCase{"1.7E18", "1700e15", Format::DecimalExponent}));
// clang-format on

// clang-format off
INSTANTIATE_TEST_SUITE_P(Signs, QuantityParseTest, testing::Values(
    QuantityCase{"-1Gi", "-1Gi", Format::BinarySI},
    QuantityCase{"+1Ki", "1Ki", Format::BinarySI},
    QuantityCase{"-100m", "-100m", Format::DecimalSI},
    QuantityCase{"-0.5Ki", "-512", Format::BinarySI},
    QuantityCase{"-1.5", "-1500m", Format::DecimalSI},
    QuantityCase{"-12E-3", "-12e-3", Format::DecimalExponent},
    QuantityCase{"-9223372036854775807", "-9223372036854775807", Format::DecimalSI}));
// clang-format on

// Kubernetes rounds anything finer than a nano unit up, away from zero.
// clang-format off
INSTANTIATE_TEST_SUITE_P(RoundsUpToNano, QuantityParseTest, testing::Values(
    QuantityCase{"3.001n", "4n", Format::DecimalSI},
    QuantityCase{"0.9n", "1n", Format::DecimalSI},
    QuantityCase{"0.0000000001", "1n", Format::DecimalSI},
    QuantityCase{"0.00000000050", "1n", Format::DecimalSI},
    QuantityCase{"0.00000012345", "124n", Format::DecimalSI},
    QuantityCase{"-0.00000012345", "-124n", Format::DecimalSI},
    QuantityCase{"1.1E-9", "2e-9", Format::DecimalExponent},
    QuantityCase{"0.5e-9", "1e-9", Format::DecimalExponent},
    QuantityCase{"1e-1000", "1e-9", Format::DecimalExponent},
    QuantityCase{"1.0000000000000000000000000000001", "1000000001n", Format::DecimalSI}));
// clang-format on

// --- malformed and out-of-range text ------------------------------------------------------

class QuantityRejectTest : public testing::TestWithParam<std::string>
{
};

TEST_P(QuantityRejectTest, IsAnInvalidError)
{
    const dra::Result<Quantity> quantity = Quantity::parse(GetParam());
    ASSERT_FALSE(quantity.has_value()) << GetParam() << " parsed as " << quantity->toString();
    EXPECT_EQ(quantity.error().code, dra::common::Error::Code::Invalid);
    EXPECT_FALSE(quantity.error().message.isEmpty());
}

INSTANTIATE_TEST_SUITE_P(Malformed, QuantityRejectTest,
    testing::Values("", "Gi", "k", "e3", ".", "-", "+", ".Ki", "1.2.3", "1.1.M", "1 Gi", " 1", "1 ",
        "Gi1", "1iG", "--1", "+-1", "1+1.0M", "1ki", "1K", "1gi", "1KI", "0.1mi", "0.1am", "aoeu",
        ".5i", "1i", "-3.01i", "-3.01e-", "1e", "1e+", "1e3.5", "1e3e", "1Ee3", "1Mi3", "1m3",
        "1,5", "1_000", "0x10", "1\xc2\xb5", "1Gi\n"));

// Kubernetes documents 2^63-1 as the largest magnitude; its parser still keeps larger decimal
// values such as 12E, which the console refuses rather than mis-handle.
INSTANTIATE_TEST_SUITE_P(OutOfRange, QuantityRejectTest,
    testing::Values("12E", "9223372036854775808", "-9223372036854775808", "9223372036854775807.5",
        "8Ei", "16Ei", "8192Pi", "1e19", "10E", "100000000000000000000000000000000000000000000",
        "1e4294967297", "1e2147483648", "1e-2147483648"));

TEST(QuantityTest, ErrorsNameTheTextAndTheProblem)
{
    const auto unknown = Quantity::parse("1ki");
    ASSERT_FALSE(unknown.has_value());
    EXPECT_TRUE(unknown.error().message.contains(QStringLiteral("\"1ki\"")))
        << unknown.error().message.toStdString();
    EXPECT_TRUE(unknown.error().message.contains(QStringLiteral("suffix \"ki\"")));

    const auto huge = Quantity::parse("16Ei");
    ASSERT_FALSE(huge.has_value());
    EXPECT_TRUE(huge.error().message.contains(QStringLiteral("out of range")))
        << huge.error().message.toStdString();

    const auto empty = Quantity::parse("");
    ASSERT_FALSE(empty.has_value());
    EXPECT_TRUE(empty.error().message.contains(QStringLiteral("empty")));
}

TEST(QuantityTest, RangeEndsAtTheLargestInt64)
{
    EXPECT_EQ(parsedQuantity("9223372036854775807").nanoUnits(), Quantity::maxNanoUnits());
    EXPECT_EQ(parsedQuantity("-9223372036854775807").nanoUnits(), -Quantity::maxNanoUnits());
    EXPECT_EQ(parsedQuantity("9223372036854775806.999999999").value(),
        std::numeric_limits<int64_t>::max());
}

// --- comparison ---------------------------------------------------------------------------

struct QuantityCompareCase
{
    std::string left;
    std::string right;
    int expected;
};

class QuantityCompareTest : public testing::TestWithParam<QuantityCompareCase>
{
};

TEST_P(QuantityCompareTest, ComparesExactValuesAcrossFormats)
{
    const Quantity left = parsedQuantity(GetParam().left);
    const Quantity right = parsedQuantity(GetParam().right);
    EXPECT_EQ(left.compare(right), GetParam().expected);
    EXPECT_EQ(right.compare(left), -GetParam().expected);
    EXPECT_EQ(left == right, GetParam().expected == 0);
    EXPECT_EQ(left < right, GetParam().expected < 0);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Kubernetes, QuantityCompareTest, testing::Values(
    QuantityCompareCase{"0", "0", 0},
    QuantityCompareCase{"100m", "50m", 1},
    QuantityCompareCase{"10000T", "100Gi", 1},
    QuantityCompareCase{"1Gi", "1073741824", 0},
    QuantityCompareCase{"0.5Gi", "512Mi", 0},
    QuantityCompareCase{"100m", "0.1", 0},
    QuantityCompareCase{"1e3", "1k", 0},
    QuantityCompareCase{"1Ki", "1k", 1},
    QuantityCompareCase{"1.5", "1500m", 0},
    QuantityCompareCase{"0.0000000001", "1n", 0},
    QuantityCompareCase{"999m", "1", -1},
    QuantityCompareCase{"1E", "1Ei", -1},
    QuantityCompareCase{"-1", "1m", -1},
    QuantityCompareCase{"-1n", "0", -1},
    QuantityCompareCase{"0Ki", "-0", 0},
    QuantityCompareCase{"9223372036854775807", "8191Pi", 1},
    QuantityCompareCase{"1000000000000000001n", "1G", 1}));
// clang-format on

TEST(QuantityTest, SortsByValue)
{
    std::vector<Quantity> values { parsedQuantity("1Gi"), parsedQuantity("1G"),
        parsedQuantity("-1"), parsedQuantity("500m"), parsedQuantity("1e9") };
    std::ranges::stable_sort(values); // 1G and 1e9 are equal: keep their order
    std::vector<std::string> printed;
    for (const Quantity &q : values)
        printed.push_back(q.toString());
    EXPECT_EQ(printed, (std::vector<std::string> { "-1", "500m", "1G", "1e9", "1Gi" }));
}

// --- arithmetic ---------------------------------------------------------------------------

struct ArithmeticCase
{
    std::string left;
    std::string right;
    std::string sum;
    std::string difference;
};

class QuantityArithmeticTest : public testing::TestWithParam<ArithmeticCase>
{
};

TEST_P(QuantityArithmeticTest, AddsAndSubtractsExactly)
{
    const Quantity left = parsedQuantity(GetParam().left);
    const Quantity right = parsedQuantity(GetParam().right);
    const dra::Result<Quantity> sum = left.add(right);
    const dra::Result<Quantity> difference = left.sub(right);
    ASSERT_TRUE(sum.has_value());
    ASSERT_TRUE(difference.has_value());
    EXPECT_EQ(sum->toString(), GetParam().sum);
    EXPECT_EQ(difference->toString(), GetParam().difference);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Kubernetes, QuantityArithmeticTest, testing::Values(
    ArithmeticCase{"1Gi", "1Gi", "2Gi", "0"},
    ArithmeticCase{"1Gi", "512Mi", "1536Mi", "512Mi"},
    ArithmeticCase{"100m", "900m", "1", "-800m"},
    ArithmeticCase{"0.1", "0.2", "300m", "-100m"},
    // A zero left operand takes the other's format, as Kubernetes Add/Sub do.
    ArithmeticCase{"0", "1Gi", "1Gi", "-1Gi"},
    ArithmeticCase{"1Gi", "0", "1Gi", "1Gi"},
    ArithmeticCase{"100m", "0", "100m", "100m"},
    ArithmeticCase{"1k", "1Ki", "2024", "-24"},
    ArithmeticCase{"1e3", "1", "1001", "999"},
    ArithmeticCase{"1e3", "1e3", "2e3", "0"},
    ArithmeticCase{"1n", "-1n", "0", "2n"},
    ArithmeticCase{"4Ei", "3Ei", "7Ei", "1Ei"},
    ArithmeticCase{
    "9223372036854775806", "1", "9223372036854775807", "9223372036854775805"}));
// clang-format on

TEST(QuantityTest, ArithmeticLeavingTheRangeIsAnError)
{
    const Quantity max = parsedQuantity("9223372036854775807");
    const auto over = max.add(parsedQuantity("1n"));
    ASSERT_FALSE(over.has_value());
    EXPECT_TRUE(over.error().message.contains(QStringLiteral("out of range")));
    EXPECT_FALSE(parsedQuantity("4Ei").add(parsedQuantity("4Ei")).has_value());
    EXPECT_FALSE(max.negated().sub(parsedQuantity("1")).has_value());
    EXPECT_TRUE(max.sub(max.negated()).error().message.contains(QStringLiteral("out of range")));
    EXPECT_TRUE(max.negated().add(max).has_value());
}

// --- conversions --------------------------------------------------------------------------

struct ConversionCase
{
    std::string text;
    std::optional<int64_t> asInt64;
    int64_t value;
    int64_t milliValue;
};

class QuantityConversionTest : public testing::TestWithParam<ConversionCase>
{
};

TEST_P(QuantityConversionTest, ConvertsLikeKubernetes)
{
    const Quantity quantity = parsedQuantity(GetParam().text);
    EXPECT_EQ(quantity.asInt64(), GetParam().asInt64);
    EXPECT_EQ(quantity.isInteger(), GetParam().asInt64.has_value());
    EXPECT_EQ(quantity.value(), GetParam().value);
    EXPECT_EQ(quantity.milliValue(), GetParam().milliValue);
}

constexpr int64_t int64Max = std::numeric_limits<int64_t>::max();

// clang-format off
INSTANTIATE_TEST_SUITE_P(Kubernetes, QuantityConversionTest, testing::Values(
    ConversionCase{"0", 0, 0, 0},
    ConversionCase{"1Gi", 1073741824, 1073741824, 1073741824000},
    ConversionCase{"0.5Gi", 536870912, 536870912, 536870912000},
    ConversionCase{"1e3", 1000, 1000, 1000000},
    ConversionCase{"1000m", 1, 1, 1000},
    ConversionCase{"-5", -5, -5, -5000},
    ConversionCase{"1.5", std::nullopt, 2, 1500},
    ConversionCase{"-1.5", std::nullopt, -2, -1500},
    ConversionCase{"100m", std::nullopt, 1, 100},
    ConversionCase{"1n", std::nullopt, 1, 1},
    ConversionCase{"-1n", std::nullopt, -1, -1},
    ConversionCase{"1.0001m", std::nullopt, 1, 2},
    ConversionCase{"9223372036854775807", int64Max, int64Max, int64Max},
    ConversionCase{
    "-9223372036854775807", -int64Max, -int64Max, std::numeric_limits<int64_t>::min()}));
// clang-format on

TEST(QuantityTest, FromInt64KeepsTheRequestedFormat)
{
    EXPECT_EQ(Quantity::fromInt64(1073741824, Format::BinarySI).toString(), "1Gi");
    EXPECT_EQ(Quantity::fromInt64(1073741824).toString(), "1073741824");
    EXPECT_EQ(Quantity::fromInt64(3000, Format::DecimalExponent).toString(), "3e3");
    EXPECT_EQ(Quantity::fromInt64(-2048, Format::BinarySI).toString(), "-2Ki");
    EXPECT_EQ(Quantity::fromInt64(1500).toString(), "1500");
    EXPECT_EQ(Quantity::fromInt64(42).asInt64(), 42);
    EXPECT_EQ(Quantity::fromInt64(std::numeric_limits<int64_t>::min()).asInt64(), -int64Max);
}

TEST(QuantityTest, SignZeroAndApproximateDouble)
{
    EXPECT_EQ(parsedQuantity("-1n").sign(), -1);
    EXPECT_EQ(parsedQuantity("-0").sign(), 0);
    EXPECT_EQ(parsedQuantity("1n").sign(), 1);
    EXPECT_TRUE(parsedQuantity("0Gi").isZero());
    EXPECT_FALSE(parsedQuantity("1n").isZero());
    EXPECT_TRUE(Quantity().isZero());
    EXPECT_EQ(Quantity().toString(), "0");
    EXPECT_DOUBLE_EQ(parsedQuantity("1.5").asApproximateDouble(), 1.5);
    EXPECT_DOUBLE_EQ(parsedQuantity("100m").asApproximateDouble(), 0.1);
    EXPECT_DOUBLE_EQ(parsedQuantity("-1Gi").asApproximateDouble(), -1073741824.0);
    EXPECT_DOUBLE_EQ(parsedQuantity("1E").asApproximateDouble(), 1e18);
}

TEST(QuantityTest, NegatedKeepsFormat)
{
    EXPECT_EQ(parsedQuantity("1Gi").negated().toString(), "-1Gi");
    EXPECT_EQ(parsedQuantity("-9010m").negated().toString(), "9010m");
    EXPECT_EQ(parsedQuantity("0").negated().toString(), "0");
}

} // namespace
