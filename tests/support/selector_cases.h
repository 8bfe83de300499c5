// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The A100 fixture and the selector table evaluated against it, shared by the selector tests
// and the inventory sweep tests that compare remembered results with fresh evaluations.
#pragma once

#include <string>
#include <vector>

#include "core/cel/dra_selector.h"

namespace dra::test {

// An A100 as NVIDIA's DRA driver publishes it (gpu.nvidia.com attributes).
inline cel::DeviceView a100()
{
    cel::DeviceView d;
    d.driver = "gpu.nvidia.com";
    using T = cel::DeviceAttributeValue::Type;
    d.addAttribute("type", { T::String, 0, false, "gpu" });
    d.addAttribute("productName", { T::String, 0, false, "NVIDIA A100-SXM4-40GB" });
    d.addAttribute("architecture", { T::String, 0, false, "Ampere" });
    d.addAttribute("brand", { T::String, 0, false, "Nvidia" });
    d.addAttribute("index", { T::Int, 0, false, {} });
    d.addAttribute("minor", { T::Int, 0, false, {} });
    d.addAttribute("uuid", { T::String, 0, false, "GPU-4cf8db2d-06c0-7d70-1a51-e59b25b2c16c" });
    d.addAttribute("cudaComputeCapability", { T::Version, 0, false, "8.0.0" });
    d.addAttribute("driverVersion", { T::Version, 0, false, "550.54.15" });
    d.addAttribute("resource.kubernetes.io/pcieRoot", { T::String, 0, false, "pci0000:00" });
    d.addAttribute("mig-capable", { T::Bool, 0, true, {} });
    d.addCapacity("memory", *dra::model::Quantity::parse("40Gi"));
    d.addCapacity("multiprocessors", *dra::model::Quantity::parse("108"));
    return d;
}

struct SelectorCase
{
    std::string expr;
    cel::SelectorResult::Outcome want;
};

inline const std::vector<SelectorCase> &a100SelectorCases()
{
    constexpr auto Match = cel::SelectorResult::Outcome::Match;
    constexpr auto NoMatch = cel::SelectorResult::Outcome::NoMatch;
    constexpr auto Error = cel::SelectorResult::Outcome::Error;
    static const std::vector<SelectorCase> cases {
        SelectorCase { R"(device.driver == "gpu.nvidia.com")", Match },
        SelectorCase { R"(device.driver == "gpu.example.com")", NoMatch },
        SelectorCase {
            R"(device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA A100"))", Match },
        SelectorCase { R"(device.attributes["gpu.nvidia.com"].index == 0)", Match },
        SelectorCase { R"(device.attributes["gpu.nvidia.com"]["mig-capable"])", Match },
        SelectorCase {
            R"(device.attributes["resource.kubernetes.io"].pcieRoot == "pci0000:00")", Match },
        SelectorCase {
            R"(cel.bind(gpu, device.attributes["gpu.nvidia.com"], gpu.type == "gpu" && gpu.architecture == "Ampere"))",
            Match },
        // A domain no device publishes is an empty map: has() is false, lookups fail.
        SelectorCase { R"(has(device.attributes["dra.example.com"].model))", NoMatch },
        SelectorCase { R"(device.attributes["dra.example.com"].model == "x")", Error },
        // A missing attribute is an error, absorbed by && when the other side is false.
        SelectorCase { R"(device.attributes["gpu.nvidia.com"].memory == 1)", Error },
        SelectorCase {
            R"(device.driver == "other" && device.attributes["gpu.nvidia.com"].memory == 1)",
            NoMatch },
        SelectorCase { R"(device.attributes["gpu.nvidia.com"].?memory.orValue(0) == 0)", Match },
        SelectorCase { R"(device.allowMultipleAllocations)", NoMatch },
        SelectorCase { R"(device.attributes["gpu.nvidia.com"].productName)", Error },
        // Capacities are quantities, compared exactly.
        SelectorCase {
            R"(device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) == 0)", Match },
        SelectorCase {
            R"(device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("80Gi")) >= 0)",
            NoMatch },
        SelectorCase {
            R"(device.capacity["gpu.nvidia.com"].memory.isGreaterThan(quantity("39.9Gi")))",
            Match },
        SelectorCase {
            R"(device.capacity["gpu.nvidia.com"].multiprocessors.asInteger() > 100)", Match },
        SelectorCase {
            R"(device.capacity["gpu.nvidia.com"].memory.add(quantity("1Gi")).isLessThan(quantity("42Gi")))",
            Match },
        SelectorCase { R"(device.capacity["other.example.com"].size() == 0)", Match },
        SelectorCase { R"("memory" in device.capacity["gpu.nvidia.com"])", Match },
        SelectorCase {
            R"(device.attributes["gpu.nvidia.com"].exists(name, name == "uuid"))", Match },
        SelectorCase { R"(has(device.capacity["other.example.com"].memory))", NoMatch },
        // Versions are semver values.
        SelectorCase {
            R"(device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("550.0.0")))",
            Match },
        SelectorCase {
            R"(device.attributes["gpu.nvidia.com"].cudaComputeCapability.major() == 8)", Match },
        SelectorCase {
            R"(device.attributes["gpu.nvidia.com"].cudaComputeCapability.compareTo(semver("9.0.0")) >= 0)",
            NoMatch },
        SelectorCase {
            R"(device.attributes["gpu.nvidia.com"].driverVersion == semver("550.54.15"))", Match },
        SelectorCase {
            R"(semver("v8.0", true) == device.attributes["gpu.nvidia.com"].cudaComputeCapability)",
            Match },
        SelectorCase {
            R"(isQuantity("1.5Gi") && !isQuantity("1.5 Gi") && isSemver("1.2.3") && !isSemver("1.2"))",
            Match },
        SelectorCase { R"(quantity("1.5Gi").asInteger() == 1610612736)", Match },
        SelectorCase { R"(quantity("500m").asInteger() == 0)", Error },
        SelectorCase { R"(quantity("500m").isInteger() || quantity("-1").sign() != -1)", NoMatch }
    };
    return cases;
}

} // namespace dra::test
