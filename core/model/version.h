// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"

namespace dra::model {

// A semantic version (semver 2.0.0) as DRA `version` attributes hold it, a plain value safe on
// any thread. Parsing is as strict as Kubernetes' (blang/semver Parse): exactly
// MAJOR.MINOR.PATCH, no leading `v`, no leading zeros in numeric parts or numeric prerelease
// identifiers, numbers within uint64.
class Version final
{
public:
    // Kubernetes rejects longer `version` attribute values; parse() itself does not enforce it.
    static constexpr std::size_t maxAttributeLength = 64;

    // 0.0.0.
    Version() = default;

    // Parses "1.2.3", "1.2.3-rc.1", "1.2.3-rc.1+build.5"; anything else is an Invalid error.
    [[nodiscard]] static Result<Version> parse(std::string_view text);

    uint64_t major() const { return m_major; }
    uint64_t minor() const { return m_minor; }
    uint64_t patch() const { return m_patch; }
    // The dot-separated prerelease identifiers ("rc", "1" for 1.2.3-rc.1); empty for a release.
    const std::vector<std::string> &prerelease() const { return m_prerelease; }
    // The dot-separated build metadata identifiers; kept for printing, ignored in comparisons.
    const std::vector<std::string> &build() const { return m_build; }

    // The version as written, build metadata included.
    std::string toString() const;

    // Semver precedence: -1, 0 or 1. A release outranks its prereleases; prerelease identifiers
    // compare numerically when numeric, in ASCII order otherwise, numeric before alphanumeric,
    // and a longer list wins over its own prefix. Build metadata is ignored, so 1.0.0+a == 1.0.0+b.
    int compare(const Version &other) const;
    std::weak_ordering operator<=>(const Version &other) const { return compare(other) <=> 0; }
    bool operator==(const Version &other) const { return compare(other) == 0; }

private:
    uint64_t m_major = 0;
    uint64_t m_minor = 0;
    uint64_t m_patch = 0;
    std::vector<std::string> m_prerelease;
    std::vector<std::string> m_build;
};

} // namespace dra::model
