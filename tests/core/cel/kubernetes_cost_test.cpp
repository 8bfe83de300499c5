// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Our cost estimates against the worst-case costs Kubernetes' own DRA selector tests record
// for cel-go's estimator (k8s.io/dynamic-resource-allocation/cel, TestCEL's expectCost): the
// numbers an admin sees in "estimated cost exceeds budget" must be Kubernetes' numbers.
#include <string>

#include <gtest/gtest.h>

#include "core/cel/dra_selector.h"

namespace {

struct PublishedCost
{
    const char *name;
    std::string expr;
    uint64_t max;
};

class KubernetesCostTest : public testing::TestWithParam<PublishedCost>
{
};

TEST_P(KubernetesCostTest, EstimateEqualsTheFigureKubernetesPublishes)
{
    std::vector<dra::cel::Diagnostic> diagnostics;
    const auto selector = dra::cel::compileSelector(GetParam().expr, &diagnostics);
    ASSERT_TRUE(selector.has_value()) << selector.error().message.toStdString();
    // The costliest case is over the limit: compiled, but refused with its estimate.
    if (!selector->isValid()) {
        ASSERT_FALSE(diagnostics.empty());
        EXPECT_NE(
            diagnostics.front().message.find(std::to_string(GetParam().max)), std::string::npos)
            << diagnostics.front().message;
        return;
    }
    EXPECT_EQ(selector->cost().max, GetParam().max) << GetParam().expr;
}

const std::string kAll = R"(
device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"].bool &&
device.attributes["dra.example.com"].int > 0 &&
device.attributes["dra.example.com"].string == "fish" &&
device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&
device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"]["bool"] &&
device.attributes["dra.example.com"]["int"] > 0 &&
device.attributes["dra.example.com"]["string"] == "fish" &&
device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1"))
)";

const std::string kNestedAll = [] {
    // Seven nested all() over ten-element lists: far beyond the limit of 1,000,000.
    const std::string list = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]";
    std::string expr = "int('1'.find('[0-9]*')) < 100";
    for (const char *var : { "z5", "z4", "z3", "z2", "z", "y", "x" })
        expr = list + ".all(" + var + ", " + expr + ")";
    return expr;
}();

INSTANTIATE_TEST_SUITE_P(Dra, KubernetesCostTest,
    testing::Values(PublishedCost { "literal", "true", 0 },
        PublishedCost { "empty_driver", R"(device.driver == "")", 2 },
        PublishedCost { "driver", R"(device.driver == "dra.example.com")", 4 },
        PublishedCost { "attribute", R"(device.attributes["dra.example.com"].name)", 4 },
        PublishedCost { "attribute_index", R"(device.attributes["dra.example.com"]["name"])", 4 },
        PublishedCost {
            "bind", R"(cel.bind(dra, device.attributes["dra.example.com"], dra.name))", 15 },
        PublishedCost { "domain_check", R"("no-such-domain" in device.attributes)", 3 },
        PublishedCost { "int", R"(device.attributes["dra.example.com"].name > 0)", 5 },
        PublishedCost { "string", R"(device.attributes["dra.example.com"].name == "fish")", 5 },
        PublishedCost { "missing_attribute",
            R"(device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0")))", 6 },
        PublishedCost { "version",
            R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1")))", 6 },
        PublishedCost { "version_relaxed",
            R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true))",
            7 },
        PublishedCost { "quantity",
            R"(device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))", 6 },
        PublishedCost { "check_positive",
            R"("name" in device.capacity["dra.example.com"] && device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
            10 },
        PublishedCost { "check_negative",
            R"(!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
            11 },
        PublishedCost { "all", kAll, 52 },
        PublishedCost { "many",
            R"(device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && device.attributes["dra.example.com"].c)",
            12 },
        PublishedCost { "attribute_domains",
            R"(device.attributes.exists_one(x, x == "dra.example.com"))", 164 },
        PublishedCost { "attribute_ids",
            R"(device.attributes["dra.example.com"].exists_one(x, x == "services"))", 133 },
        PublishedCost {
            "capacity_domains", R"(device.capacity.exists_one(x, x == "dra.example.com"))", 164 },
        PublishedCost { "capacity_ids",
            R"(device.capacity["dra.example.com"].exists_one(x, x == "memory"))", 133 },
        PublishedCost { "split",
            R"(device.attributes["dra.example.com"].services.split("example").size() >= 2)", 19 },
        PublishedCost {
            "regex", R"(device.attributes["dra.example.com"].services.matches("[^a]?sym"))", 18 },
        PublishedCost {
            "allow_multiple_allocations", R"(device.allowMultipleAllocations == true)", 3 },
        PublishedCost { "expensive", kNestedAll, 85555551 }),
    [](const testing::TestParamInfo<PublishedCost> &info) { return std::string(info.param.name); });

} // namespace
