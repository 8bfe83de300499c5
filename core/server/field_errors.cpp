// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/field_errors.h"

#include "core/common/json_text.h"

namespace dra::server {

namespace {

// Values print as Go's %v would for the types validation reports: strings quoted, numbers and
// booleans bare, null as null, anything else as compact JSON.
std::string printed(const nlohmann::json &value)
{
    return common::compactJson(value);
}

} // namespace

std::string FieldError::body() const
{
    switch (type) {
    case Type::Required:
        return detail.empty() ? "Required value" : "Required value: " + detail;
    case Type::Invalid:
        // A discarded value stands for one too large to print (a whole spec).
        if (value.is_discarded())
            return "Invalid value: " + detail;
        return "Invalid value: " + printed(value) + (detail.empty() ? "" : ": " + detail);
    case Type::NotSupported: {
        std::string text = "Unsupported value: " + printed(value);
        if (!supported.empty()) {
            text += ": supported values: ";
            for (size_t i = 0; i < supported.size(); ++i)
                text += (i ? ", \"" : "\"") + supported[i] + "\"";
        }
        return text;
    }
    case Type::Duplicate:
        return "Duplicate value: " + printed(value);
    case Type::TooMany:
        return "Too many: " + printed(value) + ": must have at most " + std::to_string(limit)
            + " items";
    case Type::TooLong:
        return "Too long: may not be more than " + std::to_string(limit) + " bytes";
    case Type::Forbidden:
        return detail.empty() ? "Forbidden" : "Forbidden: " + detail;
    }
    return detail;
}

std::string FieldError::causeType() const
{
    switch (type) {
    case Type::Required:
        return "FieldValueRequired";
    case Type::Invalid:
        return "FieldValueInvalid";
    case Type::NotSupported:
        return "FieldValueNotSupported";
    case Type::Duplicate:
        return "FieldValueDuplicate";
    case Type::TooMany:
        return "FieldValueTooMany";
    case Type::TooLong:
        return "FieldValueTooLong";
    case Type::Forbidden:
        return "FieldValueForbidden";
    }
    return "FieldValueInvalid";
}

FieldError required(std::string field, std::string detail)
{
    return { FieldError::Type::Required, std::move(field), nullptr, std::move(detail), {}, 0 };
}

FieldError invalid(std::string field, nlohmann::json value, std::string detail)
{
    return { FieldError::Type::Invalid, std::move(field), std::move(value), std::move(detail), {},
        0 };
}

FieldError notSupported(std::string field, nlohmann::json value, std::vector<std::string> supported)
{
    return { FieldError::Type::NotSupported, std::move(field), std::move(value), {},
        std::move(supported), 0 };
}

FieldError duplicate(std::string field, nlohmann::json value)
{
    return { FieldError::Type::Duplicate, std::move(field), std::move(value), {}, {}, 0 };
}

FieldError tooMany(std::string field, int64_t count, int64_t limit)
{
    return { FieldError::Type::TooMany, std::move(field), count, {}, {}, limit };
}

FieldError tooLong(std::string field, int64_t limit)
{
    return { FieldError::Type::TooLong, std::move(field), nullptr, {}, {}, limit };
}

FieldError forbidden(std::string field, std::string detail)
{
    return { FieldError::Type::Forbidden, std::move(field), nullptr, std::move(detail), {}, 0 };
}

} // namespace dra::server
