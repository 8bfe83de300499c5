// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <QString>

namespace dra::cli {

// Prints rows as kubectl does: upper-case headers, columns padded to their widest cell and
// separated by three spaces. An empty table prints "No resources found." to stderr.
void printTable(const std::vector<std::string> &headers,
    const std::vector<std::vector<std::string>> &rows,
    const QString &emptyMessage = QStringLiteral("No resources found."));

// Prints a JSON value pretty (2 spaces) or as YAML, followed by a newline.
void printJson(const nlohmann::json &value);
void printYaml(const nlohmann::json &value);

// True for the formats structured printers handle ("json", "yaml").
bool isStructured(const QString &format);

} // namespace dra::cli
