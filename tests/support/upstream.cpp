// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "tests/support/upstream.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace dra::test {

std::filesystem::path sharedDir()
{
    if (const char *env = std::getenv("DRA_SHARED_DIR");
        env && *env && std::filesystem::is_directory(env))
        return env;
    const std::filesystem::path fallback = DRA_DEFAULT_SHARED_DIR;
    if (std::filesystem::is_directory(fallback))
        return fallback;
    return {};
}

std::filesystem::path upstreamPath(const std::string &relative)
{
    const std::filesystem::path shared = sharedDir();
    if (shared.empty())
        return {};
    const std::filesystem::path path = shared / "upstream" / relative;
    return std::filesystem::exists(path) ? path : std::filesystem::path {};
}

std::filesystem::path testDataPath(const std::string &relative)
{
    return std::filesystem::path(DRA_TEST_DATA_DIR) / relative;
}

std::string readFile(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ADD_FAILURE() << "cannot read " << path;
        return {};
    }
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

} // namespace dra::test
