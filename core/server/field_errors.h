// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dra::server {

// One validation failure of one field, as apimachinery's field.Error: the Status cause and
// the "field: Type: value: detail" line kubectl prints. Plain value.
struct FieldError
{
    enum class Type { Required, Invalid, NotSupported, Duplicate, TooMany, TooLong, Forbidden };
    Type type = Type::Invalid;
    std::string field; // "spec.devices.requests[0].exactly.count"
    nlohmann::json value; // the offending value (Invalid, NotSupported, Duplicate); discarded
                          // when it is not to be printed
    std::string detail;
    std::vector<std::string> supported; // NotSupported
    int64_t limit = 0; // TooMany, TooLong

    // "Invalid value: 0: must be greater than zero", the cause message.
    std::string body() const;
    // "spec...count: Invalid value: 0: must be greater than zero".
    std::string message() const { return field + ": " + body(); }
    // The cause `reason`: "FieldValueInvalid", ...
    std::string causeType() const;
};

using FieldErrors = std::vector<FieldError>;

// Builders, so validators read like apimachinery's field package.
FieldError required(std::string field, std::string detail = {});
FieldError invalid(std::string field, nlohmann::json value, std::string detail);
FieldError notSupported(
    std::string field, nlohmann::json value, std::vector<std::string> supported);
FieldError duplicate(std::string field, nlohmann::json value);
FieldError tooMany(std::string field, int64_t count, int64_t limit);
FieldError tooLong(std::string field, int64_t limit);
FieldError forbidden(std::string field, std::string detail);

} // namespace dra::server
