// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>

#include "core/common/result.h"

namespace dra::test {

// The resource.k8s.io versions the conversion and schema tests speak of.
inline constexpr std::string_view kV1 = "resource.k8s.io/v1";
inline constexpr std::string_view kV1beta2 = "resource.k8s.io/v1beta2";
inline constexpr std::string_view kV1beta1 = "resource.k8s.io/v1beta1";
inline constexpr std::string_view kV1alpha3 = "resource.k8s.io/v1alpha3";

// The error message of a failed result ("" when it succeeded), for assertion messages.
template <typename T> std::string messageOf(const Result<T> &result)
{
    return result ? std::string() : result.error().message.toStdString();
}

} // namespace dra::test
