// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/table_encoding.h"

#include <charconv>

#include <nlohmann/json.hpp>

#include "core/inventory/age.h"
#include "core/inventory/object_table.h"
#include "core/server/http_message.h"

namespace dra::server {

bool acceptsTable(std::string_view accept)
{
    // kubectl lists Table first and plain JSON last; any clause naming Table wins.
    return acceptsMediaType(accept, { "as=Table", "g=meta.k8s.io" });
}

namespace {

nlohmann::json cell(const inventory::TableColumn &column, const std::string &text)
{
    if (column.type == "integer") {
        long long value = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec == std::errc() && ptr == text.data() + text.size())
            return value;
    }
    return text;
}

} // namespace

nlohmann::json makeTable(const model::KindInfo &kind,
    const std::vector<const ServedObject *> &items, const Rendering &rendering, bool withColumns)
{
    const std::vector<inventory::TableColumn> &columns = inventory::tableColumns(kind.kind);
    nlohmann::json definitions = nlohmann::json::array();
    if (withColumns) {
        for (const inventory::TableColumn &column : columns)
            definitions.push_back(
                { { "name", column.name }, { "type", column.type }, { "format", column.format },
                    { "description", column.description }, { "priority", column.priority } });
    }
    const int64_t now = inventory::nowSeconds();
    nlohmann::json rows = nlohmann::json::array();
    for (const ServedObject *item : items) {
        const std::vector<std::string> texts = inventory::tableRow(item->object, now);
        nlohmann::json cells = nlohmann::json::array();
        for (size_t i = 0; i < texts.size(); ++i)
            cells.push_back(
                i < columns.size() ? cell(columns[i], texts[i]) : nlohmann::json(texts[i]));
        nlohmann::json row = { { "cells", std::move(cells) } };
        if (rendering.includeObject == "Object") {
            row["object"] = item->json;
        } else if (rendering.includeObject != "None") {
            // kubectl builds the NAMESPACE column of `-A` from row.object.metadata.namespace.
            row["object"]
                = { { "kind", "PartialObjectMetadata" }, { "apiVersion", "meta.k8s.io/v1" },
                      { "metadata", item->json.value("metadata", nlohmann::json::object()) } };
        }
        rows.push_back(std::move(row));
    }
    return { { "kind", "Table" }, { "apiVersion", "meta.k8s.io/v1" },
        { "metadata", nlohmann::json::object() }, { "columnDefinitions", std::move(definitions) },
        { "rows", std::move(rows) } };
}

} // namespace dra::server
