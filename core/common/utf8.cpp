// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/common/utf8.h"

#include <algorithm>

namespace dra::common {

std::size_t invalidUtf8At(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
        const unsigned char lead = byte(i);
        std::size_t length = 0;
        unsigned char low = 0x80, high = 0xBF; // the range of the second byte
        if (lead < 0x80)
            length = 1;
        else if (lead >= 0xC2 && lead <= 0xDF)
            length = 2;
        else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            if (lead == 0xE0)
                low = 0xA0; // overlong
            else if (lead == 0xED)
                high = 0x9F; // surrogates
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            if (lead == 0xF0)
                low = 0x90; // overlong
            else if (lead == 0xF4)
                high = 0x8F; // past U+10FFFF
        } else
            return i;
        if (i + length > text.size())
            return i;
        for (std::size_t k = 1; k < length; ++k) {
            const unsigned char c = byte(i + k);
            if (c < (k == 1 ? low : 0x80) || c > (k == 1 ? high : 0xBF))
                return i;
        }
        i += length;
    }
    return std::string_view::npos;
}

std::optional<Utf8Break> firstUtf8Break(std::string_view text)
{
    const std::size_t at = invalidUtf8At(text);
    if (at == std::string_view::npos)
        return std::nullopt;
    const std::string_view before = text.substr(0, at);
    const std::size_t lineStart = before.rfind('\n');
    return Utf8Break { int(std::count(before.begin(), before.end(), '\n')) + 1,
        int(at - (lineStart == std::string_view::npos ? 0 : lineStart + 1)) + 1,
        static_cast<unsigned char>(text[at]) };
}

} // namespace dra::common
