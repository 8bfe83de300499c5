// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/selector_lint.h"

#include <map>
#include <string>

#include <gtest/gtest.h>

using namespace dra::cel;

namespace {

// An inventory whose GPUs are A100s and H100s, with indexes 0 and 1.
class FakeInventory final : public PublishedAttributeValues
{
public:
    FakeInventory()
    {
        m_values["gpu.nvidia.com/productName"]
            = { Value::string("NVIDIA A100-SXM4-40GB"), Value::string("NVIDIA H100 80GB HBM3") };
        m_values["gpu.nvidia.com/index"] = { Value::integer(0), Value::integer(1) };
    }
    const std::vector<Value> *values(std::string_view domain, std::string_view name) const override
    {
        const auto it = m_values.find(std::string(domain) + "/" + std::string(name));
        return it == m_values.end() ? nullptr : &it->second;
    }
    // Their PCIe roots are lists (DRAListTypeAttributes), whose values are not offered.
    bool publishedAsList(std::string_view domain, std::string_view name) const override
    {
        return domain == "resource.kubernetes.io" && name == "pcieRoots";
    }

private:
    std::map<std::string, std::vector<Value>> m_values;
};

std::vector<Diagnostic> lint(const std::string &expr)
{
    std::vector<Diagnostic> diagnostics;
    const std::optional<ParsedExpr> parsed = parse(expr, ParseOptions {}, &diagnostics);
    EXPECT_TRUE(parsed.has_value()) << expr;
    if (parsed)
        lintSelectorValues(*parsed, FakeInventory(), &diagnostics);
    return diagnostics;
}

} // namespace

TEST(SelectorLintTest, ComparisonWithAValueNoDevicePublishesIsNeverTrue)
{
    const std::vector<Diagnostic> d
        = lint(R"(device.attributes["gpu.nvidia.com"].productName == "H200")");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, Diagnostic::Severity::Warning);
    EXPECT_EQ(d[0].column, 52);
    EXPECT_NE(d[0].message.find("never true"), std::string::npos) << d[0].message;
    EXPECT_NE(d[0].message.find("\"NVIDIA H100 80GB HBM3\""), std::string::npos) << d[0].message;

    // Either order, the bracket form, bound names inside larger expressions, and `in`.
    EXPECT_EQ(
        lint(R"(device.driver == "x" || 7 == device.attributes["gpu.nvidia.com"]["index"])").size(),
        1u);
    EXPECT_EQ(
        lint(R"(device.attributes["gpu.nvidia.com"].productName in ["H200", "B200"])").size(), 1u);
}

TEST(SelectorLintTest, ValuesSomeDevicePublishesAreFine)
{
    EXPECT_TRUE(
        lint(R"(device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3")")
            .empty());
    // CEL equality: 1.0 equals the published int 1.
    EXPECT_TRUE(lint(R"(device.attributes["gpu.nvidia.com"].index == 1.0)").empty());
    EXPECT_TRUE(lint(
        R"(device.attributes["gpu.nvidia.com"].productName in ["H200", "NVIDIA A100-SXM4-40GB"])")
                    .empty());
    // Unknown attributes are the name warnings' business; non-literals are not judged.
    EXPECT_TRUE(lint(R"(device.attributes["gpu.nvidia.com"].profile == "1g.10gb")").empty());
    EXPECT_TRUE(
        lint(R"(device.attributes["gpu.nvidia.com"].productName == device.driver)").empty());
}

TEST(SelectorLintTest, EqualityWithAListAttributeSuggestsIncludes)
{
    const std::vector<Diagnostic> d
        = lint(R"(device.attributes["resource.kubernetes.io"].pcieRoots == "pci0000:00")");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, Diagnostic::Severity::Warning);
    EXPECT_NE(d[0].message.find("is a list on some devices"), std::string::npos) << d[0].message;
    EXPECT_NE(d[0].message.find(".pcieRoots.includes(\"pci0000:00\")"), std::string::npos)
        << d[0].message;
    EXPECT_TRUE(
        lint(R"(device.attributes["resource.kubernetes.io"].pcieRoots.includes("pci0000:00"))")
            .empty());
}
