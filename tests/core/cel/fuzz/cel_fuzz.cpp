// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Fuzz entry point for the CEL parser, checker, cost estimator, planner and evaluator. Built
// with GCC and ASan/UBSan:
//   - as a replay driver (this main), run by ctest over the checked-in corpus;
//   - as a mutation driver for the manual campaign, with no fuzzing engine needed:
//       cel_fuzz --mutate SECONDS [--seed N] [--save DIR] CORPUS...
//     mutates corpus inputs (byte edits, CEL tokens, splices) until SECONDS have passed; a
//     sanitizer report aborts the run, and the input being tried is written to
//     cel_fuzz_current.txt first so that it can be replayed;
//   - with AFL++ (afl-g++-fast with -DDRA_CEL_FUZZ_NO_MAIN and afl's libAFLDriver).
// The input is a CEL expression; it is compiled against the DRA selector environment and the
// standard one, and evaluated on a fixed device. Any crash, hang or sanitizer report is a bug.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/cel/dra_selector.h"
#include "core/cel/program.h"

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

#ifndef DRA_CEL_FUZZ_NO_MAIN
namespace {

std::string readFile(const std::filesystem::path &file)
{
    std::ifstream in(file, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

void runOne(const std::string &data)
{
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.data()), data.size());
}

// Pieces of CEL the mutator inserts, so that mutants get past the lexer and parser.
constexpr const char *kTokens[] = { "device", ".attributes", ".capacity", ".driver",
    "[\"gpu.example.com\"]", ".model", ".index", "[\"other.example.com\"]", ".driverVersion",
    ".mig", "has(", ")", "(", "[", "]", "{", "}", ":", ",", ".", "?", "!", "-", "&&", "||",
    "==", "!=", "<", "<=", ">=", ">", "+", "*", "/", "%", " in ", "1", "0", "-1", "1u", "1.5",
    "9223372036854775807", "-9223372036854775808", "18446744073709551615u", "0x7f", "\"a\"", "'b'",
    "r\"\\d\"", "b\"\\xff\"", "\"\"\"x\"\"\"", "true", "false", "null", ".all(x, ", ".exists(x, ",
    ".exists_one(x, ", ".map(x, ", ".filter(x, ", "x", ".size()", "size(", "int(", "uint(",
    "double(", "string(", "bytes(", "type(", "dyn(", "duration(\"1s\")",
    "timestamp(\"2024-01-01T00:00:00Z\")", "quantity(\"1Gi\")", "isQuantity(", ".compareTo(",
    ".isGreaterThan(", ".add(", ".sub(", ".asInteger()", "semver(\"1.2.3\")", "isSemver(",
    ".major()", "cel.bind(v, ", "v", ".matches(", ".startsWith(", ".endsWith(", ".contains(",
    ".split(", ".join(", ".format(", ".substring(", ".charAt(", ".indexOf(", ".lowerAscii()",
    ".replace(", "lists.range(", ".sort()", ".distinct()", ".flatten()", "sets.contains(",
    "math.greatest(", "math.least(", "optional.of(", "optional.none()", ".?", "[?", ".orValue(",
    ".hasValue()", "ip(", "cidr(", "url(", "base64.encode(", "base64.decode(", ".find(",
    ".findAll(", ".transformMap(k, v, ", ".all(k, v, ", "\\", "\\u00e9", "\xc3\xa9", "\xff", "\n",
    " " };

// One random edit of `input`, sometimes spliced with `other`.
std::string mutate(std::string input, const std::string &other, std::mt19937_64 &rng)
{
    const auto pick
        = [&](size_t n) { return n == 0 ? size_t { 0 } : static_cast<size_t>(rng() % n); };
    const int edits = 1 + static_cast<int>(pick(4));
    for (int i = 0; i < edits; ++i) {
        const size_t at = pick(input.size() + 1);
        switch (pick(7)) {
        case 0: // insert a token
            input.insert(at, kTokens[pick(std::size(kTokens))]);
            break;
        case 1: // erase a run
            if (!input.empty())
                input.erase(std::min(at, input.size() - 1), 1 + pick(8));
            break;
        case 2: // flip a byte
            if (!input.empty())
                input[std::min(at, input.size() - 1)] ^= static_cast<char>(1u << pick(8));
            break;
        case 3: // random byte
            input.insert(at, 1, static_cast<char>(pick(256)));
            break;
        case 4: // duplicate a run (nesting, long chains)
            if (!input.empty()) {
                const size_t from = pick(input.size());
                input.insert(at, input.substr(from, 1 + pick(32)));
            }
            break;
        case 5: // splice with another input
            if (!other.empty())
                input = input.substr(0, at) + other.substr(pick(other.size()));
            break;
        default: // replace a run with a token
            if (!input.empty())
                input.replace(
                    std::min(at, input.size() - 1), 1 + pick(6), kTokens[pick(std::size(kTokens))]);
            break;
        }
    }
    if (input.size() > 12 * 1024)
        input.resize(12 * 1024);
    return input;
}

} // namespace

// Replays every file under the given folders (or single files) through the entry point, or
// with --mutate, fuzzes from them.
int main(int argc, char **argv)
{
    double seconds = 0;
    uint64_t seed = 1;
    std::filesystem::path saveDir;
    std::vector<std::filesystem::path> roots;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--mutate" && i + 1 < argc)
            seconds = std::stod(argv[++i]);
        else if (arg == "--seed" && i + 1 < argc)
            seed = std::stoull(argv[++i]);
        else if (arg == "--save" && i + 1 < argc)
            saveDir = argv[++i];
        else
            roots.emplace_back(arg);
    }
    std::vector<std::string> inputs;
    for (const std::filesystem::path &root : roots) {
        std::vector<std::filesystem::path> files;
        if (std::filesystem::is_directory(root)) {
            for (const auto &entry : std::filesystem::recursive_directory_iterator(root)) {
                if (entry.is_regular_file())
                    files.push_back(entry.path());
            }
        } else {
            files.push_back(root);
        }
        std::sort(files.begin(), files.end());
        for (const auto &file : files) {
            inputs.push_back(readFile(file));
            runOne(inputs.back());
        }
    }
    std::cout << "replayed " << inputs.size() << " inputs\n";
    if (seconds <= 0 || inputs.empty())
        return 0;

    std::mt19937_64 rng(seed);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    size_t executions = 0;
    size_t saved = 0;
    std::vector<std::string> pool = inputs;
    while (std::chrono::steady_clock::now() < deadline) {
        for (int batch = 0; batch < 64; ++batch) {
            const std::string &base = pool[rng() % pool.size()];
            const std::string &other = pool[rng() % pool.size()];
            std::string mutant = mutate(base, other, rng);
            {
                std::ofstream current("cel_fuzz_current.txt", std::ios::binary | std::ios::trunc);
                current << mutant;
            }
            runOne(mutant);
            ++executions;
            // Keep some mutants as bases so that edits accumulate, with a bounded pool.
            if (rng() % 16 == 0) {
                if (pool.size() < 4096)
                    pool.push_back(mutant);
                else
                    pool[inputs.size() + rng() % (pool.size() - inputs.size())] = mutant;
                if (!saveDir.empty() && saved < 200 && rng() % 64 == 0) {
                    std::filesystem::create_directories(saveDir);
                    std::ofstream(saveDir / ("mutant_" + std::to_string(saved++)), std::ios::binary)
                        << mutant;
                }
            }
        }
    }
    std::cout << "mutated " << executions << " inputs in " << seconds << " s (seed " << seed
              << "), no crash\n";
    return 0;
}
#endif
