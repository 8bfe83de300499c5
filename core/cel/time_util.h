// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/cel/value.h"

namespace dra::cel {

__extension__ typedef __int128 Int128;

// Timestamps must lie in [0001-01-01T00:00:00Z, 9999-12-31T23:59:59.999999999Z].
inline constexpr int64_t kMinTimestampSeconds = -62135596800;
inline constexpr int64_t kMaxTimestampSeconds = 253402300799;

// Parses an RFC 3339 timestamp ("2009-02-13T23:31:30.5Z", "...+01:00"); nullopt when invalid
// or out of range.
std::optional<Timestamp> parseTimestamp(std::string_view text);

// Formats as RFC 3339 in UTC with the fraction trimmed of trailing zeros, as Go's RFC3339Nano.
std::string formatTimestamp(Timestamp t);

// Parses a Go duration string ("1h2m3.5s", "-90ms", "0"); nullopt when invalid or out of range.
std::optional<Duration> parseDuration(std::string_view text);

// Formats as seconds with a trimmed fraction ("3600s", "1.5s").
std::string formatDuration(Duration d);

Int128 toNanos(Timestamp t);
Int128 toNanos(Duration d);
// nullopt when the result is outside the timestamp (or duration) range.
std::optional<Timestamp> timestampFromNanos(Int128 nanos);
std::optional<Duration> durationFromNanos(Int128 nanos);

// The civil fields of an instant in a time zone.
struct CivilTime
{
    int64_t year = 1970;
    int month = 1; // 1..12
    int day = 1; // 1..31
    int hour = 0;
    int minute = 0;
    int second = 0;
    int dayOfWeek = 4; // 0 = Sunday
    int dayOfYear = 0; // 0-based
};

// Breaks `t` down in `zone` ("UTC", "America/New_York", "+05:30", "-02:00", "02:00"); nullopt when
// the zone is unknown.
std::optional<CivilTime> civilTime(Timestamp t, std::string_view zone);

} // namespace dra::cel
