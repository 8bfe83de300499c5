// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

namespace dra::common {

// Kubernetes' grammars (quantities, versions, names) are ASCII: these ignore the locale that
// <cctype> would consult and take a plain char without the unsigned-char cast it needs.
constexpr bool isAsciiDigit(char c)
{
    return c >= '0' && c <= '9';
}

} // namespace dra::common
