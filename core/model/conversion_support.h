// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Internal to core/model: the pieces of convertResourceObject() shared by its per-kind files.
// Every step works in place on a copy of the object in its v1 form ("up" = old version -> v1,
// "down" = v1 -> old version), so error paths name fields as they appear in v1.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace dra::model::detail {

// The resource.k8s.io versions that convert through v1.
enum class ResourceVersion { V1, V1beta2, V1beta1, V1alpha3 };

// Which object is being converted to which version, for error messages.
struct ConversionScope
{
    std::string who; // "ResourceSlice gpu-node-1", "ResourceClaim team-a/train-0"
    std::string target; // "resource.k8s.io/v1alpha3"
};

// The error for a field the target version has no place for.
std::unexpected<common::Error> notExpressible(
    const ConversionScope &scope, std::string_view path, std::string_view why = {});

// The error for a value whose JSON type prevents restructuring it (a device that is not an object).
std::unexpected<common::Error> malformed(
    const ConversionScope &scope, std::string_view path, std::string_view expected);

// `path.key`, or `key` at the top.
std::string childPath(std::string_view path, std::string_view key);
// `path[index]`.
std::string itemPath(std::string_view path, std::size_t index);

// Fails unless `value` is an object or absent (null); the caller skips a null value.
[[nodiscard]] Result<void> requireObjectOrNull(
    const nlohmann::json &value, const ConversionScope &scope, std::string_view path);
[[nodiscard]] Result<void> requireArrayOrNull(
    const nlohmann::json &value, const ConversionScope &scope, std::string_view path);

// Replaces each item of the list (or null) `items` at `path` with convert(item, itemPath), and
// fails with the first failure.
using ItemConverter
    = std::function<Result<nlohmann::json>(const nlohmann::json &, const std::string &)>;
[[nodiscard]] Result<void> convertItems(nlohmann::json &items, const ConversionScope &scope,
    std::string_view path, const ItemConverter &convert);

// Removes `key` when it holds the zero value of a Go string ("") or bool (false): old versions
// declare such fields as plain values with omitempty, v1 as pointers, and Kubernetes maps the
// zero value to "unset" both ways.
void eraseGoZero(nlohmann::json &object, std::string_view key);

// ResourceSlice spec, v1beta1/v1alpha3 <-> v1 (devices, slice-level node fields, capacity shape).
[[nodiscard]] Result<void> sliceSpecUp(
    nlohmann::json &spec, ResourceVersion from, const ConversionScope &scope);
[[nodiscard]] Result<void> sliceSpecDown(
    nlohmann::json &spec, ResourceVersion to, const ConversionScope &scope);

// ResourceClaimSpec at `path` ("spec", or "spec.spec" in a template), v1beta1/v1alpha3 <-> v1.
[[nodiscard]] Result<void> claimSpecUp(nlohmann::json &spec, ResourceVersion from,
    const ConversionScope &scope, std::string_view path);
[[nodiscard]] Result<void> claimSpecDown(
    nlohmann::json &spec, const ConversionScope &scope, std::string_view path);

// ResourceClaimStatus and DeviceClassSpec from 1.31's v1alpha3, which still carried the removed
// control-plane-controller fields.
[[nodiscard]] Result<void> claimStatusUpFromV1alpha3(
    nlohmann::json &status, const ConversionScope &scope);
[[nodiscard]] Result<void> classSpecUpFromV1alpha3(
    nlohmann::json &spec, const ConversionScope &scope);

// Fails naming the first field of a v1 object that Kubernetes 1.31's v1alpha3 has no field for.
[[nodiscard]] Result<void> checkExpressibleInV1alpha3(
    const nlohmann::json &object, std::string_view kind, const ConversionScope &scope);

} // namespace dra::model::detail
