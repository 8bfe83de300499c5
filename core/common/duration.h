// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dra::common {

// The one reader of durations users type, in rollout plans and on dractl's command line
// (`--retain 7d`, `history prune --max-age 7d`, `rollout run --interval 5s`): Go's units as
// Kubernetes users write them, "500ms", "90s", "10m", "1h30m", plus days, "7d", "1d12h".
// Milliseconds, or nullopt for anything else: no sign, no bare number, no fraction, no space,
// no overflow. Zero ("0s") is a duration; callers that need more say so.
std::optional<int64_t> parseDuration(std::string_view text);

// The shortest such text for `ms`, in hours at most: "0s", "1h30m", "45s", "250ms", "168h".
std::string formatDuration(int64_t ms);

} // namespace dra::common
