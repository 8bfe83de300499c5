// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

// Converts a cel-spec SimpleTestFile in protobuf text format to the JSON shape of the
// npm suites ({"name", "suites": [{"name", "tests": [...]}]}, lowerCamelCase fields, bytes in
// base64), so one runner handles both. Returns a discarded value on a syntax error.
nlohmann::json textprotoToJson(std::string_view text);
