// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What `dractl history` and `dractl diff-history` share: reading points in time and telling
// two states of an object apart.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <QString>

#include <nlohmann/json_fwd.hpp>

#include "core/common/result.h"

namespace dra::cli {

// A point in time as users type it: "now", an age ("10m", "2h", "3d" ago), an RFC 3339 time
// ("2026-11-30T10:00:00Z", local time when no zone is given) or a date ("2026-11-30").
// Milliseconds since the epoch; errors name `option`.
[[nodiscard]] Result<int64_t> parseTimePoint(
    const QString &text, const QString &option, int64_t nowMs);

// "2026-11-30 10:01:02" in local time, for tables.
QString formatTime(int64_t ms);

// One difference between two JSON documents: op '+' (only in `to`), '-' (only in `from`) or
// '~' (changed), at a path such as metadata.labels["app.kubernetes.io/name"] or spec.devices[2].
struct JsonDifference
{
    char op;
    std::string path;
    const nlohmann::json *from = nullptr;
    const nlohmann::json *to = nullptr;
};

// The differences between `from` and `to`, leaf by leaf, in document order. Pointers refer into
// the two documents, which must outlive the result.
std::vector<JsonDifference> diffJson(const nlohmann::json &from, const nlohmann::json &to);

} // namespace dra::cli
