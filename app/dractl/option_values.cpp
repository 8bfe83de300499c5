// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/option_values.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "core/common/ascii.h"
#include "core/common/duration.h"

namespace dra::cli {

namespace {

using common::Error;

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

// The factor of a size unit ("", "k", "kb", "kib", ... in lower case), 0 when unknown.
double unitFactor(const std::string &unit)
{
    static constexpr std::string_view prefixes = "kmgt";
    if (unit.empty() || unit == "b")
        return 1;
    const size_t power = prefixes.find(unit.front());
    if (power == std::string_view::npos)
        return 0;
    const std::string_view rest = std::string_view(unit).substr(1);
    if (rest.empty() || rest == "b")
        return std::pow(1000.0, double(power + 1));
    if (rest == "i" || rest == "ib")
        return std::pow(1024.0, double(power + 1));
    return 0;
}

} // namespace

std::optional<int64_t> parseSize(std::string_view text)
{
    size_t i = 0;
    while (i < text.size() && (common::isAsciiDigit(text[i]) || text[i] == '.'))
        ++i;
    const std::string number(text.substr(0, i));
    if (number.empty() || number.front() == '.' || number.back() == '.'
        || number.find('.') != number.rfind('.'))
        return std::nullopt;
    std::string unit;
    for (const char c : text.substr(i))
        unit.push_back(lower(c));
    double count = 0; // from_chars: no locale, where the application's may write "1,5"
    std::from_chars(number.data(), number.data() + number.size(), count);
    const double factor = unitFactor(unit);
    const double bytes = count * factor;
    if (factor == 0 || bytes < 1 || bytes >= double(std::numeric_limits<int64_t>::max()))
        return std::nullopt;
    return int64_t(bytes);
}

Result<int64_t> durationOption(
    const QCommandLineParser &parser, const QString &name, int64_t minimum)
{
    const QString value = parser.value(name);
    const std::optional<int64_t> ms = common::parseDuration(value.toStdString());
    if (!ms || *ms < minimum)
        return dra::fail(Error::Code::Invalid,
            QStringLiteral(
                "--%1 %2: expected a duration%3 such as 500ms, 90s, 10m, 12h, 7d or 1h30m")
                .arg(name, value,
                    minimum > 1 ? QStringLiteral(" of at least ")
                            + QString::fromStdString(common::formatDuration(minimum))
                                : QString()));
    return *ms;
}

Result<int64_t> sizeOption(const QCommandLineParser &parser, const QString &name)
{
    const QString value = parser.value(name);
    const std::optional<int64_t> bytes = parseSize(value.toStdString());
    if (!bytes)
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("--%1 %2: expected a size such as 500MB, 2GiB or 100000 (bytes)")
                .arg(name, value));
    return *bytes;
}

} // namespace dra::cli
