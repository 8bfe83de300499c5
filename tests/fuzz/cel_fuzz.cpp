// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Fuzz target for the CEL parser, checker, cost estimator, planner and evaluator (the driver
// and how to run a campaign: fuzz_driver.h). The input is a CEL expression; it is compiled
// against the DRA selector environment and the standard one, and evaluated on a fixed device.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/cel/dra_selector.h"
#include "core/cel/program.h"
#include "tests/fuzz/fuzz_driver.h"

namespace {

const dra::cel::DeviceView &fuzzDevice()
{
    static const dra::cel::DeviceView device = [] {
        dra::cel::DeviceView d;
        d.driver = "gpu.example.com";
        using T = dra::cel::DeviceAttributeValue::Type;
        d.addAttribute("model", { T::String, 0, false, "a100" });
        d.addAttribute("index", { T::Int, 3, false, {} });
        d.addAttribute("mig", { T::Bool, 0, true, {} });
        d.addAttribute("other.example.com/driverVersion", { T::Version, 0, false, "1.2.3" });
        return d;
    }();
    return device;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    std::vector<dra::cel::Diagnostic> diagnostics;
    auto selector = dra::cel::compileSelector(text, &diagnostics);
    if (selector && selector->isValid())
        (void)dra::cel::evaluate(*selector, fuzzDevice());

    static const dra::cel::Environment env = dra::cel::Environment::standard();
    diagnostics.clear();
    auto program = dra::cel::compile(env, text, {}, &diagnostics);
    if (program && program->isValid())
        (void)program->evaluate({}, nullptr, 100000);
    return 0;
}

#ifndef DRA_FUZZ_NO_MAIN
namespace {

// Pieces of CEL the mutator inserts, so that mutants get past the lexer and parser.
const dra::fuzz::Dictionary &celTokens()
{
    static const dra::fuzz::Dictionary tokens = { "device", ".attributes", ".capacity", ".driver",
        "[\"gpu.example.com\"]", ".model", ".index", "[\"other.example.com\"]", ".driverVersion",
        ".mig", "has(", ")", "(", "[", "]", "{", "}", ":", ",", ".", "?", "!", "-", "&&", "||",
        "==", "!=", "<", "<=", ">=", ">", "+", "*", "/", "%", " in ", "1", "0", "-1", "1u", "1.5",
        "9223372036854775807", "-9223372036854775808", "18446744073709551615u", "0x7f", "\"a\"",
        "'b'", "r\"\\d\"", "b\"\\xff\"", "\"\"\"x\"\"\"", "true", "false", "null", ".all(x, ",
        ".exists(x, ", ".exists_one(x, ", ".map(x, ", ".filter(x, ", "x", ".size()", "size(",
        "int(", "uint(", "double(", "string(", "bytes(", "type(", "dyn(", "duration(\"1s\")",
        "timestamp(\"2024-01-01T00:00:00Z\")", "quantity(\"1Gi\")", "isQuantity(", ".compareTo(",
        ".isGreaterThan(", ".add(", ".sub(", ".asInteger()", "semver(\"1.2.3\")", "isSemver(",
        ".major()", "cel.bind(v, ", "v", ".matches(", ".startsWith(", ".endsWith(", ".contains(",
        ".split(", ".join(", ".format(", ".substring(", ".charAt(", ".indexOf(", ".lowerAscii()",
        ".replace(", "lists.range(", ".sort()", ".distinct()", ".flatten()", "sets.contains(",
        "math.greatest(", "math.least(", "optional.of(", "optional.none()", ".?", "[?", ".orValue(",
        ".hasValue()", "ip(", "cidr(", "url(", "base64.encode(", "base64.decode(", ".find(",
        ".findAll(", ".transformMap(k, v, ", ".all(k, v, ", "\\", "\\u00e9", "\xc3\xa9", "\xff",
        "\n", " " };
    return tokens;
}

} // namespace

int main(int argc, char **argv)
{
    return dra::fuzz::runFuzzDriver(
        argc, argv, { "cel_fuzz", &LLVMFuzzerTestOneInput, celTokens(), 12 * 1024 });
}
#endif
