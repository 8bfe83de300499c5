// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace dra::test {

// ../shared beside the checkout, or $DRA_SHARED_DIR. Empty when absent.
std::filesystem::path sharedDir();

// A path under ../shared/upstream/, or empty when the reference data is not there.
std::filesystem::path upstreamPath(const std::string &relative);

// tests/data/<relative> of this repository: fixtures we made ourselves.
std::filesystem::path testDataPath(const std::string &relative);

// Reads a whole file; fails the test (and returns "") when it cannot.
std::string readFile(const std::filesystem::path &path);

} // namespace dra::test

// Skips the current test with a clear message when upstream reference data is absent.
#define DRA_REQUIRE_UPSTREAM(var, relative)                                                        \
    const std::filesystem::path var = ::dra::test::upstreamPath(relative);                         \
    if (var.empty())                                                                               \
    GTEST_SKIP() << "upstream reference data not found: ../shared/upstream/" << (relative)         \
                 << " (set DRA_SHARED_DIR to the shared folder)"
