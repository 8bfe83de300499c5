// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/device_attribute_validation.h"

#include <gtest/gtest.h>

#include "core/server/object_validation.h"

using namespace dra;
using namespace dra::server;
using nlohmann::json;

namespace {

std::vector<std::string> sliceErrors(const json &attributes)
{
    json slice = json::parse(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice",
        "metadata":{"name":"node-a-gpus"},
        "spec":{"driver":"gpu.example.com","nodeName":"node-a",
                "pool":{"name":"node-a","generation":1,"resourceSliceCount":1}}})");
    slice["spec"]["devices"]
        = json::array({ { { "name", "gpu-0" }, { "attributes", attributes } } });
    std::vector<std::string> messages;
    for (const FieldError &error :
        validateCreate(slice, model::kindInfo(model::Kind::ResourceSlice)))
        messages.push_back(error.message());
    return messages;
}

json numbers(int count)
{
    json list = json::array();
    for (int i = 0; i < count; ++i)
        list.push_back(i);
    return list;
}

} // namespace

TEST(DeviceAttributeValidationTest, AcceptsScalarsAndListsWithinTheLimits)
{
    const std::vector<std::string> errors = sliceErrors({ { "index", { { "int", 0 } } },
        { "resource.kubernetes.io/pcieRoots", { { "strings", { "pci0000:00", "pci0000:40" } } } },
        { "firmware", { { "versions", { "1.2.3", "2.0.0-rc.1+build.5" } } } },
        { "lanes", { { "ints", numbers(40) } } }, { "flags", { { "bools", { true, false } } } },
        { "driverVersion", { { "version", "550.54.15" } } } });
    EXPECT_TRUE(errors.empty()) << errors.front();
}

TEST(DeviceAttributeValidationTest, RejectsTwoValueFields)
{
    const std::vector<std::string> errors
        = sliceErrors({ { "model", { { "string", "a" }, { "strings", { "a", "b" } } } } });
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_TRUE(errors[0].starts_with("spec.devices[0].attributes[model]: Invalid value: "));
    EXPECT_TRUE(errors[0].ends_with(": exactly one value must be specified")) << errors[0];
}

TEST(DeviceAttributeValidationTest, RequiresOneValueField)
{
    const std::vector<std::string> errors = sliceErrors({ { "model", json::object() } });
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0],
        "spec.devices[0].attributes[model]: Required value: exactly one value must be specified");
}

// 48 values per device, a list counting its length: 40 + 8 fit, one more does not.
TEST(DeviceAttributeValidationTest, CountsListElementsTowardFortyEightValues)
{
    json attributes = { { "lanes", { { "ints", numbers(40) } } },
        { "flags", { { "bools", { true, true, false, false } } } }, { "a", { { "int", 1 } } },
        { "b", { { "string", "x" } } }, { "c", { { "bool", true } } },
        { "d", { { "version", "1.0.0" } } } };
    EXPECT_TRUE(sliceErrors(attributes).empty());
    attributes["e"] = { { "int", 2 } };
    const std::vector<std::string> errors = sliceErrors(attributes);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0], "spec.devices[0].attributes: Too many: 49: must have at most 48 items");
}

TEST(DeviceAttributeValidationTest, RejectsABadVersionInAList)
{
    const std::vector<std::string> errors
        = sliceErrors({ { "firmware", { { "versions", { "1.2.3", "v2.0" } } } } });
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0],
        "spec.devices[0].attributes[firmware].versions[1]: Invalid value: \"v2.0\": "
        "must be a string compatible with semver.org spec 2.0.0");
}

TEST(DeviceAttributeValidationTest, LimitsTheLengthOfEachString)
{
    const std::string longText(65, 'x');
    const std::vector<std::string> errors
        = sliceErrors({ { "names", { { "strings", { "ok", longText } } } },
            { "model", { { "string", longText } } } });
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_TRUE(errors[0].starts_with("spec.devices[0].attributes[model].string: Too long: "))
        << errors[0];
    EXPECT_TRUE(errors[1].starts_with("spec.devices[0].attributes[names].strings[1]: Too long: "))
        << errors[1];
}
