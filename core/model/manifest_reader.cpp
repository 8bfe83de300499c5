// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/manifest_reader.h"

#include <algorithm>

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include "core/common/json_text.h"
#include "core/model/yaml_codec.h"

namespace dra::model {

namespace {

using json = nlohmann::json;

// One top-level value of a JSON stream, located in the text.
struct JsonChunk
{
    std::string_view text;
    int line = 1; // 1-based line of the value's first character
    std::vector<int> itemLines; // lines of the elements of a top-level "items" array
};

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string_view skipBom(std::string_view text)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    return text;
}

bool looksLikeJson(std::string_view text)
{
    const auto first = std::find_if_not(text.begin(), text.end(), isSpace);
    return first != text.end() && (*first == '{' || *first == '[');
}

// kubectl accepts concatenated JSON values; this cuts a stream into them by bracket depth
// (strings and escapes respected) and notes where each element of a top-level "items" starts,
// so list items get their own line in origins.
std::vector<JsonChunk> splitJsonStream(std::string_view text)
{
    std::vector<JsonChunk> chunks;
    std::size_t i = 0;
    int line = 1;
    while (i < text.size()) {
        if (isSpace(text[i])) {
            line += text[i] == '\n';
            ++i;
            continue;
        }
        JsonChunk chunk;
        chunk.line = line;
        const std::size_t start = i;
        if (text[i] != '{' && text[i] != '[') { // a bare scalar: up to the next separator
            while (i < text.size() && !isSpace(text[i]) && text[i] != '{' && text[i] != '[')
                ++i;
            chunk.text = text.substr(start, i - start);
            chunks.push_back(std::move(chunk));
            continue;
        }
        int depth = 0;
        bool inString = false;
        bool escaped = false;
        bool topIsObject = text[i] == '{';
        std::string_view lastKey;
        std::size_t keyStart = 0;
        bool inItems = false;
        bool expectItem = false;
        for (; i < text.size(); ++i) {
            const char c = text[i];
            if (c == '\n')
                ++line;
            if (inString) {
                if (escaped)
                    escaped = false;
                else if (c == '\\')
                    escaped = true;
                else if (c == '"') {
                    inString = false;
                    if (depth == 1)
                        lastKey = text.substr(keyStart, i - keyStart);
                }
                continue;
            }
            if (inItems && depth == 2 && expectItem && !isSpace(c) && c != ']') {
                chunk.itemLines.push_back(line);
                expectItem = false;
            }
            if (c == '"') {
                inString = true;
                keyStart = i + 1;
            } else if (c == '{' || c == '[') {
                ++depth;
                if (depth == 2 && c == '[' && topIsObject && lastKey == "items")
                    inItems = expectItem = true;
            } else if (c == '}' || c == ']') {
                if (depth == 2)
                    inItems = false;
                if (--depth == 0) {
                    ++i;
                    break;
                }
            } else if (c == ',' && depth == 2 && inItems) {
                expectItem = true;
            }
        }
        chunk.text = text.substr(start, i - start);
        chunks.push_back(std::move(chunk));
    }
    return chunks;
}

QString at(const QString &origin, int line)
{
    return origin + QLatin1Char(':') + QString::number(line);
}

// Kind and apiVersion of a list item default to the list's, as kubectl does.
void inheritFromList(json &item, const json &list)
{
    if (!item.is_object())
        return;
    const auto kind = list.find("kind");
    const auto apiVersion = list.find("apiVersion");
    if (!item.contains("kind") && kind != list.end() && kind->is_string()) {
        const std::string &listKind = kind->get_ref<const std::string &>();
        if (listKind != "List")
            item["kind"] = listKind.substr(0, listKind.size() - 4);
    }
    if (!item.contains("apiVersion") && apiVersion != list.end() && apiVersion->is_string())
        item["apiVersion"] = *apiVersion;
}

bool isList(const json &value)
{
    const auto kind = value.find("kind");
    const auto items = value.find("items");
    return kind != value.end() && kind->is_string()
        && kind->get_ref<const std::string &>().ends_with("List") && items != value.end()
        && items->is_array();
}

bool hasText(const json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() && !it->get_ref<const std::string &>().empty();
}

QString typeName(const json &value)
{
    return common::qs(value.type_name());
}

void addValue(ManifestSet &set, json value, const QString &origin, int line,
    const std::vector<int> &itemLines)
{
    if (value.is_null())
        return; // an empty document
    if (!value.is_object()) {
        set.problems.push_back({ at(origin, line),
            QStringLiteral("expected a Kubernetes object, "
                           "found a %1")
                .arg(typeName(value)) });
        return;
    }
    if (isList(value)) {
        json &items = value["items"];
        for (std::size_t i = 0; i < items.size(); ++i) {
            inheritFromList(items[i], value);
            addValue(
                set, std::move(items[i]), origin, i < itemLines.size() ? itemLines[i] : line, {});
        }
        return;
    }
    QStringList missing;
    if (!hasText(value, "apiVersion"))
        missing << QStringLiteral("apiVersion");
    if (!hasText(value, "kind"))
        missing << QStringLiteral("kind");
    const auto metadata = value.find("metadata");
    if (metadata == value.end() || !metadata->is_object() || !hasText(*metadata, "name"))
        missing << QStringLiteral("metadata.name");
    if (!missing.isEmpty()) {
        set.problems.push_back({ at(origin, line),
            QStringLiteral("not a Kubernetes object: no %1")
                .arg(missing.join(QStringLiteral(", "))) });
        return;
    }
    set.documents.push_back({ std::move(value), at(origin, line) });
}

// Line and column (1-based) of byte `offset` of `text`, counted from `line`.
std::pair<int, int> position(std::string_view text, std::size_t offset, int line)
{
    int column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n')
            ++line, column = 1;
        else
            ++column;
    }
    return { line, column };
}

