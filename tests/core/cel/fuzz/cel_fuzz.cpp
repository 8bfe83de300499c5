// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Fuzz entry point for the CEL parser, checker, cost estimator, planner and evaluator. Built
// with GCC and ASan/UBSan:
//   - as a replay driver (this main), run by ctest over the checked-in corpus;
//   - with AFL++ (afl-g++-fast with -DDRA_CEL_FUZZ_NO_MAIN and afl's libAFLDriver) for the
//     10-minute manual campaign.
// The input is a CEL expression; it is compiled against the DRA selector environment and the
// standard one, and evaluated on a fixed device. Any crash, hang or sanitizer report is a bug.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>

#include "core/cel/dra_selector.h"
#include "core/cel/program.h"

namespace {

const dra::cel::DeviceView &fuzzDevice()
{
    static const dra::cel::DeviceView device = [] {
        dra::cel::DeviceView d;
        d.driver = "gpu.example.com";
        using T = dra::cel::DeviceAttributeValue::Type;
        d.addAttribute("model", {T::String, 0, false, "a100"});
        d.addAttribute("index", {T::Int, 3, false, {}});
        d.addAttribute("mig", {T::Bool, 0, true, {}});
        d.addAttribute("other.example.com/driverVersion", {T::Version, 0, false, "1.2.3"});
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
// Replays every file under the given folders (or single files) through the entry point.
int main(int argc, char **argv)
{
    size_t count = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path root = argv[i];
        std::vector<std::filesystem::path> files;
        if (std::filesystem::is_directory(root)) {
            for (const auto &entry : std::filesystem::recursive_directory_iterator(root)) {
                if (entry.is_regular_file())
                    files.push_back(entry.path());
            }
        } else {
            files.push_back(root);
        }
        for (const auto &file : files) {
            std::ifstream in(file, std::ios::binary);
            std::stringstream buffer;
            buffer << in.rdbuf();
            const std::string data = buffer.str();
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.data()), data.size());
            ++count;
        }
    }
    std::cout << "replayed " << count << " inputs\n";
    return 0;
}
#endif
