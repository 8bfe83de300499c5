// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <QString>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace dra::model {

struct SchemaNode;

// One document of a YAML stream, as the JSON Kubernetes would decode it to.
struct YamlDocument
{
    nlohmann::json value;
    int line = 0; // 1-based line where the document's content starts
    std::vector<int> itemLines; // 1-based line of each element of a top-level `items` list
};

// Why one document of a stream could not be read.
struct YamlError
{
    int line = 0; // 1-based
    int column = 0; // 1-based
    QString reason;

    // "origin:LINE:COL: reason", the form editors and terminals link to.
    QString message(const QString &origin) const;
};

// All documents of a stream: a broken document costs only itself, the others are kept.
struct YamlStream
{
    std::vector<YamlDocument> documents; // in stream order; documents without content skipped
    std::vector<YamlError> errors; // in stream order, at most one per document
};

// Parses a multi-document YAML stream (`---` separated) the way Kubernetes reads manifests,
// typed by the schema of each document's apiVersion/kind:
// - plain scalars resolve as in Kubernetes' YAML 1.1 decoder (true/yes/on, 0x1F, 0755, 1e3,
//   ~/null, ...), except where the schema expects a String or Quantity (or a map of them, such
//   as labels): there the scalar's text is kept, so `version: 1.10` stays "1.10";
// - integers beyond int64 keep their text where a string is allowed and are an error elsewhere;
// - quoted and block scalars are always strings; map keys are always their text;
// - anchors, aliases and `<<` merge keys work; duplicate keys are an error;
// - List kinds type each item by its own (or the list's) apiVersion/kind.
// Never fails as a whole. Thread-safe.
YamlStream parseYamlDocuments(std::string_view text);

// Exactly one document (an empty text is null). Errors read "origin:LINE:COL: reason".
[[nodiscard]] Result<nlohmann::json> parseYaml(std::string_view text, const QString &origin);

// As parseYaml, typed by `schema` instead of the document's own apiVersion/kind (editors of a
// fragment, e.g. a claim spec). A null schema applies plain YAML resolution everywhere.
[[nodiscard]] Result<nlohmann::json> parseYamlAs(
    std::string_view text, const QString &origin, const SchemaNode *schema);

// As parseYaml, keeping each mapping's keys in the order the text has them, for editors that
// write the document back after changing a few fields (see jsonToYaml(ordered_json)).
[[nodiscard]] Result<nlohmann::ordered_json> parseYamlOrdered(
    std::string_view text, const QString &origin);

// Block-style YAML with two-space indentation and keys in the JSON's order, as kubectl writes
// it. Strings that would read back as something else are quoted, multi-line strings become
// block literals; parseYaml(jsonToYaml(v)) == v.
std::string jsonToYaml(const nlohmann::json &value);

// The same, keys in the ordered_json's (the author's) order.
std::string jsonToYaml(const nlohmann::ordered_json &value);

// Several documents separated by `---` lines.
std::string jsonToYamlDocuments(const std::vector<nlohmann::json> &values);

} // namespace dra::model
