// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/time_util.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace dra::cel {

namespace {

constexpr Int128 kNanosPerSecond = 1000000000;

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
int64_t daysFromCivil(int64_t y, int m, int d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void civilFromDays(int64_t z, int64_t &y, int &m, int &d)
{
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = yoe + era * 400;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    y += m <= 2;
}

int64_t floorDiv(int64_t a, int64_t b)
{
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

bool digits(std::string_view s, size_t pos, size_t n, int &out)
{
    if (pos + n > s.size())
        return false;
    out = 0;
    for (size_t i = pos; i < pos + n; ++i) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        out = out * 10 + (s[i] - '0');
    }
    return true;
}

// A zone loaded from the system's TZif files: transitions and their UTC offsets.
struct Zone
{
    std::vector<int64_t> transitions;
    std::vector<int32_t> offsets; // offset in effect from transitions[i]
    int32_t initialOffset = 0;
};

std::optional<Zone> loadZone(const std::string &name)
{
    if (name.empty() || name.find("..") != std::string::npos || name.front() == '/')
        return std::nullopt;
    std::ifstream in("/usr/share/zoneinfo/" + name, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto be32 = [&](size_t pos) -> int64_t {
        if (pos + 4 > data.size())
            return 0;
        const auto *p = reinterpret_cast<const unsigned char *>(data.data() + pos);
        return static_cast<int32_t>((uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16)
            | (uint32_t(p[2]) << 8) | uint32_t(p[3]));
    };
    auto be64 = [&](size_t pos) -> int64_t {
        return static_cast<int64_t>(
            (static_cast<uint64_t>(be32(pos)) << 32) | static_cast<uint32_t>(be32(pos + 4)));
    };
    if (data.size() < 44 || data.compare(0, 4, "TZif") != 0)
        return std::nullopt;
    auto counts = [&](size_t pos, int64_t c[6]) {
        for (int i = 0; i < 6; ++i)
            c[i] = be32(pos + 20 + 4 * i);
    };
    int64_t c[6]; // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
    counts(0, c);
    size_t pos = 44;
    int timeSize = 4;
    if (data[4] >= '2') {
        pos += c[3] * 4 + c[3] + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0];
        if (pos + 44 > data.size())
            return std::nullopt;
        counts(pos, c);
        pos += 44;
        timeSize = 8;
    }
    Zone zone;
    const size_t typesPos = pos + c[3] * timeSize + c[3];
    if (typesPos + c[4] * 6 > data.size())
        return std::nullopt;
    std::vector<int32_t> typeOffsets;
    for (int64_t i = 0; i < c[4]; ++i)
        typeOffsets.push_back(static_cast<int32_t>(be32(typesPos + i * 6)));
    if (typeOffsets.empty())
        return std::nullopt;
    zone.initialOffset = typeOffsets[0];
    for (int64_t i = 0; i < c[3]; ++i) {
        const int64_t at = timeSize == 8 ? be64(pos + i * 8) : be32(pos + i * 4);
        const auto type = static_cast<unsigned char>(data[pos + c[3] * timeSize + i]);
        if (type >= typeOffsets.size())
            return std::nullopt;
        zone.transitions.push_back(at);
        zone.offsets.push_back(typeOffsets[type]);
    }
    return zone;
}

std::optional<int64_t> zoneOffset(std::string_view zoneName, int64_t unixSeconds)
{
    if (zoneName.empty() || zoneName == "UTC" || zoneName == "Z")
        return 0;
    // Fixed offsets: [+|-]HH:MM.
    {
        std::string_view z = zoneName;
        int sign = 1;
        if (z.front() == '+' || z.front() == '-') {
            sign = z.front() == '-' ? -1 : 1;
            z.remove_prefix(1);
        }
        int h = 0;
        int m = 0;
        if (z.size() == 5 && z[2] == ':' && digits(z, 0, 2, h) && digits(z, 3, 2, m))
            return sign * (h * 3600 + m * 60);
    }
    static std::mutex mutex;
    static std::map<std::string, std::optional<Zone>, std::less<>> cache;
    std::lock_guard lock(mutex);
    auto it = cache.find(zoneName);
    if (it == cache.end())
        it = cache.emplace(std::string(zoneName), loadZone(std::string(zoneName))).first;
    if (!it->second)
        return std::nullopt;
    const Zone &zone = *it->second;
    auto up = std::upper_bound(zone.transitions.begin(), zone.transitions.end(), unixSeconds);
    if (up == zone.transitions.begin())
        return zone.initialOffset;
    return zone.offsets[(up - zone.transitions.begin()) - 1];
}

// Seconds and a nanosecond part in [0, 1e9): the floor division both time kinds store.
std::pair<Int128, Int128> splitNanos(Int128 nanos)
{
    Int128 s = nanos / kNanosPerSecond;
    Int128 n = nanos % kNanosPerSecond;
    if (n < 0) {
        n += kNanosPerSecond;
        s -= 1;
    }
    return { s, n };
}

} // namespace

Int128 toNanos(Timestamp t)
{
    return Int128(t.seconds) * kNanosPerSecond + t.nanos;
}

Int128 toNanos(Duration d)
{
    return Int128(d.seconds) * kNanosPerSecond + d.nanos;
}

std::optional<Timestamp> timestampFromNanos(Int128 nanos)
{
    const auto [s, n] = splitNanos(nanos);
    if (s < kMinTimestampSeconds || s > kMaxTimestampSeconds)
        return std::nullopt;
    return Timestamp { static_cast<int64_t>(s), static_cast<int32_t>(n) };
}

std::optional<Duration> durationFromNanos(Int128 nanos)
{
    const auto [s, n] = splitNanos(nanos);
    if (nanos < Int128(INT64_MIN) || nanos > Int128(INT64_MAX))
        return std::nullopt;
    return Duration { static_cast<int64_t>(s), static_cast<int32_t>(n) };
}

std::optional<Timestamp> parseTimestamp(std::string_view s)
{
    int year, month, day, hour, minute, second;
    if (!digits(s, 0, 4, year) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, month)
        || s[7] != '-' || !digits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't')
        || !digits(s, 11, 2, hour) || s[13] != ':' || !digits(s, 14, 2, minute) || s[16] != ':'
        || !digits(s, 17, 2, second))
        return std::nullopt;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59)
        return std::nullopt;
    size_t pos = 19;
    int64_t nanos = 0;
    if (pos < s.size() && s[pos] == '.') {
        ++pos;
        int count = 0;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
            if (count < 9) {
                nanos = nanos * 10 + (s[pos] - '0');
                ++count;
            }
            ++pos;
        }
        if (count == 0)
            return std::nullopt;
        for (; count < 9; ++count)
            nanos *= 10;
    }
    int64_t offset = 0;
    if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
        ++pos;
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        int oh, om;
        if (!digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':'
            || !digits(s, pos + 4, 2, om) || oh > 23 || om > 59)
            return std::nullopt;
        offset = (s[pos] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
        pos += 6;
    } else {
        return std::nullopt;
    }
    if (pos != s.size())
        return std::nullopt;
    static constexpr int kDaysInMonth[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (day > kDaysInMonth[month - 1] || (month == 2 && day == 29 && !leap))
        return std::nullopt;
    const int64_t secs
        = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
    return timestampFromNanos(Int128(secs) * kNanosPerSecond + nanos);
}

