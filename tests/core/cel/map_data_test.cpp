// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// CEL maps: keys shared between maps built alike, lookups by CEL key equality, and paths read
// through maps held by variables, locals and maps built during the evaluation.
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/cel/program.h"
#include "core/cel/value.h"

using namespace dra::cel;

namespace {

std::shared_ptr<MapData> mapOf(const std::vector<std::pair<Value, Value>> &entries)
{
    auto map = std::make_shared<MapData>();
    for (const auto &[key, value] : entries)
        EXPECT_TRUE(map->insert(key, value)) << key.debugString();
    return map;
}

Value evalWith(std::string_view expr, const Value &device)
{
    Environment env = Environment::standard();
    env.addVariable("device");
    std::vector<Diagnostic> diagnostics;
    auto program = compile(env, expr, {}, &diagnostics);
    EXPECT_TRUE(program && program->isValid()) << expr;
    return program->evaluate(std::span<const Value>(&device, 1));
}

} // namespace

TEST(MapDataTest, MapsBuiltWithTheSameKeysShareThemAndKeepTheirOwnValues)
{
    const auto a = mapOf({ { Value::borrowedString("driver"), Value::integer(1) },
        { Value::borrowedString("pool"), Value::integer(2) } });
    const auto b = mapOf({ { Value::borrowedString("driver"), Value::integer(3) },
        { Value::borrowedString("pool"), Value::integer(4) } });
    EXPECT_EQ(&a->keys(), &b->keys());
    EXPECT_EQ(b->find(Value::borrowedString("pool"))->asInt(), 4);
    EXPECT_EQ(a->find(Value::borrowedString("pool"))->asInt(), 2);

    const auto reordered = mapOf({ { Value::borrowedString("pool"), Value::integer(5) },
        { Value::borrowedString("driver"), Value::integer(6) } });
    EXPECT_NE(&a->keys(), &reordered->keys());
    EXPECT_EQ(reordered->keys().front().asString(), "pool");
}

TEST(MapDataTest, KeysOfDifferentKindsKeepTheirKindWhileFindingEachOther)
{
    const auto ints = mapOf({ { Value::integer(1), Value::borrowedString("int") } });
    const auto uints = mapOf({ { Value::unsignedInteger(1), Value::borrowedString("uint") } });
    EXPECT_EQ(ints->keys().front().kind(), Kind::Int);
    EXPECT_EQ(uints->keys().front().kind(), Kind::Uint);
    EXPECT_EQ(uints->find(Value::integer(1))->asString(), "uint");
    EXPECT_EQ(ints->find(Value::floating(1.0))->asString(), "int");
    EXPECT_FALSE(ints->insert(Value::unsignedInteger(1), Value::null()));
}

TEST(MapDataTest, ASharedKeyOutlivesTheTextItWasBorrowedFrom)
{
    {
        const std::string text = "gpu.nvidia.com";
        mapOf({ { Value::borrowedString(text), Value::integer(1) } });
    }
    const std::string again = "gpu.nvidia.com";
    const auto map = mapOf({ { Value::borrowedString(again), Value::integer(2) } });
    EXPECT_EQ(map->keys().front().asString(), "gpu.nvidia.com");
    EXPECT_EQ(map->find(Value::borrowedString("gpu.nvidia.com"))->asInt(), 2);
}

TEST(MapDataTest, AMapKeepsItsValuesInOrderAsItGrows)
{
    for (const size_t reserved : std::vector<size_t> { 0, 3, 6 }) {
        MapData map;
        map.reserve(reserved);
        for (int i = 0; i < 9; ++i) {
            ASSERT_TRUE(map.insert(Value::integer(i), Value::string("v" + std::to_string(i))));
            const MapData copy = map;
            ASSERT_EQ(copy.size(), static_cast<size_t>(i + 1));
            for (int j = 0; j <= i; ++j) {
                ASSERT_EQ(map.values()[static_cast<size_t>(j)].asString(), "v" + std::to_string(j));
                ASSERT_EQ(copy.find(Value::integer(j))->asString(), "v" + std::to_string(j));
            }
        }
    }
}

TEST(MapDataTest, ALargeMapFindsEveryKeyAndACopyOfItGrowsAlone)
{
    MapData map;
    for (int i = 0; i < 100; ++i)
        ASSERT_TRUE(map.insert(Value::string("k" + std::to_string(i)), Value::integer(i)));
    EXPECT_FALSE(map.insert(Value::string("k42"), Value::null()));
    for (int i = 0; i < 100; ++i)
        ASSERT_EQ(map.find(Value::string("k" + std::to_string(i)))->asInt(), i);

    MapData copy = map;
    ASSERT_TRUE(copy.insert(Value::borrowedString("extra"), Value::integer(-1)));
    EXPECT_EQ(copy.size(), 101u);
    EXPECT_EQ(map.size(), 100u);
    EXPECT_EQ(map.find(Value::borrowedString("extra")), nullptr);
    EXPECT_EQ(map.keys().size(), 100u);
}

TEST(MapDataTest, MapsAreBuiltAlikeFromSeveralThreadsAtOnce)
{
    std::vector<std::thread> threads;
    std::vector<std::vector<std::shared_ptr<MapData>>> built(4);
    for (size_t t = 0; t < built.size(); ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 500; ++i) {
                auto map = std::make_shared<MapData>();
                map->insert(Value::borrowedString("a"), Value::integer(i));
                map->insert(Value::borrowedString(i % 2 ? "b" : "c"), Value::integer(i));
                built[t].push_back(std::move(map));
            }
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    for (const auto &maps : built) {
        for (size_t i = 0; i < maps.size(); ++i) {
            ASSERT_EQ(maps[i]->find(Value::borrowedString("a"))->asInt(), static_cast<int64_t>(i));
            ASSERT_EQ(&maps[i]->keys(), &built[0][i % 2]->keys());
        }
    }
}

TEST(MapDataTest, PathsReadThroughAVariablesMaps)
{
    const auto domain = mapOf({ { Value::borrowedString("type"), Value::string("gpu") } });
    const auto attributes
        = mapOf({ { Value::borrowedString("gpu.nvidia.com"), Value::map(domain) } });
    const Value device
        = Value::map(mapOf({ { Value::borrowedString("attributes"), Value::map(attributes) } }));

    EXPECT_EQ(
        evalWith(R"(device.attributes["gpu.nvidia.com"].type == "gpu")", device).debugString(),
        "true");
    EXPECT_EQ(
        evalWith(R"(device.attributes["gpu.nvidia.com"].type)", device).debugString(), "\"gpu\"");
    EXPECT_EQ(evalWith(R"(device.attributes["gpu.nvidia.com"])", device).debugString(),
        R"({"type": "gpu"})");
    const Value missing = evalWith(R"(device.attributes["amd.com"].type == "gpu")", device);
    ASSERT_TRUE(missing.isError());
    EXPECT_EQ(missing.asString(), "no such key: amd.com");
    EXPECT_TRUE(evalWith(R"(device.attributes.nope)", device).isError());
}
