// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/quantity.h"

#include <algorithm>
#include <array>

#include "core/common/ascii.h"
#include "core/common/json_text.h"

namespace dra::model {

namespace {

using Int128 = Quantity::NanoUnits;
using Format = Quantity::Format;
using common::Error;
using common::qs;

constexpr Int128 nanoPerUnit = 1'000'000'000;
// maxNanoUnits() has 28 decimal digits; anything longer cannot fit, which also keeps every
// intermediate value far below the 128-bit limit.
constexpr int64_t maxNanoDigits = 28;

// What a suffix means: the value is multiplied by 10^exponent or, for binary, by 2^exponent.
struct Suffix
{
    bool binary = false;
    int64_t exponent = 0;
    Format format = Format::DecimalSI;
};

QString describe(std::string_view text)
{
    return QStringLiteral("quantity \"%1\"").arg(qs(text));
}

QString rangeMessage()
{
    return QStringLiteral("Kubernetes quantities hold at most 9223372036854775807 in magnitude");
}

Result<Suffix> interpretSuffix(std::string_view suffix, std::string_view text)
{
    static constexpr std::array<std::pair<std::string_view, int>, 10> decimal { {
        { "n", -9 },
        { "u", -6 },
        { "m", -3 },
        { "", 0 },
        { "k", 3 },
        { "M", 6 },
        { "G", 9 },
        { "T", 12 },
        { "P", 15 },
        { "E", 18 },
    } };
    static constexpr std::array<std::pair<std::string_view, int>, 6> binary { {
        { "Ki", 10 },
        { "Mi", 20 },
        { "Gi", 30 },
        { "Ti", 40 },
        { "Pi", 50 },
        { "Ei", 60 },
    } };
    for (const auto &[name, exponent] : decimal) {
        if (suffix == name)
            return Suffix { false, exponent, Format::DecimalSI };
    }
    for (const auto &[name, exponent] : binary) {
        if (suffix == name)
            return Suffix { true, exponent, Format::BinarySI };
    }
    // An exponent: e or E, an optional sign, then at least one digit and nothing else.
    if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
        std::string_view number = suffix.substr(1);
        const bool negative = number[0] == '-';
        if (number[0] == '-' || number[0] == '+')
            number.remove_prefix(1);
        if (!number.empty() && std::ranges::all_of(number, common::isAsciiDigit)) {
            // Kubernetes keeps the exponent in an int32 it later negates, so it accepts
            // [-(2^31-1), 2^31-1]; saturating here keeps huge digit runs from overflowing.
            int64_t exponent = 0;
            for (const char c : number)
                exponent = std::min<int64_t>(exponent * 10 + (c - '0'), int64_t(INT32_MAX) + 1);
            if (exponent > INT32_MAX)
                return dra::fail(Error::Code::Invalid,
                    QStringLiteral("%1 has an exponent out of range").arg(describe(text)));
            return Suffix { false, negative ? -exponent : exponent, Format::DecimalExponent };
        }
    }
    return dra::fail(Error::Code::Invalid,
        QStringLiteral("%1 has an unknown suffix \"%2\"; expected one of Ki Mi Gi Ti Pi "
                       "Ei, n u m k M G T P E, or an exponent such as e3")
            .arg(describe(text), qs(suffix)));
}

// Multiplies a decimal digit string in place by a small factor.
void multiplyDigits(std::string &digits, unsigned factor)
{
    unsigned carry = 0;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        const unsigned product = unsigned(*it - '0') * factor + carry;
        *it = char('0' + product % 10);
        carry = product / 10;
    }
    for (; carry != 0; carry /= 10)
        digits.insert(digits.begin(), char('0' + carry % 10));
}

// digits * 10^shift rounded up to a whole number; nullopt when it has more digits than any
// representable quantity. `digits` has no leading zeros (empty means zero).
std::optional<Int128> scaleRoundingUp(std::string_view digits, int64_t shift)
{
    const auto count = int64_t(digits.size());
    const int64_t whole = count + shift; // digits at or above the units place
    if (count == 0)
        return Int128(0);
    if (whole > maxNanoDigits)
        return std::nullopt;
    const int64_t kept = std::clamp<int64_t>(whole, 0, count);
    Int128 result = 0;
    for (int64_t i = 0; i < kept; ++i)
        result = result * 10 + (digits[size_t(i)] - '0');
    for (int64_t i = count; i < whole; ++i)
        result *= 10;
    // Kubernetes rounds the magnitude up so a tiny request still asks for something.
    const std::string_view dropped = digits.substr(size_t(kept));
    if (std::ranges::any_of(dropped, [](char c) { return c != '0'; }))
        ++result;
    return result;
}

Int128 magnitude(Int128 value)
{
    return value < 0 ? -value : value;
}

std::string decimalDigits(Int128 value)
{
    if (value == 0)
        return "0";
    std::string out;
    for (; value != 0; value /= 10)
        out.push_back(char('0' + int(value % 10)));
    std::reverse(out.begin(), out.end());
    return out;
}

// Quotient rounded away from zero, as Kubernetes Value()/MilliValue() round.
Int128 divideRoundingUp(Int128 value, Int128 divisor)
{
    Int128 quotient = value / divisor;
    if (value % divisor != 0)
        quotient += value > 0 ? 1 : -1;
    return quotient;
}

} // namespace

