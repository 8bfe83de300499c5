// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/age.h"

#include <charconv>
#include <chrono>

namespace dra::inventory {

namespace {

bool digits(std::string_view text, size_t pos, size_t count, int &out)
{
    if (pos + count > text.size())
        return false;
    const auto [ptr, ec] = std::from_chars(text.data() + pos, text.data() + pos + count, out);
    return ec == std::errc() && ptr == text.data() + pos + count;
}

// Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
int64_t daysFromCivil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + int64_t(doe) - 719468;
}

} // namespace

int64_t parseTimestamp(std::string_view text)
{
    int year, month, day, hour, minute, second;
    if (text.size() < 20 || text[4] != '-' || text[7] != '-' || (text[10] != 'T' && text[10] != 't')
        || text[13] != ':' || text[16] != ':')
        return -1;
    if (!digits(text, 0, 4, year) || !digits(text, 5, 2, month) || !digits(text, 8, 2, day)
        || !digits(text, 11, 2, hour) || !digits(text, 14, 2, minute)
        || !digits(text, 17, 2, second))
        return -1;
    size_t pos = 19;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
            ++pos;
    }
    int64_t offset = 0;
    if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
        ++pos;
    } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
        int oh, om;
        if (pos + 6 > text.size() || text[pos + 3] != ':' || !digits(text, pos + 1, 2, oh)
            || !digits(text, pos + 4, 2, om))
            return -1;
        offset = (oh * 3600 + om * 60) * (text[pos] == '+' ? 1 : -1);
        pos += 6;
    } else {
        return -1;
    }
    if (pos != text.size() || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23
        || minute > 59 || second > 60)
        return -1;
    return daysFromCivil(year, unsigned(month), unsigned(day)) * 86400 + hour * 3600 + minute * 60
        + second - offset;
}

std::string humanAge(std::string_view creationTimestamp, int64_t now)
{
    const int64_t created = parseTimestamp(creationTimestamp);
    if (created < 0)
        return "<unknown>";
    const int64_t seconds = now - created;
    if (seconds < -1)
        return "<invalid>";
    if (seconds < 0)
        return "0s";
    const auto n = [](int64_t v, const char *unit) { return std::to_string(v) + unit; };
    if (seconds < 60 * 2)
        return n(seconds, "s");
    const int64_t minutes = seconds / 60;
    if (minutes < 10) {
        const int64_t s = seconds % 60;
        return s == 0 ? n(minutes, "m") : n(minutes, "m") + n(s, "s");
    }
    if (minutes < 60 * 3)
        return n(minutes, "m");
    const int64_t hours = seconds / 3600;
    if (hours < 8) {
        const int64_t m = minutes % 60;
        return m == 0 ? n(hours, "h") : n(hours, "h") + n(m, "m");
    }
    if (hours < 48)
        return n(hours, "h");
    if (hours < 24 * 8) {
        const int64_t h = hours % 24;
        return h == 0 ? n(hours / 24, "d") : n(hours / 24, "d") + n(h, "h");
    }
    if (hours < 24 * 365 * 2)
        return n(hours / 24, "d");
    if (hours < 24 * 365 * 8) {
        const int64_t d = (hours / 24) % 365;
        return d == 0 ? n(hours / 24 / 365, "y") : n(hours / 24 / 365, "y") + n(d, "d");
    }
    return n(hours / 24 / 365, "y");
}

int64_t nowSeconds()
{
    return std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace dra::inventory
