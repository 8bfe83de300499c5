// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace dra::common {

// Parses JSON text without throwing. `origin` (a file name, "request body") leads the error
// message, which also carries nlohmann's byte position.
[[nodiscard]] Result<nlohmann::json> parseJson(std::string_view text, const QString &origin);

// Compact one-line JSON (the cache's storage form and the watch wire form). Invalid UTF-8 is
// replaced rather than thrown on, since the text came from a server we do not control.
std::string compactJson(const nlohmann::json &value);

// The string member `name` of a JSON object, "" when it is absent or not a string: for
// optional fields of objects already checked to be objects.
inline std::string stringMember(const nlohmann::json &object, const char *name)
{
    const auto it = object.find(name);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// QString from UTF-8 std::string, the bridge from model fields to Qt APIs.
inline QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace dra::common
