// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/commands/output.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "core/model/yaml_codec.h"

namespace dra::cli {

namespace {

// Display width of UTF-8 text: code points, which is right for the names and values we print.
size_t displayWidth(const std::string &text)
{
    return size_t(std::count_if(text.begin(), text.end(),
        [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string upper(std::string text)
{
    for (char &c : text)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

} // namespace

void printTable(const std::vector<std::string> &headers,
    const std::vector<std::vector<std::string>> &rows, const QString &emptyMessage)
{
    if (rows.empty()) {
        err(emptyMessage + QLatin1Char('\n'));
        return;
    }
    std::vector<size_t> widths(headers.size());
    for (size_t i = 0; i < headers.size(); ++i)
        widths[i] = displayWidth(headers[i]);
    for (const auto &row : rows)
        for (size_t i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], displayWidth(row[i]));
    std::string text;
    const auto emit = [&](const std::vector<std::string> &cells, bool header) {
        for (size_t i = 0; i < widths.size(); ++i) {
            const std::string cell
                = i < cells.size() ? (header ? upper(cells[i]) : cells[i]) : std::string();
            text += cell;
            if (i + 1 < widths.size())
                text += std::string(widths[i] - displayWidth(cell) + 3, ' ');
        }
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        text += '\n';
    };
    emit(headers, true);
    for (const auto &row : rows)
        emit(row, false);
    out(text);
}

void printJson(const nlohmann::json &value)
{
    out(value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    out(std::string_view("\n"));
}

void printYaml(const nlohmann::json &value)
{
    out(model::jsonToYaml(value));
}

bool isStructured(const QString &format)
{
    return format == QLatin1String("json") || format == QLatin1String("yaml");
}

} // namespace dra::cli
