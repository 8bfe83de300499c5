// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// CEL values in their three layouts (bytes copied as they are, a short string's text held in
// the value, a pointer kept alive by its owner): every copy, move and assignment between them
// keeps the value, and an assignment from inside what a value owns is safe.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/cel/value.h"

using namespace dra::cel;

namespace {

// One value of each layout, and of each kind that picks its layout differently.
std::vector<Value> valuesOfEveryLayout()
{
    return { Value::integer(-7), Value::floating(2.5), Value::borrowedString("borrowed text"),
        Value::string("short"), Value::string(std::string(100, 'x')), Value::bytes("b"),
        Value::list({ Value::integer(1), Value::string("one") }),
        Value::timestamp({ 1'700'000'000, 123 }), Value::duration({ -5, 999'999'999 }),
        Value::optionalOf(Value::string("inner")), Value::optionalNone(),
        Value::error(std::string(60, 'e')), Value::type("int") };
}

} // namespace

TEST(ValueTest, ShortStringsAreHeldInTheValueAndLongOnesAreShared)
{
    const std::string fits(24, 'a');
    const std::string longer(25, 'b');
    const Value inlined = Value::string(fits);
    const Value shared = Value::string(longer);
    EXPECT_EQ(inlined.asString(), fits);
    EXPECT_EQ(inlined.owner(), nullptr);
    EXPECT_EQ(shared.asString(), longer);
    EXPECT_NE(shared.owner(), nullptr);
    EXPECT_EQ(Value::string("").asString(), "");
    EXPECT_EQ(Value::bytes(std::string("\0\1", 2)).asString(), std::string("\0\1", 2));
    EXPECT_EQ(Value::error("no such key: x").asString(), "no such key: x");
}

TEST(ValueTest, TimestampsAndDurationsKeepTheirNanoseconds)
{
    const Timestamp t = Value::timestamp({ -62135596800, 999'999'999 }).asTimestamp();
    EXPECT_EQ(t.seconds, -62135596800);
    EXPECT_EQ(t.nanos, 999'999'999);
    const Duration d = Value::duration({ -3, 5 }).asDuration();
    EXPECT_EQ(d.seconds, -3);
    EXPECT_EQ(d.nanos, 5);
}

TEST(ValueTest, CopiesMovesAndAssignmentsBetweenLayoutsKeepTheValue)
{
    const std::vector<Value> originals = valuesOfEveryLayout();
    for (const Value &from : originals) {
        for (const Value &to : originals) {
            Value copied(from);
            EXPECT_TRUE(valuesEqual(copied, from) || from.isError()) << from.debugString();
            EXPECT_EQ(copied.debugString(), from.debugString());

            Value assigned = to;
            assigned = from;
            EXPECT_EQ(assigned.debugString(), from.debugString()) << "over " << to.debugString();

            Value source = from;
            Value moved = to;
            moved = std::move(source);
            EXPECT_EQ(moved.debugString(), from.debugString()) << "over " << to.debugString();

            Value constructed(std::move(moved));
            EXPECT_EQ(constructed.debugString(), from.debugString());
        }
    }
}

TEST(ValueTest, AssigningAValueFromInsideWhatItOwnsIsSafe)
{
    // The list is the only owner of its element: the assignment must copy the element before
    // it lets the list go.
    Value v = Value::list({ Value::string(std::string(40, 'z')), Value::integer(2) });
    v = v.asList()[0];
    EXPECT_EQ(v.asString(), std::string(40, 'z'));

    Value w = Value::optionalOf(Value::list({ Value::string("kept") }));
    w = w.optionalValue();
    ASSERT_EQ(w.kind(), Kind::List);
    EXPECT_EQ(w.asList()[0].asString(), "kept");

    Value self = Value::string(std::string(30, 's'));
    const Value &alias = self;
    self = alias;
    EXPECT_EQ(self.asString(), std::string(30, 's'));
}
