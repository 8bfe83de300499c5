// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstddef>
#include <string_view>

namespace dra::common {

// Where `text` stops being UTF-8 (RFC 3629: no overlong forms, surrogates or code points past
// U+10FFFF), or npos. Manifests, plans and everything the API serves are Unicode: Kubernetes
// refuses other bytes, and a string holding them cannot be written as JSON.
std::size_t invalidUtf8At(std::string_view text);

} // namespace dra::common
