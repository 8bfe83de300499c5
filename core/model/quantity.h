// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/result.h"

namespace dra::model {

// An exact Kubernetes resource.Quantity ("80Gi", "500m", "1e3"), a plain value safe on any thread.
// The amount is held as a count of nano units (10^-9) in 128 bits, so parsing, comparison and
// arithmetic never go through floating point. Like Kubernetes, parsing rounds finer values up
// (away from zero) to the next nano unit. The representable range is what the Kubernetes API
// documents a quantity can hold: a magnitude of at most 2^63-1 (9223372036854775807) with nine
// decimal places; anything beyond is an error rather than a silently capped value.
class Quantity final
{
public:
    // Which family of suffix the quantity is printed with; kept from the parsed text.
    enum class Format { DecimalExponent, BinarySI, DecimalSI };

    __extension__ typedef __int128 NanoUnits;

    // The largest magnitude in nano units: (2^63-1) * 10^9.
    static constexpr NanoUnits maxNanoUnits()
    {
        return NanoUnits(INT64_MAX) * NanoUnits(1'000'000'000);
    }

    // Zero, DecimalSI ("0").
    Quantity() = default;

    // Parses the Kubernetes quantity grammar: an optional sign, digits with an optional decimal
    // point, then one suffix (Ki..Ei, n u m k M G T P E, or an exponent e3 / E-3). No spaces.
    [[nodiscard]] static Result<Quantity> parse(std::string_view text);

    // An integral quantity, like Kubernetes NewQuantity(value, format); INT64_MIN, outside the
    // range, becomes -INT64_MAX.
    static Quantity fromInt64(int64_t value, Format format = Format::DecimalSI);

    // The canonical text Kubernetes prints (String()): no fractional digits, the largest suffix
    // of the quantity's family that loses nothing, e.g. 1024Mi -> 1Gi, 1.5 -> 1500m, 0 -> 0.
    std::string toString() const;

    // -1, 0 or 1 as this is less than, equal to or greater than `other`; the format is ignored.
    int compare(const Quantity &other) const;
    std::weak_ordering operator<=>(const Quantity &other) const;
    bool operator==(const Quantity &other) const { return m_nano == other.m_nano; }

    // The exact sum; keeps this quantity's format unless this is zero (then `other`'s), as
    // Kubernetes Add does. Fails when the result leaves the representable range.
    [[nodiscard]] Result<Quantity> add(const Quantity &other) const;
    // The exact difference, with the same format and range rules as add().
    [[nodiscard]] Result<Quantity> sub(const Quantity &other) const;
    // The quantity with the opposite sign and the same format.
    Quantity negated() const;

    // The value when it is a whole number (Kubernetes AsInt64, CEL asInteger()).
    std::optional<int64_t> asInt64() const;
    // The value rounded up, away from zero, to a whole number (Kubernetes Value()).
    int64_t value() const;
    // The value in thousandths rounded up, away from zero (Kubernetes MilliValue()); saturates
    // at the int64 limits for magnitudes above about 9.2e15.
    int64_t milliValue() const;
    // A nearest double, for display and charts only (Kubernetes AsApproximateFloat64()).
    double asApproximateDouble() const;

    // -1, 0 or 1.
    int sign() const;
    // True when there is no fractional part.
    bool isInteger() const;
    bool isZero() const { return m_nano == 0; }
    Format format() const { return m_format; }
    // The exact amount in units of 10^-9.
    NanoUnits nanoUnits() const { return m_nano; }

private:
    Quantity(NanoUnits nano, Format format)
        : m_nano(nano)
        , m_format(format)
    {
    }

    NanoUnits m_nano = 0;
    Format m_format = Format::DecimalSI;
};

} // namespace dra::model
