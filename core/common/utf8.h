// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace dra::common {

// Where `text` stops being UTF-8 (RFC 3629: no overlong forms, surrogates or code points past
// U+10FFFF), or npos. Manifests, plans and everything the API serves are Unicode: Kubernetes
// refuses other bytes, and a string holding them cannot be written as JSON.
std::size_t invalidUtf8At(std::string_view text);

// Where `text` first stops being UTF-8, as an editor shows it, for an error that names the place.
struct Utf8Break
{
    int line = 1; // 1-based
    int column = 1; // 1-based, in bytes
    unsigned char byte = 0; // the first byte that is not UTF-8
};
std::optional<Utf8Break> firstUtf8Break(std::string_view text);

} // namespace dra::common
