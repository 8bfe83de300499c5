// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <compare>
#include <functional>
#include <string>

namespace dra::common {

// Identity of one Kubernetes object inside one cluster. The API version is deliberately not
// part of it: the same ResourceSlice read as v1beta1 and later as v1 is one object.
// `group` is empty for the core group ("" for Node, Pod, ...).
struct ObjectKey
{
    std::string group;
    std::string kind;
    std::string ns; // empty for cluster-scoped kinds
    std::string name;

    auto operator<=>(const ObjectKey &) const = default;
    bool operator==(const ObjectKey &) const = default;

    // "ResourceClaim default/gpu-claim" or "DeviceClass gpu.nvidia.com": for messages.
    [[nodiscard]] std::string display() const;
};

} // namespace dra::common

template <> struct std::hash<dra::common::ObjectKey>
{
    size_t operator()(const dra::common::ObjectKey &key) const noexcept;
};
