// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/qualified_name.h"

#include <set>

#include <gtest/gtest.h>

using dra::model::QualifiedName;

namespace {

TEST(QualifiedNameTest, UnqualifiedNamesTakeTheDriverAsDomain)
{
    EXPECT_EQ(QualifiedName::resolve("memory", "gpu.example.com"),
        (QualifiedName { "gpu.example.com", "memory" }));
    EXPECT_EQ(QualifiedName::resolve("dra.example.com/numa", "gpu.example.com"),
        (QualifiedName { "dra.example.com", "numa" }));
    EXPECT_EQ(QualifiedName::resolve("a/b/c", "gpu.example.com"), (QualifiedName { "a", "b/c" }));
    EXPECT_EQ(
        QualifiedName::resolve("memory", "gpu.example.com").toString(), "gpu.example.com/memory");
}

TEST(QualifiedNameTest, ResolvedAndWrittenOutNamesAreEqual)
{
    const auto written = QualifiedName::parse("gpu.example.com/memory");
    ASSERT_TRUE(written.has_value());
    EXPECT_EQ(QualifiedName::resolve("memory", "gpu.example.com"), *written);
    EXPECT_NE(QualifiedName::resolve("memory", "nic.example.com"), *written);
}

TEST(QualifiedNameTest, OrdersByDomainThenName)
{
    const std::set<QualifiedName> names { { "b.example.com", "a" }, { "a.example.com", "z" },
        { "a.example.com", "b" } };
    std::vector<std::string> printed;
    for (const QualifiedName &n : names)
        printed.push_back(n.toString());
    EXPECT_EQ(printed,
        (std::vector<std::string> { "a.example.com/b", "a.example.com/z", "b.example.com/a" }));
}

struct QualifiedNameCase
{
    std::string text;
    std::string domain;
    std::string name;
};

class QualifiedNameParseTest : public testing::TestWithParam<QualifiedNameCase>
{
};

TEST_P(QualifiedNameParseTest, AcceptsWhatKubernetesAccepts)
{
    const auto parsed = QualifiedName::parse(GetParam().text);
    ASSERT_TRUE(parsed.has_value())
        << GetParam().text << ": " << parsed.error().message.toStdString();
    EXPECT_EQ(parsed->domain, GetParam().domain);
    EXPECT_EQ(parsed->name, GetParam().name);
    EXPECT_EQ(parsed->toString(), GetParam().text);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Valid, QualifiedNameParseTest, testing::Values(
    QualifiedNameCase{"memory", "", "memory"},
    QualifiedNameCase{"_x9", "", "_x9"},
    QualifiedNameCase{"gpu.nvidia.com/productName", "gpu.nvidia.com", "productName"},
    QualifiedNameCase{"resource.kubernetes.io/pcieRoot", "resource.kubernetes.io", "pcieRoot"},
    QualifiedNameCase{"a/B", "a", "B"},
    QualifiedNameCase{"1-a.b2/c", "1-a.b2", "c"},
    QualifiedNameCase{std::string(32, 'n'), "", std::string(32, 'n')},
    QualifiedNameCase{std::string(63, 'd') + "/x", std::string(63, 'd'), "x"}));
// clang-format on

class QualifiedNameRejectTest : public testing::TestWithParam<std::string>
{
};

TEST_P(QualifiedNameRejectTest, IsAnInvalidError)
{
    const auto parsed = QualifiedName::parse(GetParam());
    ASSERT_FALSE(parsed.has_value()) << GetParam() << " parsed as " << parsed->toString();
    EXPECT_EQ(parsed.error().code, dra::common::Error::Code::Invalid);
}

INSTANTIATE_TEST_SUITE_P(Invalid, QualifiedNameRejectTest,
    testing::Values("", "/memory", "gpu.example.com/", "a/b/c", "9lives", "has-dash", "has.dot",
        "gpu.com/has-dash", "Gpu.example.com/x", "-gpu.com/x", "gpu-.com/x", "gpu..com/x",
        ".gpu.com/x", "gpu_example.com/x", "gpu.example.com/m\xc3\xa9moire", std::string(33, 'n'),
        std::string(64, 'd') + "/x"));

TEST(QualifiedNameTest, ErrorsSayWhichPartIsWrong)
{
    const auto longName = QualifiedName::parse("gpu.example.com/" + std::string(33, 'n'));
    ASSERT_FALSE(longName.has_value());
    EXPECT_TRUE(longName.error().message.contains(QStringLiteral("longer than 32")))
        << longName.error().message.toStdString();
    const auto badDomain = QualifiedName::parse("GPU/x");
    ASSERT_FALSE(badDomain.has_value());
    EXPECT_TRUE(badDomain.error().message.contains(QStringLiteral("domain")))
        << badDomain.error().message.toStdString();
}

} // namespace