Result<Quantity> Quantity::parse(std::string_view text)
{
    if (text.empty())
        return dra::fail(Error::Code::Invalid, QStringLiteral("a quantity must not be empty"));

    size_t pos = 0;
    const bool negative = text[0] == '-';
    if (text[0] == '-' || text[0] == '+')
        ++pos;
    const size_t integerStart = pos;
    while (pos < text.size() && common::isAsciiDigit(text[pos]))
        ++pos;
    const std::string_view integer = text.substr(integerStart, pos - integerStart);
    std::string_view fraction;
    if (pos < text.size() && text[pos] == '.') {
        const size_t fractionStart = ++pos;
        while (pos < text.size() && common::isAsciiDigit(text[pos]))
            ++pos;
        fraction = text.substr(fractionStart, pos - fractionStart);
    }
    if (integer.empty() && fraction.empty())
        return dra::fail(
            Error::Code::Invalid, QStringLiteral("%1 has no digits").arg(describe(text)));

    const Result<Suffix> suffix = interpretSuffix(text.substr(pos), text);
    if (!suffix)
        return dra::fail(suffix.error());

    std::string digits;
    digits.reserve(integer.size() + fraction.size());
    digits.append(integer).append(fraction);
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));

    // The amount is digits * 10^-fraction.size() * multiplier, expressed in nano units.
    int64_t shift = 9 - int64_t(fraction.size());
    if (suffix->binary) {
        for (int64_t i = 0; i < suffix->exponent / 10 && !digits.empty(); ++i)
            multiplyDigits(digits, 1024);
    } else {
        shift += suffix->exponent;
    }
    const std::optional<Int128> nano = scaleRoundingUp(digits, shift);
    if (!nano || *nano > maxNanoUnits())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("%1 is out of range: %2").arg(describe(text), rangeMessage()));

    Format format = suffix->format;
    // A binary quantity below one cannot be printed with a binary suffix.
    if (format == Format::BinarySI && *nano != 0 && *nano < nanoPerUnit)
        format = Format::DecimalSI;
    return Quantity(negative ? -*nano : *nano, format);
}

Quantity Quantity::fromInt64(int64_t value, Format format)
{
    // -2^63 has no positive counterpart within the range, so it saturates one unit up.
    return Quantity(Int128(std::max(value, -INT64_MAX)) * nanoPerUnit, format);
}

std::string Quantity::toString() const
{
    if (m_nano == 0)
        return "0";
    const Int128 abs = magnitude(m_nano);
    const std::string sign = m_nano < 0 ? "-" : "";

    // Binary printing only for whole numbers of at least 1024; otherwise Kubernetes falls back
    // to DecimalSI rather than round.
    Format format = m_format;
    if (format == Format::BinarySI && (abs < 1024 * nanoPerUnit || abs % nanoPerUnit != 0))
        format = Format::DecimalSI;

    if (format == Format::BinarySI) {
        static constexpr std::array<std::string_view, 7> suffixes { "", "Ki", "Mi", "Gi", "Ti",
            "Pi", "Ei" };
        Int128 units = abs / nanoPerUnit;
        size_t power = 0;
        while (power + 1 < suffixes.size() && units % 1024 == 0) {
            units /= 1024;
            ++power;
        }
        return sign + decimalDigits(units) + std::string(suffixes[power]);
    }

    // Move every trailing zero into the exponent, then lower the exponent to a multiple of 3.
    Int128 mantissa = abs;
    int exponent = -9;
    while (mantissa % 10 == 0) {
        mantissa /= 10;
        ++exponent;
    }
    while (exponent % 3 != 0) {
        mantissa *= 10;
        --exponent;
    }
    std::string suffix;
    if (format == Format::DecimalSI) {
        // The range ends below 10^19, so the exponent stays within n..E.
        static constexpr std::array<std::string_view, 10> suffixes { "n", "u", "m", "", "k", "M",
            "G", "T", "P", "E" };
        suffix = suffixes[size_t((exponent + 9) / 3)];
    } else if (exponent != 0) {
        suffix = "e" + std::to_string(exponent);
    }
    return sign + decimalDigits(mantissa) + suffix;
}

int Quantity::compare(const Quantity &other) const
{
    return m_nano < other.m_nano ? -1 : (m_nano > other.m_nano ? 1 : 0);
}

std::weak_ordering Quantity::operator<=>(const Quantity &other) const
{
    return compare(other) <=> 0;
}

Result<Quantity> Quantity::add(const Quantity &other) const
{
    // Both operands are within the range, so the 128-bit sum cannot overflow.
    const Int128 sum = m_nano + other.m_nano;
    if (magnitude(sum) > maxNanoUnits())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("%1 + %2 is out of range: %3")
                .arg(qs(toString()), qs(other.toString()), rangeMessage()));
    return Quantity(sum, m_nano == 0 ? other.m_format : m_format);
}

Result<Quantity> Quantity::sub(const Quantity &other) const
{
    const Int128 difference = m_nano - other.m_nano;
    if (magnitude(difference) > maxNanoUnits())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("%1 - %2 is out of range: %3")
                .arg(qs(toString()), qs(other.toString()), rangeMessage()));
    return Quantity(difference, m_nano == 0 ? other.m_format : m_format);
}

Quantity Quantity::negated() const
{
    return Quantity(-m_nano, m_format);
}

std::optional<int64_t> Quantity::asInt64() const
{
    if (!isInteger())
        return std::nullopt;
    return int64_t(m_nano / nanoPerUnit); // always fits: the range is the int64 range
}

int64_t Quantity::value() const
{
    return int64_t(divideRoundingUp(m_nano, nanoPerUnit));
}

int64_t Quantity::milliValue() const
{
    const Int128 milli = divideRoundingUp(m_nano, 1'000'000);
    return int64_t(std::clamp<Int128>(milli, INT64_MIN, INT64_MAX));
}

double Quantity::asApproximateDouble() const
{
    return double(m_nano) / 1e9;
}

int Quantity::sign() const
{
    return m_nano < 0 ? -1 : (m_nano > 0 ? 1 : 0);
}

bool Quantity::isInteger() const
{
    return m_nano % nanoPerUnit == 0;
}

} // namespace dra::model
