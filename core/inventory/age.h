// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dra::inventory {

// Seconds since the epoch of an RFC 3339 timestamp ("2026-11-30T07:14:00Z", fractions and
// offsets allowed); -1 when empty or malformed.
int64_t parseTimestamp(std::string_view rfc3339);

// kubectl's short age: "45s", "12m", "3h", "5d", "2y", "<unknown>" — exactly the form of
// apimachinery's HumanDuration, so our tables and kubectl's agree.
std::string humanAge(std::string_view creationTimestamp, int64_t nowSeconds);

// The current time in seconds since the epoch.
int64_t nowSeconds();

} // namespace dra::inventory
