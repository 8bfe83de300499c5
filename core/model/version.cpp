// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/version.h"

#include <algorithm>
#include <optional>

#include "core/common/ascii.h"
#include "core/common/json_text.h"

namespace dra::model {

namespace {

using common::Error;
using common::qs;

bool isNumeric(std::string_view text)
{
    return !text.empty() && std::ranges::all_of(text, common::isAsciiDigit);
}

// Semver identifiers use only ASCII letters, digits and hyphens.
bool isAlphanumeric(std::string_view text)
{
    return std::ranges::all_of(text, [](char c) {
        return common::isAsciiDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
            || c == '-';
    });
}

bool hasLeadingZero(std::string_view text)
{
    return text.size() > 1 && text[0] == '0';
}

std::optional<uint64_t> toUint64(std::string_view digits)
{
    uint64_t value = 0;
    for (const char c : digits) {
        const auto digit = uint64_t(c - '0');
        if (value > (UINT64_MAX - digit) / 10)
            return std::nullopt;
        value = value * 10 + digit;
    }
    return value;
}

std::vector<std::string> splitDots(std::string_view text)
{
    std::vector<std::string> parts;
    for (size_t start = 0;;) {
        const size_t dot = text.find('.', start);
        parts.emplace_back(text.substr(
            start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        if (dot == std::string_view::npos)
            return parts;
        start = dot + 1;
    }
}

QString invalidVersion(std::string_view text, const QString &reason)
{
    return QStringLiteral("version \"%1\" is not a semantic version: %2").arg(qs(text), reason);
}

// One of MAJOR, MINOR, PATCH: digits, no leading zero, within uint64.
Result<uint64_t> parseNumber(std::string_view part, const QString &what, std::string_view text)
{
    if (!isNumeric(part))
        return dra::fail(Error::Code::Invalid,
            invalidVersion(text, QStringLiteral("the %1 number must be digits").arg(what)));
    if (hasLeadingZero(part))
        return dra::fail(Error::Code::Invalid,
            invalidVersion(
                text, QStringLiteral("the %1 number must not have a leading zero").arg(what)));
    const std::optional<uint64_t> number = toUint64(part);
    if (!number)
        return dra::fail(Error::Code::Invalid,
            invalidVersion(text, QStringLiteral("the %1 number is too large").arg(what)));
    return *number;
}

int compareIdentifiers(const std::string &left, const std::string &right)
{
    const bool leftNumeric = isNumeric(left);
    const bool rightNumeric = isNumeric(right);
    if (leftNumeric != rightNumeric)
        return leftNumeric ? -1 : 1;
    if (leftNumeric && left.size() != right.size()) // no leading zeros: longer is larger
        return left.size() < right.size() ? -1 : 1;
    const int order = left.compare(right);
    return order < 0 ? -1 : (order > 0 ? 1 : 0);
}

int compareNumbers(uint64_t left, uint64_t right)
{
    return left < right ? -1 : (left > right ? 1 : 0);
}

} // namespace

Result<Version> Version::parse(std::string_view text)
{
    if (text.empty())
        return dra::fail(Error::Code::Invalid, QStringLiteral("a version must not be empty"));

    // Like blang/semver: MAJOR and MINOR end at the first two dots, the rest holds
    // PATCH[-PRERELEASE][+BUILD].
    const size_t firstDot = text.find('.');
    const size_t secondDot
        = firstDot == std::string_view::npos ? firstDot : text.find('.', firstDot + 1);
    if (secondDot == std::string_view::npos)
        return dra::fail(Error::Code::Invalid,
            invalidVersion(text, QStringLiteral("expected MAJOR.MINOR.PATCH")));

    Version version;
    const auto major = parseNumber(text.substr(0, firstDot), QStringLiteral("major"), text);
    if (!major)
        return dra::fail(major.error());
    const auto minor = parseNumber(
        text.substr(firstDot + 1, secondDot - firstDot - 1), QStringLiteral("minor"), text);
    if (!minor)
        return dra::fail(minor.error());
    version.m_major = *major;
    version.m_minor = *minor;

    std::string_view rest = text.substr(secondDot + 1);
    if (const size_t plus = rest.find('+'); plus != std::string_view::npos) {
        version.m_build = splitDots(rest.substr(plus + 1));
        rest = rest.substr(0, plus);
    }
    if (const size_t hyphen = rest.find('-'); hyphen != std::string_view::npos) {
        version.m_prerelease = splitDots(rest.substr(hyphen + 1));
        rest = rest.substr(0, hyphen);
    }
    const auto patch = parseNumber(rest, QStringLiteral("patch"), text);
    if (!patch)
        return dra::fail(patch.error());
    version.m_patch = *patch;

    for (const std::string &identifier : version.m_prerelease) {
        if (identifier.empty())
            return dra::fail(Error::Code::Invalid,
                invalidVersion(text, QStringLiteral("a prerelease identifier is empty")));
        if (!isAlphanumeric(identifier))
            return dra::fail(Error::Code::Invalid,
                invalidVersion(text,
                    QStringLiteral("prerelease identifier \"%1\" has characters other than "
                                   "letters, digits and hyphens")
                        .arg(qs(identifier))));
        if (isNumeric(identifier) && hasLeadingZero(identifier))
            return dra::fail(Error::Code::Invalid,
                invalidVersion(text,
                    QStringLiteral("numeric prerelease identifier \"%1\" has a leading zero")
                        .arg(qs(identifier))));
        if (isNumeric(identifier) && !toUint64(identifier))
            return dra::fail(Error::Code::Invalid,
                invalidVersion(text,
                    QStringLiteral("numeric prerelease identifier \"%1\" is too large")
                        .arg(qs(identifier))));
    }
    for (const std::string &identifier : version.m_build) {
        if (identifier.empty())
            return dra::fail(Error::Code::Invalid,
                invalidVersion(text, QStringLiteral("a build identifier is empty")));
        if (!isAlphanumeric(identifier))
            return dra::fail(Error::Code::Invalid,
                invalidVersion(text,
                    QStringLiteral("build identifier \"%1\" has characters other than "
                                   "letters, digits and hyphens")
                        .arg(qs(identifier))));
    }
    return version;
}

std::string Version::toString() const
{
    std::string out
        = std::to_string(m_major) + '.' + std::to_string(m_minor) + '.' + std::to_string(m_patch);
    const auto append = [&out](char lead, const std::vector<std::string> &identifiers) {
        for (size_t i = 0; i < identifiers.size(); ++i)
            out.append(1, i == 0 ? lead : '.').append(identifiers[i]);
    };
    append('-', m_prerelease);
    append('+', m_build);
    return out;
}

int Version::compare(const Version &other) const
{
    if (const int order = compareNumbers(m_major, other.m_major))
        return order;
    if (const int order = compareNumbers(m_minor, other.m_minor))
        return order;
    if (const int order = compareNumbers(m_patch, other.m_patch))
        return order;
    // A release ranks above any of its prereleases.
    if (m_prerelease.empty() || other.m_prerelease.empty())
        return m_prerelease.empty() == other.m_prerelease.empty() ? 0
                                                                  : (m_prerelease.empty() ? 1 : -1);
    const size_t common = std::min(m_prerelease.size(), other.m_prerelease.size());
    for (size_t i = 0; i < common; ++i) {
        if (const int order = compareIdentifiers(m_prerelease[i], other.m_prerelease[i]))
            return order;
    }
    return compareNumbers(m_prerelease.size(), other.m_prerelease.size());
}

} // namespace dra::model