std::string formatTimestamp(Timestamp t)
{
    const int64_t days = floorDiv(t.seconds, 86400);
    const int64_t rem = t.seconds - days * 86400;
    int64_t y;
    int m, d;
    civilFromDays(days, y, m, d);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04lld-%02d-%02dT%02d:%02d:%02d", static_cast<long long>(y), m,
        d, static_cast<int>(rem / 3600), static_cast<int>(rem / 60 % 60),
        static_cast<int>(rem % 60));
    std::string out = buf;
    if (t.nanos) {
        std::snprintf(buf, sizeof buf, ".%09d", t.nanos);
        std::string frac = buf;
        while (frac.back() == '0')
            frac.pop_back();
        out += frac;
    }
    return out + "Z";
}

std::optional<Duration> parseDuration(std::string_view s)
{
    if (s.empty())
        return std::nullopt;
    bool negative = false;
    if (s.front() == '-' || s.front() == '+') {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    if (s == "0")
        return Duration {};
    if (s.empty())
        return std::nullopt;
    Int128 total = 0;
    const Int128 limit = Int128(INT64_MAX) + 1;
    while (!s.empty()) {
        Int128 whole = 0;
        Int128 frac = 0;
        Int128 fracScale = 1;
        bool any = false;
        while (!s.empty() && s.front() >= '0' && s.front() <= '9') {
            whole = whole * 10 + (s.front() - '0');
            if (whole > limit)
                return std::nullopt;
            s.remove_prefix(1);
            any = true;
        }
        if (!s.empty() && s.front() == '.') {
            s.remove_prefix(1);
            while (!s.empty() && s.front() >= '0' && s.front() <= '9') {
                if (fracScale < Int128(1000000000000000000LL)) {
                    frac = frac * 10 + (s.front() - '0');
                    fracScale *= 10;
                }
                s.remove_prefix(1);
                any = true;
            }
        }
        if (!any)
            return std::nullopt;
        size_t unitLen = 0;
        while (unitLen < s.size() && !(s[unitLen] >= '0' && s[unitLen] <= '9') && s[unitLen] != '.')
            ++unitLen;
        const std::string_view unit = s.substr(0, unitLen);
        s.remove_prefix(unitLen);
        Int128 scale;
        if (unit == "ns")
            scale = 1;
        else if (unit == "us" || unit == "\u00b5s" || unit == "\u03bcs")
            scale = 1000;
        else if (unit == "ms")
            scale = 1000000;
        else if (unit == "s")
            scale = kNanosPerSecond;
        else if (unit == "m")
            scale = 60 * kNanosPerSecond;
        else if (unit == "h")
            scale = 3600 * kNanosPerSecond;
        else
            return std::nullopt;
        total += whole * scale + frac * scale / fracScale;
        if (total > limit)
            return std::nullopt;
    }
    return durationFromNanos(negative ? -total : total);
}

std::string formatDuration(Duration d)
{
    Int128 n = toNanos(d);
    std::string out;
    if (n < 0) {
        out = "-";
        n = -n;
    }
    out += std::to_string(static_cast<long long>(n / kNanosPerSecond));
    const auto frac = static_cast<int>(n % kNanosPerSecond);
    if (frac) {
        char buf[16];
        std::snprintf(buf, sizeof buf, ".%09d", frac);
        std::string f = buf;
        while (f.back() == '0')
            f.pop_back();
        out += f;
    }
    return out + "s";
}

std::optional<CivilTime> civilTime(Timestamp t, std::string_view zone)
{
    const std::optional<int64_t> offset = zoneOffset(zone, t.seconds);
    if (!offset)
        return std::nullopt;
    const int64_t local = t.seconds + *offset;
    const int64_t days = floorDiv(local, 86400);
    const int64_t rem = local - days * 86400;
    CivilTime c;
    civilFromDays(days, c.year, c.month, c.day);
    c.hour = static_cast<int>(rem / 3600);
    c.minute = static_cast<int>(rem / 60 % 60);
    c.second = static_cast<int>(rem % 60);
    c.dayOfWeek = static_cast<int>(((days % 7) + 11) % 7); // 1970-01-01 was a Thursday
    c.dayOfYear = static_cast<int>(days - daysFromCivil(c.year, 1, 1));
    return c;
}

} // namespace dra::cel
