// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/server/field_errors.h"

namespace dra::server {

// Validates the attributes of one ResourceSlice device (v1 shape) as kube-apiserver does: each
// value sets exactly one of int, bool, string, version, ints, bools, strings, versions; strings
// and versions are at most 64 characters and versions are semver; and the device holds at
// most 48 values in all, a list counting its length (KEP-5491). `path` is the device's field
// path ("spec.devices[0]"); errors are appended to `errors`.
void validateDeviceAttributes(
    const nlohmann::json &device, const std::string &path, FieldErrors &errors);

} // namespace dra::server