// Reads a JSON stream; false when nothing in it parsed (it may be flow-style YAML then).
bool readJson(std::string_view text, const QString &origin, ManifestSet &local)
{
    bool anyParsed = false;
    for (const JsonChunk &chunk : splitJsonStream(text)) {
        try {
            json value = json::parse(chunk.text.begin(), chunk.text.end());
            anyParsed = true;
            addValue(local, std::move(value), origin, chunk.line, chunk.itemLines);
        } catch (const json::parse_error &e) {
            const auto [line, column]
                = position(chunk.text, e.byte > 0 ? e.byte - 1 : 0, chunk.line);
            QString detail = QString::fromUtf8(e.what());
            if (const qsizetype cut
                = detail.indexOf(QStringLiteral(": "), detail.indexOf(QStringLiteral("column")));
                cut >= 0)
                detail = detail.mid(cut + 2);
            local.problems.push_back(
                { at(origin, line) + QLatin1Char(':') + QString::number(column),
                    QStringLiteral("malformed JSON: ") + detail });
        }
    }
    return anyParsed || local.problems.empty();
}

void readYaml(std::string_view text, const QString &origin, ManifestSet &set)
{
    YamlStream stream = parseYamlDocuments(text);
    // Keep problems in stream order with the documents' own problems.
    std::size_t nextError = 0;
    for (YamlDocument &document : stream.documents) {
        for (; nextError < stream.errors.size() && stream.errors[nextError].line < document.line;
             ++nextError) {
            const YamlError &error = stream.errors[nextError];
            set.problems.push_back(
                { at(origin, error.line) + QLatin1Char(':') + QString::number(error.column),
                    error.reason });
        }
        addValue(set, std::move(document.value), origin, document.line, document.itemLines);
    }
    for (; nextError < stream.errors.size(); ++nextError) {
        const YamlError &error = stream.errors[nextError];
        set.problems.push_back(
            { at(origin, error.line) + QLatin1Char(':') + QString::number(error.column),
                error.reason });
    }
}

void readFile(const QString &path, ManifestSet &set)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        set.problems.push_back({ path, QStringLiteral("cannot read: ") + file.errorString() });
        return;
    }
    const QByteArray data = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        set.problems.push_back({ path, QStringLiteral("cannot read: ") + file.errorString() });
        return;
    }
    ManifestSet read
        = readManifestText(std::string_view(data.constData(), std::size_t(data.size())), path);
    std::move(read.documents.begin(), read.documents.end(), std::back_inserter(set.documents));
    std::move(read.problems.begin(), read.problems.end(), std::back_inserter(set.problems));
}

} // namespace

ManifestSet readManifestText(std::string_view text, const QString &origin)
{
    ManifestSet set;
    text = skipBom(text);
    try {
        if (!looksLikeJson(text)) {
            readYaml(text, origin, set);
        } else if (!readJson(text, origin, set)) {
            // Not JSON after all? Flow-style YAML (`{kind: Pod}`) also starts with a brace.
            ManifestSet yaml;
            readYaml(text, origin, yaml);
            if (!yaml.documents.empty() && yaml.problems.empty())
                set = std::move(yaml);
        }
    } catch (const std::exception &e) {
        // Defensive: nlohmann or yaml-cpp throwing on something unforeseen costs the file only.
        set.problems.push_back(
            { origin, QStringLiteral("cannot read: ") + QString::fromUtf8(e.what()) });
    }
    return set;
}

ManifestSet readManifests(const QStringList &paths)
{
    ManifestSet set;
    for (const QString &path : paths) {
        const QFileInfo info(path);
        if (!info.exists()) {
            set.problems.push_back({ path, QStringLiteral("no such file or directory") });
            continue;
        }
        if (!info.isDir()) {
            readFile(path, set);
            continue;
        }
        QStringList files;
        QDirIterator it(path,
            { QStringLiteral("*.json"), QStringLiteral("*.yaml"), QStringLiteral("*.yml") },
            QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
        files.sort();
        if (files.isEmpty())
            set.problems.push_back({ path, QStringLiteral("no *.json, *.yaml or *.yml files") });
        for (const QString &file : files)
            readFile(file, set);
    }
    return set;
}

} // namespace dra::model
