// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/duration.h"

#include <limits>

namespace dra::rollout {

std::optional<int64_t> parseDuration(std::string_view text)
{
    if (text.empty())
        return std::nullopt;
    int64_t total = 0;
    size_t i = 0;
    while (i < text.size()) {
        int64_t value = 0;
        const size_t digitsStart = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            if (value > (std::numeric_limits<int64_t>::max() - 9) / 10)
                return std::nullopt;
            value = value * 10 + (text[i] - '0');
            ++i;
        }
        if (i == digitsStart)
            return std::nullopt;
        int64_t unit = 0;
        if (text.substr(i, 2) == "ms") {
            unit = 1;
            i += 2;
        } else if (i < text.size() && text[i] == 's') {
            unit = 1000;
            ++i;
        } else if (i < text.size() && text[i] == 'm') {
            unit = 60'000;
            ++i;
        } else if (i < text.size() && text[i] == 'h') {
            unit = 3'600'000;
            ++i;
        } else {
            return std::nullopt;
        }
        if (value > (std::numeric_limits<int64_t>::max() - total) / unit)
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

} // namespace dra::rollout
