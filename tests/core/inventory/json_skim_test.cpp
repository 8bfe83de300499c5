// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/json_skim.h"

#include <gtest/gtest.h>

using namespace dra::inventory;

TEST(JsonSkimTest, ReadsWantedFieldsAndSkipsTheRest)
{
    JsonSkim skim(R"( {"skip":{"a":[1,{"b":"}]"}],"c":null}, "name" : "gpu-0", "n":-42, "ok":true,
                       "list":["x","y\"z"], "after":"\u00e9\ud83d\ude00"} )");
    ASSERT_TRUE(skim.enterObject());
    std::string name, after;
    int64_t n = 0;
    bool ok = false;
    std::vector<std::string> list;
    for (std::string_view key; skim.nextMember(&key);) {
        if (key == "name")
            EXPECT_TRUE(skim.readString(&name));
        else if (key == "n")
            EXPECT_TRUE(skim.readInt(&n));
        else if (key == "ok")
            EXPECT_TRUE(skim.readBool(&ok));
        else if (key == "after")
            EXPECT_TRUE(skim.readString(&after));
        else if (key == "list") {
            ASSERT_TRUE(skim.enterArray());
            while (skim.nextElement()) {
                std::string item;
                EXPECT_TRUE(skim.readString(&item));
                list.push_back(item);
            }
        } else
            EXPECT_EQ(skim.skipValue(), R"({"a":[1,{"b":"}]"}],"c":null})");
    }
    EXPECT_TRUE(skim.ok());
    EXPECT_EQ(name, "gpu-0");
    EXPECT_EQ(n, -42);
    EXPECT_TRUE(ok);
    EXPECT_EQ(list, (std::vector<std::string> { "x", "y\"z" }));
    EXPECT_EQ(after, "\xc3\xa9\xf0\x9f\x98\x80");
}

TEST(JsonSkimTest, ATypeMismatchIsNotAnError)
{
    JsonSkim skim(R"({"a":"text","b":7})");
    ASSERT_TRUE(skim.enterObject());
    std::string_view key;
    ASSERT_TRUE(skim.nextMember(&key));
    int64_t number = 0;
    EXPECT_FALSE(skim.readInt(&number));
    ASSERT_TRUE(skim.nextMember(&key));
    EXPECT_EQ(key, "b");
    EXPECT_TRUE(skim.readInt(&number));
    EXPECT_FALSE(skim.nextMember(&key));
    EXPECT_TRUE(skim.ok());
}

TEST(JsonSkimTest, BrokenTextStopsTheSkim)
{
    for (const char *text :
        { R"({"a" 1})", R"({"a":"unterminated})", R"({"a":1,})", R"([1 2])", "" }) {
        JsonSkim skim(text);
        if (skim.peek() == '[') {
            skim.enterArray();
            while (skim.nextElement())
                skim.skipValue();
        } else if (skim.enterObject()) {
            for (std::string_view key; skim.nextMember(&key);)
                skim.skipValue();
        }
        EXPECT_FALSE(skim.ok()) << text;
    }
    std::string out;
    EXPECT_FALSE(unescapeJsonString("\\ud800", &out)) << "a lone surrogate";
    EXPECT_FALSE(unescapeJsonString("\\x", &out));
}
