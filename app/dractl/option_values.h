// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Values of dractl options that every command reads the same way: durations and sizes.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <QCommandLineParser>
#include <QString>

#include "core/common/result.h"

namespace dra::cli {

// A size as users type it: bytes ("100000"), or a number with a decimal (kB, MB, GB, TB: powers
// of 1000) or binary (KiB, MiB, GiB, TiB: powers of 1024) unit, any case, "B" optional
// ("500MB", "2GiB", "1.5g", "64k"). Bytes, or nullopt for anything else (no sign, no zero, no
// overflow).
std::optional<int64_t> parseSize(std::string_view text);

// The value of option `name` as a duration (common::parseDuration) or a size (parseSize), at
// least `minimum`; an error naming the option, what it got and an example of what it takes.
[[nodiscard]] Result<int64_t> durationOption(
    const QCommandLineParser &parser, const QString &name, int64_t minimum = 1);
[[nodiscard]] Result<int64_t> sizeOption(const QCommandLineParser &parser, const QString &name);

} // namespace dra::cli
