// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <compare>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/common/result.h"

namespace dra::model {

// The name of a device attribute or capacity: an optional domain and a C identifier, as in
// "gpu.nvidia.com/memory" or plain "memory". A plain value safe on any thread.
struct QualifiedName
{
    // Kubernetes limits: the domain is a DNS subdomain like a driver name, the name an identifier.
    static constexpr std::size_t maxDomainLength = 63;
    static constexpr std::size_t maxNameLength = 32;

    std::string domain; // empty when the name was written unqualified
    std::string name;

    // The name as Kubernetes resolves it on a device of `driver`: "domain/name" splits at the
    // first '/', an unqualified name gets the driver name as its domain. Does not validate.
    static QualifiedName resolve(std::string_view name, std::string_view driver);

    // Validates `text` as the Kubernetes API does for attribute and capacity names: a C
    // identifier of at most 32 characters, optionally preceded by a DNS subdomain of at most 63
    // characters and a '/'. An unqualified name keeps an empty domain.
    [[nodiscard]] static Result<QualifiedName> parse(std::string_view text);

    // "domain/name", or just "name" when the domain is empty.
    std::string toString() const;

    auto operator<=>(const QualifiedName &) const = default;
    bool operator==(const QualifiedName &) const = default;
};

} // namespace dra::model
