// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/common/result.h"

#include <gtest/gtest.h>

using dra::Result;
using dra::common::Error;

namespace {
Result<int> half(int value)
{
    if (value % 2)
        return dra::fail(Error::Code::Invalid, QStringLiteral("%1 is odd").arg(value));
    return value / 2;
}
} // namespace

TEST(ResultTest, CarriesValueOrError)
{
    EXPECT_EQ(*half(8), 4);
    const Result<int> odd = half(3);
    ASSERT_FALSE(odd.has_value());
    EXPECT_EQ(odd.error().code, Error::Code::Invalid);
    EXPECT_EQ(odd.error().message, QStringLiteral("3 is odd"));
}

TEST(ErrorTest, ContextLeadsTheMessage)
{
    const Error e = Error { Error::Code::Parse, QStringLiteral("bad indent") }.withContext(
        QStringLiteral("a.yaml:3"));
    EXPECT_EQ(e.message, QStringLiteral("a.yaml:3: bad indent"));
    EXPECT_EQ(dra::common::codeName(Error::Code::NotFound), QStringLiteral("not-found"));
}
