// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/common/duration.h"

#include <limits>

#include "core/common/ascii.h"

namespace dra::common {

namespace {

// The unit at the start of `text` in milliseconds and its length; {0, 0} when there is none.
std::pair<int64_t, size_t> unitAt(std::string_view text)
{
    if (text.starts_with("ms"))
        return { 1, 2 };
    if (text.empty())
        return { 0, 0 };
    switch (text.front()) {
    case 's':
        return { 1000, 1 };
    case 'm':
        return { 60'000, 1 };
    case 'h':
        return { 3'600'000, 1 };
    case 'd':
        return { 86'400'000, 1 };
    default:
        return { 0, 0 };
    }
}

} // namespace

std::optional<int64_t> parseDuration(std::string_view text)
{
    if (text.empty())
        return std::nullopt;
    constexpr int64_t max = std::numeric_limits<int64_t>::max();
    int64_t total = 0;
    size_t i = 0;
    while (i < text.size()) {
        int64_t value = 0;
        const size_t digitsStart = i;
        for (; i < text.size() && isAsciiDigit(text[i]); ++i) {
            if (value > (max - 9) / 10)
                return std::nullopt;
            value = value * 10 + (text[i] - '0');
        }
        if (i == digitsStart)
            return std::nullopt;
        const auto [unit, length] = unitAt(text.substr(i));
        if (unit == 0)
            return std::nullopt;
        i += length;
        if (value > (max - total) / unit)
            return std::nullopt;
        total += value * unit;
    }
    return total;
}

std::string formatDuration(int64_t ms)
{
    if (ms <= 0)
        return "0s";
    std::string text;
    const int64_t hours = ms / 3'600'000;
    const int64_t minutes = ms / 60'000 % 60;
    const int64_t seconds = ms / 1000 % 60;
    const int64_t millis = ms % 1000;
    if (hours)
        text += std::to_string(hours) + "h";
    if (minutes)
        text += std::to_string(minutes) + "m";
    if (seconds)
        text += std::to_string(seconds) + "s";
    if (millis)
        text += std::to_string(millis) + "ms";
    return text;
}

} // namespace dra::common
