// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dra::rollout {

// Parses a Go-style duration as Kubernetes users write them ("90s", "10m", "1h30m", "500ms"):
// milliseconds, or nullopt for anything else (no sign, no bare numbers, no overflow).
std::optional<int64_t> parseDuration(std::string_view text);

// The shortest such text for `ms`: "0s", "1h30m", "45s", "250ms".
std::string formatDuration(int64_t ms);

} // namespace dra::rollout
