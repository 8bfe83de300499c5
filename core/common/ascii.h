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

// The value of a hexadecimal digit (either case), or -1 when `c` is none.
constexpr int hexValue(char c)
{
    if (isAsciiDigit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace dra::common
