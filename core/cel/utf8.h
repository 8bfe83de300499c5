// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cel::utf8 {

// True when `s` is well-formed UTF-8 (no surrogates, no overlong forms).
bool isValid(std::string_view s);
// Number of code points; CEL string sizes and indexes count code points, not bytes.
size_t length(std::string_view s);
// The code points of `s` (invalid bytes decode to U+FFFD).
std::vector<uint32_t> decode(std::string_view s);
void append(std::string &out, uint32_t codePoint);
std::string encode(const std::vector<uint32_t> &codePoints, size_t begin, size_t end);

} // namespace dra::cel::utf8
